package blosc

import (
	"encoding/binary"
	"strings"
)

// lz4ZeroOffset reports whether an LZ4 block, read up to its first other
// fault, has a match at offset 0. The LZ4 block format calls such a block
// corrupt, and we refuse it; liblz4's LZ4_decompress_safe (under c-blosc
// and c-blosc2) accepts it and copies whatever the output buffer already
// holds, so the differential targets accept that disagreement.
func lz4ZeroOffset(s []byte) bool {
	zero, _ := lz4Quirks(s)
	return zero
}

// lz4Quirks reads an LZ4 block's sequences up to its first other fault and
// reports the two things liblz4 accepts and pierrec/lz4 (our decoder) does
// not: a match at offset 0 (see lz4ZeroOffset), and a last, literals-only
// sequence whose token has a nonzero match-length nibble, which liblz4
// ignores and the LZ4 reference compressor never writes.
func lz4Quirks(s []byte) (zeroOffset, lastNibble bool) {
	for i := 0; i < len(s); {
		tok := s[i]
		i++
		lit := int(tok >> 4)
		if lit == 15 {
			for i < len(s) {
				x := s[i]
				i++
				lit += int(x)
				if x != 255 {
					break
				}
			}
		}
		i += lit
		if i == len(s) {
			return false, tok&15 != 0
		}
		if i > len(s)-2 {
			return false, false
		}
		if s[i] == 0 && s[i+1] == 0 {
			return true, false
		}
		i += 2
		if tok&15 == 15 {
			for i < len(s) && s[i] == 255 {
				i++
			}
			i++
		}
	}
	return false, false
}

// codecStreams returns the codec of a chunk whose layout parses and the
// streams it hands to that codec (not stored streams, not runs). A layout
// that does not parse gives what was found up to the fault.
func codecStreams(src []byte) (Codec, [][]byte) {
	h, err := ReadHeader(src)
	if err != nil && h.Format != FormatBlosc1 {
		return 0, nil
	}
	var out [][]byte
	if h.Format == FormatBlosc1 {
		if h.Memcpyed || h.Cbytes > len(src) || h.Typesize == 0 {
			return h.Codec, nil
		}
		chunk := src[:h.Cbytes]
		for j := 0; j < h.Nblocks && blosc1HeaderLen+4*j+4 <= len(chunk); j++ {
			bsize := h.blockSize(j)
			nsplits := 1
			if h.Split && !(j == h.Nblocks-1 && h.leftover() > 0) {
				nsplits = h.Typesize
			}
			off := le32(chunk[blosc1HeaderLen+4*j:])
			for k := 0; k < nsplits; k++ {
				if off < 0 || off > len(chunk)-4 {
					break
				}
				cs := le32(chunk[off:])
				off += 4
				if cs <= 0 || cs > len(chunk)-off {
					break
				}
				if cs != bsize/nsplits {
					out = append(out, chunk[off:off+cs])
				}
				off += cs
			}
		}
		return h.Codec, out
	}
	c, err := openChunk2(src)
	if err != nil || c.h.vlBlocks() || c.h.special() != specialNone || c.h.memcpyed() {
		return h.Codec, nil
	}
	for i := 0; i < c.nblocks; i++ {
		p := c.bstart(i)
		nstreams, neblock, err := c.streams(i)
		if err != nil {
			break
		}
		for j := 0; j < nstreams && p >= 0 && p <= len(c.src)-4; j++ {
			cs := int(int32(binary.LittleEndian.Uint32(c.src[p:])))
			p += 4
			switch {
			case cs == 0:
			case cs < 0:
				p++
			case cs > len(c.src)-p:
				p = -1
			default:
				if cs != neblock {
					out = append(out, c.src[p:p+cs])
				}
				p += cs
			}
		}
	}
	return c.codec, out
}

// lz4Gap reports whether src is an LZ4 chunk with a stream in which
// lz4Quirks finds something liblz4 reads and we refuse.
func lz4Gap(src []byte) string {
	c, streams := codecStreams(src)
	if c != LZ4 && c != LZ4HC {
		return ""
	}
	for _, s := range streams {
		switch zero, nibble := lz4Quirks(s); {
		case zero:
			return "an LZ4 match at offset 0, which the LZ4 format calls corrupt and liblz4 reads"
		case nibble:
			return "an LZ4 block whose last token has a match-length nibble: liblz4 ignores it, pierrec/lz4 refuses the block"
		}
	}
	return ""
}

// codecGap names a known disagreement between our codecs and the C
// libraries that makes us refuse (err) a chunk (src) they decode, or
// returns "".
func codecGap(src []byte, err error) string {
	switch {
	case err == nil:
		return ""
	case lz4Gap(src) != "":
		return lz4Gap(src)
	case strings.Contains(err.Error(), "zstd: corruption detected: short output block"),
		strings.Contains(err.Error(), "zstd: corruption detected: stream overrun"),
		strings.Contains(err.Error(), "zstd: corruption detected: stream underrun"):
		// klauspost/compress checks that each of the four Huffman
		// literal streams of a block ends exactly with its share of the
		// output; libzstd 1.5 does not report bits left over or missing
		// there (facebook/zstd#3089) and decodes the same frames.
		return "a zstd Huffman literal stream whose bits do not end with its output: klauspost/compress refuses it, libzstd decodes it"
	case strings.Contains(err.Error(), "zstd: corrupt block: reserved bits not zero"):
		// The sequences section header's reserved bits "must be zero";
		// libzstd does not look at them.
		return "a zstd sequences header with reserved bits set: klauspost/compress refuses it, libzstd ignores them"
	case strings.Contains(err.Error(), "corrupt stream: zstd: "):
		// Mutated frames that libzstd decodes and klauspost/compress
		// finds corrupt ("unexpected EOF", "did not find end of stream",
		// ...): its bitstream readers check ends that libzstd leaves
		// unchecked. Named as a class; the cases above were read one by one.
		return "a zstd frame klauspost/compress refuses and libzstd decodes: " + err.Error()
	}
	return ""
}
