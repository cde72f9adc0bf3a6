//go:build cgo && (cblosc || cblosc2)

package crosscheck

import (
	"encoding/binary"
	"strings"

	"github.com/goblosc/blosc"
)

// The cross-checks see the library from outside, through its public API;
// what they need of the chunk layout they read from the bytes, by the
// format (docs/formats.md), as the C libraries do.

// Chunk format constants (c-blosc's blosc.h, c-blosc2's blosc2.h).
const (
	blosc1Version   = 2
	blosc1HeaderLen = 16
	header2Len      = 32
	flagMemcpyed    = 0x02
	flagDontSplit   = 0x10
)

// leftover is the size of a chunk's last, partial block (0 if none).
func leftover(h *blosc.Header) int {
	if h.Blocksize == 0 {
		return 0
	}
	return h.Nbytes % h.Blocksize
}

// blockSize is the uncompressed size of block j.
func blockSize(h *blosc.Header, j int) int {
	if j == h.Nblocks-1 {
		if lo := leftover(h); lo > 0 {
			return lo
		}
	}
	return h.Blocksize
}

func le32(b []byte) int { return int(int32(binary.LittleEndian.Uint32(b))) }

// blosc2Layout is a regular Blosc2 chunk's layout, read from its bytes
// after ReadHeader accepted it (which checked every offset and stream).
type blosc2Layout struct {
	src  []byte // src[:cbytes]
	h    blosc.Header
	dict []byte
}

// openBlosc2 returns the layout of a regular (not special, not stored,
// not variable-block) Blosc2 chunk, ok false for anything else.
func openBlosc2(src []byte) (l blosc2Layout, ok bool) {
	h, err := blosc.ReadHeader(src)
	if err != nil || h.Format != blosc.FormatBlosc2 || h.VarBlocks || h.Special != blosc.SpecialNone || h.Memcpyed || h.Nbytes == 0 {
		return l, false
	}
	l = blosc2Layout{src: src[:h.Cbytes], h: h}
	if h.Dict {
		p := header2Len + 4*h.Nblocks
		ds := le32(l.src[p:])
		if h.Codec == blosc.Zstd || h.Codec == blosc.LZ4 || h.Codec == blosc.LZ4HC {
			l.dict = l.src[p+4 : p+4+ds]
		}
	}
	return l, true
}

func (l *blosc2Layout) bstart(i int) int { return le32(l.src[header2Len+4*i:]) }

// streams returns how many streams block i has and the size of each: a
// whole block is split into typesize streams unless the chunk says not to.
func (l *blosc2Layout) streams(i int) (nstreams, neblock int, ok bool) {
	bsize := blockSize(&l.h, i)
	nstreams = 1
	if !l.h.DontSplit && bsize == l.h.Blocksize {
		nstreams = l.h.Typesize
	}
	if nstreams == 0 || bsize%nstreams != 0 {
		return 0, 0, false
	}
	return nstreams, bsize / nstreams, true
}

// lz4ZeroOffset reads an LZ4 block's sequences up to its first other
// fault and reports the one thing liblz4 accepts and internal/lz4 (our
// decoder) does not: a match at offset 0, which the LZ4 block format
// calls corrupt and liblz4's LZ4_decompress_safe copies from whatever the
// output holds. (A last token with a match-length nibble, which liblz4
// ignores, pierrec/lz4 refused; internal/lz4 reads it as liblz4 does.)
func lz4ZeroOffset(s []byte) bool {
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
		if i > len(s)-2 {
			return false
		}
		if s[i] == 0 && s[i+1] == 0 {
			return true
		}
		i += 2
		if tok&15 == 15 {
			for i < len(s) && s[i] == 255 {
				i++
			}
			i++
		}
	}
	return false
}

// codecStreams returns the codec of a chunk whose layout parses and the
// streams it hands to that codec (not stored streams, not runs). A Blosc1
// layout that does not parse gives what was found up to the fault.
func codecStreams(src []byte) (blosc.Codec, [][]byte) {
	h, err := blosc.ReadHeader(src)
	if err != nil && h.Format != blosc.FormatBlosc1 {
		return 0, nil
	}
	var out [][]byte
	if h.Format == blosc.FormatBlosc1 {
		if h.Memcpyed || h.Cbytes > len(src) || h.Typesize == 0 {
			return h.Codec, nil
		}
		chunk := src[:h.Cbytes]
		for j := 0; j < h.Nblocks && blosc1HeaderLen+4*j+4 <= len(chunk); j++ {
			bsize := blockSize(&h, j)
			nsplits := 1
			if h.Split && !(j == h.Nblocks-1 && leftover(&h) > 0) {
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
	l, ok := openBlosc2(src)
	if !ok {
		return h.Codec, nil
	}
	for i := 0; i < h.Nblocks; i++ {
		p := l.bstart(i)
		nstreams, neblock, ok := l.streams(i)
		if !ok {
			break
		}
		for j := 0; j < nstreams && p >= 0 && p <= len(l.src)-4; j++ {
			cs := le32(l.src[p:])
			p += 4
			switch {
			case cs == 0:
			case cs < 0:
				p++
			case cs > len(l.src)-p:
				p = -1
			default:
				if cs != neblock {
					out = append(out, l.src[p:p+cs])
				}
				p += cs
			}
		}
	}
	return h.Codec, out
}

// lz4Gap reports whether src is an LZ4 chunk with a stream in which
// lz4ZeroOffset finds what liblz4 reads and we refuse.
func lz4Gap(src []byte) string {
	c, streams := codecStreams(src)
	if c != blosc.LZ4 && c != blosc.LZ4HC {
		return ""
	}
	for _, s := range streams {
		if lz4ZeroOffset(s) {
			return "an LZ4 match at offset 0, which the LZ4 format calls corrupt and liblz4 reads"
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

// newDecompressor is a Decompressor decoding threads blocks at once.
func newDecompressor(threads int) *blosc.Decompressor {
	d, err := blosc.NewDecompressor(blosc.DecompressOptions{Threads: threads})
	if err != nil {
		panic(err)
	}
	return d
}
