// Package inflate decodes the zlib streams Blosc stores: one zlib stream
// (RFC 1950 around RFC 1951 deflate) per block, whose decoded size is the
// block's and known before decoding. It decodes straight into the
// caller's buffer, which holds the whole output, so the output is its own
// window and nothing is copied twice.
//
// It accepts what C zlib's uncompress accepts, which c-blosc and c-blosc2
// call: the header check, the window size at most 32 KiB, no preset
// dictionary, the Adler-32 checked, and bytes after the checksum ignored.
// Where zlib and Go's compress/flate differ (flate accepts a code-length
// code of a single one-bit codeword, zlib does not) it follows zlib.
//
// The decoder keeps a 64-bit bit buffer refilled eight bytes at a time,
// and tables whose one lookup gives a literal, a length base with its
// extra bits folded into the bit count, the end of a block, or a pointer
// to a subtable for the codewords longer than the main table's index.
package inflate

import (
	"errors"
	"fmt"

	"github.com/goblosc/blosc/internal/le"
)

// ErrCorrupt: the stream is not a zlib stream of exactly len(dst) bytes.
var ErrCorrupt = errors.New("inflate: corrupt stream")

var (
	errTruncated   = fmt.Errorf("%w: stream ends early", ErrCorrupt)
	errHeader      = fmt.Errorf("%w: bad zlib header", ErrCorrupt)
	errDictionary  = fmt.Errorf("%w: stream needs a preset dictionary", ErrCorrupt)
	errBlockType   = fmt.Errorf("%w: reserved block type", ErrCorrupt)
	errStoredLen   = fmt.Errorf("%w: stored block length check fails", ErrCorrupt)
	errCounts      = fmt.Errorf("%w: too many length or distance codes", ErrCorrupt)
	errCodeLengths = fmt.Errorf("%w: invalid code-length code", ErrCorrupt)
	errRepeat      = fmt.Errorf("%w: invalid code-length repeat", ErrCorrupt)
	errNoEOB       = fmt.Errorf("%w: literal/length code has no end-of-block", ErrCorrupt)
	errLitCode     = fmt.Errorf("%w: invalid literal/length code", ErrCorrupt)
	errDistCode    = fmt.Errorf("%w: invalid distance code", ErrCorrupt)
	errLong        = fmt.Errorf("%w: stream decodes to more bytes than the destination", ErrCorrupt)
	errShort       = fmt.Errorf("%w: stream decodes to fewer bytes than the destination", ErrCorrupt)
	errFar         = fmt.Errorf("%w: distance before the start of the output", ErrCorrupt)
	errChecksum    = fmt.Errorf("%w: Adler-32 mismatch", ErrCorrupt)
)

// Decoder holds the tables of the dynamic blocks. The zero value is ready;
// reuse one to decode without allocating. It is not safe for concurrent
// use.
type Decoder struct {
	lit  [litTableSize]uint32
	dist [distTableSize]uint32
	cl   [1 << clBits]uint32
	lens [286 + 30]uint8
}

// bitReader reads src least significant bit first. b holds nb valid bits;
// the bits above them are zero or copies of the bytes from ip on, so a
// refill may OR a whole word in. Past the end of src it reads zero bytes,
// counting them in ip; reading one of their bits is an error, found at the
// next refill or at the end of the stream.
type bitReader struct {
	src []byte
	b   uint64
	nb  uint
	ip  int
}

// refill makes nb at least 56.
func (br *bitReader) refill() error {
	if br.ip+8 <= len(br.src) {
		br.b |= le.Load64(br.src, br.ip) << br.nb
		br.ip += int((63 - br.nb) >> 3)
		br.nb |= 56
		return nil
	}
	return br.refillTail()
}

// refillTail refills a byte at a time within the last 8 bytes of src.
func (br *bitReader) refillTail() error {
	if v := br.ip - len(br.src); v > 0 && uint(v)*8 > br.nb {
		return errTruncated
	}
	for br.nb <= 56 {
		if br.ip < len(br.src) {
			br.b |= uint64(br.src[br.ip]) << br.nb
		}
		br.ip++
		br.nb += 8
	}
	return nil
}

func (br *bitReader) need(n uint) error {
	if br.nb < n {
		return br.refill()
	}
	return nil
}

func (br *bitReader) drop(n uint) {
	br.b >>= n
	br.nb -= n
}

// Decode decodes the zlib stream src into dst, which it must fill exactly.
// Bytes after the stream's checksum are ignored, as zlib's uncompress
// ignores them. Every error wraps ErrCorrupt.
func (d *Decoder) Decode(dst, src []byte) error {
	if len(src) < 2 {
		return errTruncated
	}
	cmf, flg := src[0], src[1]
	if cmf&0x0f != 8 || cmf>>4 > 7 || (uint(cmf)<<8|uint(flg))%31 != 0 {
		return errHeader
	}
	if flg&0x20 != 0 {
		return errDictionary
	}
	br := bitReader{src: src, ip: 2}
	op := 0
	for {
		if err := br.need(3); err != nil {
			return err
		}
		final := br.b&1 != 0
		typ := br.b >> 1 & 3
		br.drop(3)
		var err error
		switch typ {
		case 0:
			op, err = stored(&br, dst, op)
		case 1:
			op, err = huffman(&br, dst, op, &fixedLit, &fixedDist)
		case 2:
			if err = d.readCodes(&br); err == nil {
				op, err = huffman(&br, dst, op, &d.lit, &d.dist)
			}
		default:
			err = errBlockType
		}
		if err != nil {
			return err
		}
		if final {
			break
		}
	}
	if op != len(dst) {
		return errShort
	}
	br.drop(br.nb & 7)
	pos := br.ip - int(br.nb>>3)
	if pos+4 > len(src) {
		return errTruncated
	}
	want := uint32(src[pos])<<24 | uint32(src[pos+1])<<16 | uint32(src[pos+2])<<8 | uint32(src[pos+3])
	if adlerSum(dst) != want {
		return errChecksum
	}
	return nil
}

// stored copies a stored block (RFC 1951, 3.2.4).
func stored(br *bitReader, dst []byte, op int) (int, error) {
	br.drop(br.nb & 7)
	src := br.src
	pos := br.ip - int(br.nb>>3)
	if pos+4 > len(src) {
		return op, errTruncated
	}
	n := int(src[pos]) | int(src[pos+1])<<8
	if n != int(^src[pos+2])|int(^src[pos+3])<<8 {
		return op, errStoredLen
	}
	pos += 4
	if n > len(src)-pos {
		return op, errTruncated
	}
	if n > len(dst)-op {
		return op, errLong
	}
	copy(dst[op:], src[pos:pos+n])
	br.b, br.nb, br.ip = 0, 0, pos+n
	return op + n, nil
}

// clOrder is the order the code-length code's lengths are sent in.
var clOrder = [numCL]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// readCodes reads a dynamic block's header (RFC 1951, 3.2.7) and builds
// its tables.
func (d *Decoder) readCodes(br *bitReader) error {
	if err := br.need(14); err != nil {
		return err
	}
	nlit := int(br.b&31) + 257
	ndist := int(br.b>>5&31) + 1
	ncl := int(br.b>>10&15) + 4
	br.drop(14)
	if nlit > 286 || ndist > 30 {
		return errCounts
	}
	var cl [numCL]uint8
	for i := range ncl {
		if err := br.need(3); err != nil {
			return err
		}
		cl[clOrder[i]] = uint8(br.b & 7)
		br.drop(3)
	}
	if !build(d.cl[:], cl[:], clSymEntry[:], clBits, false) {
		return errCodeLengths
	}
	n := nlit + ndist
	lens := d.lens[:n]
	for i := 0; i < n; {
		if err := br.need(14); err != nil {
			return err
		}
		e := d.cl[br.b&(1<<clBits-1)]
		br.drop(uint(e & 31))
		sym := e >> 16
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var rep int
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				return errRepeat
			}
			rep, v = 3+int(br.b&3), lens[i-1]
			br.drop(2)
		case 17:
			rep = 3 + int(br.b&7)
			br.drop(3)
		default:
			rep = 11 + int(br.b&127)
			br.drop(7)
		}
		if rep > n-i {
			return errRepeat
		}
		for range rep {
			lens[i] = v
			i++
		}
	}
	if lens[256] == 0 {
		return errNoEOB
	}
	if !build(d.lit[:], lens[:nlit], litSymEntry[:], litBits, true) {
		return errLitCode
	}
	if !build(d.dist[:], lens[nlit:], distSymEntry[:], distBits, true) {
		return errDistCode
	}
	return nil
}

// widePeriod[d] is the least multiple of d that is at least 8: a match
// at distance d repeats at that distance too.
var widePeriod = [8]int{0, 8, 8, 9, 8, 10, 12, 14}

// huffman decodes a block's codes with the tables lit and dist up to its
// end-of-block code.
func huffman(br *bitReader, dst []byte, op int, lit *[litTableSize]uint32, dist *[distTableSize]uint32) (int, error) {
	src := br.src
	b, nb, ip := br.b, br.nb, br.ip
	const litMask = 1<<litBits - 1
	const distMask = 1<<distBits - 1
	for {
		// At least 56 bits: enough for three main-table literals (11
		// bits each at most) or one length and distance (48 at most).
		if ip+8 <= len(src) {
			b |= le.Load64(src, ip) << nb
			ip += int((63 - nb) >> 3)
			nb |= 56
		} else {
			br.b, br.nb, br.ip = b, nb, ip
			if err := br.refillTail(); err != nil {
				return op, err
			}
			b, nb, ip = br.b, br.nb, br.ip
		}
		e := lit[b&litMask]
		if e&entLiteral != 0 {
			b >>= e & 31
			nb -= uint(e & 31)
			if uint(op) >= uint(len(dst)) {
				return op, errLong
			}
			dst[op] = byte(e >> 16)
			op++
			e = lit[b&litMask]
			if e&entLiteral != 0 {
				b >>= e & 31
				nb -= uint(e & 31)
				if uint(op) >= uint(len(dst)) {
					return op, errLong
				}
				dst[op] = byte(e >> 16)
				op++
				e = lit[b&litMask]
				if e&entLiteral != 0 {
					b >>= e & 31
					nb -= uint(e & 31)
					if uint(op) >= uint(len(dst)) {
						return op, errLong
					}
					dst[op] = byte(e >> 16)
					op++
					continue
				}
			}
			// The entry in hand stays valid; top up the bits for a
			// length and distance.
			if nb < 48 {
				if ip+8 <= len(src) {
					b |= le.Load64(src, ip) << nb
					ip += int((63 - nb) >> 3)
					nb |= 56
				} else {
					br.b, br.nb, br.ip = b, nb, ip
					if err := br.refillTail(); err != nil {
						return op, err
					}
					b, nb, ip = br.b, br.nb, br.ip
				}
			}
		}
		if e&entExc != 0 {
			if e&entSub != 0 {
				b >>= litBits
				nb -= litBits
				e = lit[(e>>16 + uint32(b)&(1<<(e>>8&15)-1))]
				if e&entLiteral != 0 {
					b >>= e & 31
					nb -= uint(e & 31)
					if uint(op) >= uint(len(dst)) {
						return op, errLong
					}
					dst[op] = byte(e >> 16)
					op++
					continue
				}
			}
			if e&entExc != 0 {
				if e&entEOB != 0 {
					b >>= e & 31
					nb -= uint(e & 31)
					break
				}
				return op, errLitCode
			}
		}
		saved := b
		n := e & 31
		b >>= n
		nb -= uint(n)
		length := int(e>>16 + uint32(saved&(1<<n-1))>>(e>>8&15))

		e = dist[b&distMask]
		if e&entExc != 0 {
			if e&entSub == 0 {
				return op, errDistCode
			}
			b >>= distBits
			nb -= distBits
			e = dist[(e>>16 + uint32(b)&(1<<(e>>8&15)-1))]
			if e&entExc != 0 {
				return op, errDistCode
			}
		}
		saved = b
		n = e & 31
		b >>= n
		nb -= uint(n)
		d := int(e>>16 + uint32(saved&(1<<n-1))>>(e>>8&15))

		if d > op {
			return op, errFar
		}
		if length > len(dst)-op {
			return op, errLong
		}
		from := op - d
		if length+16 <= len(dst)-op {
			// Room for whole words past the end of the match: copy
			// whole words and let the last one spill.
			switch {
			case d >= 16:
				for i := 0; i < length; i += 16 {
					w0, w1 := le.Load64(dst, from+i), le.Load64(dst, from+i+8)
					le.Store64(dst, op+i, w0)
					le.Store64(dst, op+i+8, w1)
				}
			case d >= 8:
				for i := 0; i < length; i += 8 {
					le.Store64(dst, op+i, le.Load64(dst, from+i))
				}
			case d == 1:
				v := uint64(dst[from]) * 0x0101010101010101
				for i := 0; i < length; i += 16 {
					le.Store64(dst, op+i, v)
					le.Store64(dst, op+i+8, v)
				}
			default:
				// A word every d bytes, each right in its first d
				// bytes, until the output repeats at a distance of at
				// least 8 (a multiple of d); then whole words from there.
				wide := widePeriod[d]
				i := 0
				for ; i < wide-d; i += d {
					le.Store64(dst, op+i, le.Load64(dst, from+i))
				}
				for ; i < length; i += 8 {
					le.Store64(dst, op+i, le.Load64(dst, op+i-wide))
				}
			}
		} else {
			for i := range length {
				dst[op+i] = dst[from+i]
			}
		}
		op += length
	}
	br.b, br.nb, br.ip = b, nb, ip
	return op, nil
}
