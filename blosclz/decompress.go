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
				// dispatch, and two vector moves rather than four words
				// hold half as many stores in flight while the scratch
				// buffer's lines come in from memory (the literal runs of
				// runs). Bytes past n are rewritten later or lie past
				// what Decompress reports. (ip and op only grow from 1
				// and 0, so the test above bounds both moves.)
				le.Copy16(dst, op, src, ip)
				le.Copy16(dst, op+16, src, ip+16)
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
	end := op + n
	if dist == 1 {
		return fillRun(dst, op, end, dst[ref])
	}
	if dist >= 8 && (n <= 64 || dist < n) && n <= wildMax && len(dst)-end >= 16 {
		// C's wild copy: whole words, the last ones past end (rewritten
		// later or past what Decompress reports). Each load ends at or
		// before the store it feeds, so an overlap copies the pattern;
		// a match of a few dozen bytes, common in sparse data's shuffled
		// streams, costs memmove's dispatch more than its copy. A longer
		// match that does not overlap is left to memmove, which measured
		// ahead on smooth floats' streams.
		// In bounds: 0 <= ref, and the last store ends before end+16.
		o, r := op, ref
		if dist >= 16 {
			for ; o < end; o, r = o+16, r+16 {
				a, b := le.Load64(dst, r), le.Load64(dst, r+8)
				le.Store64(dst, o, a)
				le.Store64(dst, o+8, b)
			}
			return end
		}
		for ; o < end; o, r = o+8, r+8 {
			le.Store64(dst, o, le.Load64(dst, r))
		}
		return end
	}
	if dist < 8 && n <= wildMax && len(dst)-end >= 16 {
		// A short pattern (distance 2-7, the repeated bytes of slowly
		// changing data's streams) is built in a register and stored a
		// word at a time, each word the last one rotated by 8 bytes of
		// the pattern: no load follows a store it overlaps, where
		// copying words from a few bytes back waited on each store
		// (C's copy_match has a case per distance instead). The last
		// word may run past end, into bytes rewritten later or past what
		// Decompress reports. In bounds: ref >= 0, the load ends before
		// op+8, and every store before end+8.
		d := uint(dist) & 7
		// Bytes past op in the load are not written yet: masked off, and
		// the pattern repeated over the word by one multiplication.
		w := (le.Load64(dst, ref) & (1<<(8*d) - 1)) * patternRepeat[d]
		shr, shl := patternShift[d][0], patternShift[d][1]
		for o := op; o < end; o += 8 {
			le.Store64(dst, o, w)
			w = w>>shr | w<<shl
		}
		return end
	}
	if n <= 32 && len(dst)-op >= 40 {
		if dist >= 8 {
			for o, r := op, ref; o < end; o, r = o+8, r+8 {
				binary.LittleEndian.PutUint64(dst[o:o+8], binary.LittleEndian.Uint64(dst[r:r+8]))
			}
			return end
		}
		d, r := dst[op:end], dst[ref:ref+n]
		for i := range d {
			d[i] = r[i]
		}
		return end
	}
	if dist >= n {
		copy(dst[op:end], dst[ref:ref+n])
		return end
	}
	// Each copy doubles the part of the pattern already written.
	for op < end {
		op += copy(dst[op:end], dst[ref:op])
	}
	return op
}

// patternRepeat[d] repeats a pattern of d bytes (2 <= d < 8) over a word
// when it multiplies them: a 1 every d bytes, whose products do not
// overlap.
var patternRepeat = [8]uint64{2: 0x0001000100010001, 3: 0x0001000001000001, 4: 0x0000000100000001,
	5: 0x0000010000000001, 6: 0x0001000000000001, 7: 0x0100000000000001}

// patternShift[d] turns the word of a repeated d-byte pattern into the
// next 8 bytes of it: right by 8%d bytes, left by d-8%d, ORed.
var patternShift = [8][2]uint{2: {0, 16}, 3: {16, 8}, 4: {0, 32}, 5: {24, 16}, 6: {16, 32}, 7: {8, 48}}

// wildMax is the longest overlapping match copyMatch copies a word pair
// at a time; memmove's doubling copies are ahead on longer ones.
const wildMax = 256

// fillWordsMax is the longest run of a byte other than zero that fillRun
// writes with word stores alone.
const fillWordsMax = 512

// fillRun writes byte v over dst[op:end] and returns end: a match at
// distance 1, which C writes with memset. The shuffled streams of sparse
// or slowly changing data are full of them, and of zeros above all.
func fillRun(dst []byte, op, end int, v byte) int {
	n := end - op
	if n > 16 && v == 0 {
		// The runtime's memclr stores whole vectors.
		clear(dst[op:end])
		return end
	}
	w := uint64(v) * 0x0101010101010101
	if n <= fillWordsMax && len(dst)-end >= 32 {
		// Words, the last ones past end as in the wild copy: a run of a
		// few hundred bytes costs memmove's calls more than its stores.
		// In bounds: the last store ends before end+32.
		for o := op; o < end; o += 32 {
			le.Store64(dst, o, w)
			le.Store64(dst, o+8, w)
			le.Store64(dst, o+16, w)
			le.Store64(dst, o+24, w)
		}
		return end
	}
	if n >= 64 {
		// Write 64 bytes, then double them with memmove, whose vector
		// loop stores faster than words for long runs (a shuffled
		// counter's higher bytes give runs of thousands).
		x := (*[64]byte)(dst[op : op+64])
		for i := 0; i < 64; i += 8 {
			binary.LittleEndian.PutUint64(x[i:i+8], w)
		}
		for o := op + 64; o < end; {
			o += copy(dst[o:end], dst[op:o])
		}
		return end
	}
	o := op
	for ; o+8 <= end; o += 8 {
		binary.LittleEndian.PutUint64(dst[o:o+8], w)
	}
	for ; o < end; o++ {
		dst[o] = v
	}
	return end
}
