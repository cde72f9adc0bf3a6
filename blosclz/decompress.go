package blosclz

import (
	"encoding/binary"
	"fmt"
)

// The errors are built once: Decompress must not allocate, even when it
// fails on hostile input in a hot loop.
var (
	errTruncated = fmt.Errorf("%w: stream ends inside a match", ErrCorrupt)
	errLiteral   = fmt.Errorf("%w: literal run past the end of the stream", ErrCorrupt)
	errOverflow  = fmt.Errorf("%w: output larger than the destination", ErrCorrupt)
	errDistance  = fmt.Errorf("%w: match before the start of the output", ErrCorrupt)
)

// Decompress decodes the BloscLZ stream src into dst and returns the number
// of bytes written. Any stream that C's decoder rejects gives an error
// wrapping ErrCorrupt; so does one that would write past len(dst). Callers
// that know the decoded size (a Blosc block does) pass a dst of exactly that
// length and treat a different count as corruption.
//
// Like C, Decompress returns 0 bytes for an empty src, and does not copy a
// match that ends the stream (after checking it): the encoders always end
// with literals, and reading such a stream differently from C would make the
// two disagree on what a chunk holds.
func Decompress(dst, src []byte) (int, error) {
	if len(src) == 0 {
		return 0, nil
	}
	ip, op := 1, 0
	ctrl := uint(src[0] & 31) // the format bit marks the first control byte
	for {
		if ctrl < 32 {
			n := int(ctrl) + 1
			if n > len(dst)-op {
				return op, errOverflow
			}
			if n > len(src)-ip {
				return op, errLiteral
			}
			copy(dst[op:op+n], src[ip:ip+n])
			op += n
			ip += n
			if ip >= len(src) {
				return op, nil
			}
			ctrl = uint(src[ip])
			ip++
			continue
		}

		n := int(ctrl>>lenShift) - 1
		dist := int(ctrl&31) << 8
		if n == longLen-1 {
			for {
				if ip+1 >= len(src) {
					return op, errTruncated
				}
				code := src[ip]
				ip++
				n += int(code)
				if code != 255 {
					break
				}
				if n > len(dst) { // also keeps n from overflowing on 32-bit
					return op, errOverflow
				}
			}
		} else if ip+1 >= len(src) {
			return op, errTruncated
		}
		code := src[ip]
		ip++
		n += 3
		dist += int(code)
		if code == farLowByte && dist == farMarker<<8+farLowByte {
			if ip+1 >= len(src) {
				return op, errTruncated
			}
			dist = int(src[ip])<<8 | int(src[ip+1]) + maxDistance
			ip += 2
		}
		dist++ // distances are stored biased by one
		if n > len(dst)-op {
			return op, errOverflow
		}
		if dist > op {
			return op, errDistance
		}
		if ip >= len(src) {
			return op, nil
		}
		ctrl = uint(src[ip])
		ip++

		ref := op - dist
		if dist >= n {
			copy(dst[op:op+n], dst[ref:ref+n])
			op += n
			continue
		}
		if dist == 1 {
			b := dst[ref]
			run := dst[op : op+n]
			for i := range run {
				run[i] = b
			}
			op += n
			continue
		}
		if dist >= 8 && len(dst)-op >= n+8 {
			// Overlapping by at least 8: whole words copy forward correctly.
			end := op + n
			for o, r := op, ref; o < end; o, r = o+8, r+8 {
				binary.LittleEndian.PutUint64(dst[o:o+8], binary.LittleEndian.Uint64(dst[r:r+8]))
			}
			op = end
			continue
		}
		// Repeating a short pattern: each copy doubles the source window.
		end := op + n
		for op < end {
			op += copy(dst[op:end], dst[ref:op])
		}
	}
}
