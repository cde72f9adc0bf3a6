package blosclz

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc/internal/le"
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
// length and treat a different count as corruption. Bytes of dst after the
// count returned may have been overwritten.
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
			if len(src)-ip >= maxCopy && len(dst)-op >= maxCopy {
				// Room for a whole run: a fixed-size move beats memmove's
				// dispatch. Bytes past n are rewritten later or lie past
				// what Decompress reports. (ip and op only grow from 1
				// and 0, so the test above bounds both moves.)
				le.Store64(dst, op, le.Load64(src, ip))
				le.Store64(dst, op+8, le.Load64(src, ip+8))
				le.Store64(dst, op+16, le.Load64(src, ip+16))
				le.Store64(dst, op+24, le.Load64(src, ip+24))
			} else {
				if n > len(dst)-op {
					return op, errOverflow
				}
				if n > len(src)-ip {
					return op, errLiteral
				}
				copy(dst[op:op+n], src[ip:ip+n])
			}
			op += n
			ip += n
			if ip >= len(src) {
				return op, nil
			}
			ctrl = uint(le.Load8(src, ip))
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
				code := le.Load8(src, ip)
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
		code := le.Load8(src, ip)
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
		ctrl = uint(le.Load8(src, ip))
		ip++

		ref := op - dist
		if n <= 16 && dist >= 8 && len(dst)-op >= 16 {
			// The usual short match: two words, the second loaded after
			// the first is stored, so an overlap of 8 or more copies right.
			// In bounds: 0 <= ref (dist <= op) and ref+16 <= op+8.
			le.Store64(dst, op, le.Load64(dst, ref))
			le.Store64(dst, op+8, le.Load64(dst, ref+8))
			op += n
			continue
		}
		if n <= 32 && dist >= 8 && len(dst)-op >= 32 {
			le.Store64(dst, op, le.Load64(dst, ref))
			le.Store64(dst, op+8, le.Load64(dst, ref+8))
			le.Store64(dst, op+16, le.Load64(dst, ref+16))
			le.Store64(dst, op+24, le.Load64(dst, ref+24))
			op += n
			continue
		}
		op = copyMatch(dst, op, ref, n)
	}
}

// copyMatch copies the n bytes at ref to op (ref < op), byte by byte in
// effect, so an overlapping source repeats its pattern. It returns op+n.
func copyMatch(dst []byte, op, ref, n int) int {
	dist := op - ref
	if n <= 32 && len(dst)-op >= 40 {
		if dist >= 8 {
			for o, r := op, ref; o < op+n; o, r = o+8, r+8 {
				binary.LittleEndian.PutUint64(dst[o:o+8], binary.LittleEndian.Uint64(dst[r:r+8]))
			}
			return op + n
		}
		if dist == 1 {
			v := uint64(dst[ref]) * 0x0101010101010101
			for o := op; o < op+n; o += 8 {
				binary.LittleEndian.PutUint64(dst[o:o+8], v)
			}
			return op + n
		}
		d, r := dst[op:op+n], dst[ref:ref+n]
		for i := range d {
			d[i] = r[i]
		}
		return op + n
	}
	if dist >= n {
		copy(dst[op:op+n], dst[ref:ref+n])
		return op + n
	}
	end := op + n
	if dist == 1 {
		// A long run of one byte, as a shuffled counter's higher bytes
		// give: word stores, where the doubling copies below took eight
		// memmove calls for a run of 255.
		v := uint64(dst[ref]) * 0x0101010101010101
		o := op
		for ; o+32 <= end; o += 32 {
			w := (*[32]byte)(dst[o : o+32])
			binary.LittleEndian.PutUint64(w[0:8], v)
			binary.LittleEndian.PutUint64(w[8:16], v)
			binary.LittleEndian.PutUint64(w[16:24], v)
			binary.LittleEndian.PutUint64(w[24:32], v)
		}
		for ; o+8 <= end; o += 8 {
			binary.LittleEndian.PutUint64(dst[o:o+8], v)
		}
		for ; o < end; o++ {
			dst[o] = byte(v)
		}
		return end
	}
	// Each copy doubles the part of the pattern already written.
	for op < end {
		op += copy(dst[op:end], dst[ref:op])
	}
	return op
}
