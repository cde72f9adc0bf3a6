// Package blosclztest holds what blosclz's tests and bench's cross-checks
// against c-blosc share, so that each has one home: a minimal reader of
// Blosc1 and Blosc2 chunks, only for finding the BloscLZ streams inside the
// golden vectors and C's output (the real chunk layer lives in the root
// package), the test patterns, the benchmark layout and the fuzz seeds.
package blosclztest

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/blosclz"
)

// Stream is one compressed stream of a chunk.
type Stream struct {
	Block    int
	Offset   int    // of the payload in the chunk
	Csize    int32  // as stored: == neblock raw, 0 zeros, < 0 byte run (Blosc2)
	Payload  []byte // nil for zeros and runs
	Neblock  int
	Split    bool // the chunk's "split" state, BloscLZ's split_block argument
	DstStart int  // where the decoded stream goes in the block buffer
	Last     bool // the block's final stream
}

// Chunk is a parsed chunk header with its streams in order.
type Chunk struct {
	Version     int
	Flags       byte
	Typesize    int
	Nbytes      int
	Blocksize   int
	Filters     [6]byte // Blosc2 only
	FilterMeta  [6]byte
	Special     int // Blosc2 special value, 0 none
	Memcpyed    bool
	Streams     []Stream
	HeaderBytes int
}

func le32(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[i:])) }

// ParseChunk walks the chunk's layout, checking every offset against the
// buffer. blosc2 selects the 32-byte header.
func ParseChunk(b []byte, blosc2 bool) (*Chunk, error) {
	hsize := 16
	if blosc2 {
		hsize = 32
	}
	if len(b) < hsize {
		return nil, fmt.Errorf("chunk of %d bytes", len(b))
	}
	c := &Chunk{Version: int(b[0]), Flags: b[2], Typesize: int(b[3]),
		Nbytes: int(le32(b, 4)), Blocksize: int(le32(b, 8)), HeaderBytes: hsize}
	if blosc2 {
		copy(c.Filters[:], b[16:22])
		copy(c.FilterMeta[:], b[24:30])
		c.Special = int(b[31]>>4) & 7
	}
	c.Memcpyed = c.Flags&2 != 0
	if c.Special != 0 || c.Memcpyed || c.Nbytes == 0 {
		return c, nil
	}
	if c.Blocksize <= 0 || c.Typesize == 0 {
		return nil, fmt.Errorf("blocksize %d typesize %d", c.Blocksize, c.Typesize)
	}
	nblocks := (c.Nbytes + c.Blocksize - 1) / c.Blocksize
	if hsize+4*nblocks > len(b) {
		return nil, fmt.Errorf("bstarts past the end")
	}
	split := c.Flags&0x10 == 0
	for i := 0; i < nblocks; i++ {
		bsize := c.Blocksize
		leftover := i == nblocks-1 && c.Nbytes%c.Blocksize != 0
		if leftover {
			bsize = c.Nbytes % c.Blocksize
		}
		nsplits := 1
		if split && !leftover {
			nsplits = c.Typesize
		}
		neblock := bsize / nsplits
		pos := int(le32(b, hsize+4*i))
		for j := 0; j < nsplits; j++ {
			if pos < 0 || pos+4 > len(b) {
				return nil, fmt.Errorf("block %d stream %d: offset %d outside the chunk", i, j, pos)
			}
			s := Stream{Block: i, Csize: le32(b, pos), Neblock: neblock, Split: split, DstStart: j * neblock, Last: j == nsplits-1}
			pos += 4
			switch {
			case s.Csize == 0 && blosc2:
			case s.Csize < 0 && blosc2:
				pos++ // the token byte
			case s.Csize <= 0 || int(s.Csize) > len(b)-pos:
				return nil, fmt.Errorf("block %d stream %d: csize %d", i, j, s.Csize)
			default:
				s.Offset = pos
				s.Payload = b[pos : pos+int(s.Csize)]
				pos += int(s.Csize)
			}
			c.Streams = append(c.Streams, s)
		}
	}
	return c, nil
}

// DecodeStream decodes one stream into out (neblock bytes) with Decompress.
func DecodeStream(s Stream, out []byte) error {
	switch {
	case s.Payload == nil && s.Csize == 0:
		clear(out)
	case s.Payload == nil:
		for i := range out {
			out[i] = byte(-s.Csize)
		}
	case int(s.Csize) == s.Neblock:
		copy(out, s.Payload)
	default:
		n, err := blosclz.Decompress(out, s.Payload)
		if err != nil {
			return fmt.Errorf("block %d: %w", s.Block, err)
		}
		if n != len(out) {
			return fmt.Errorf("block %d: decoded %d bytes, want %d", s.Block, n, len(out))
		}
	}
	return nil
}

// DecodeChunk returns the chunk's content. unfiltered reports that the
// Blosc2 filter pipeline held something other than one shuffle, so the
// result is still filtered and only the streams were checked.
func DecodeChunk(b []byte, c *Chunk) (out []byte, unfiltered bool, err error) {
	out = make([]byte, c.Nbytes)
	if c.Memcpyed {
		if c.HeaderBytes+c.Nbytes > len(b) {
			return nil, false, fmt.Errorf("memcpyed chunk truncated")
		}
		copy(out, b[c.HeaderBytes:])
		return out, false, nil
	}
	if c.Special != 0 {
		return nil, true, nil
	}
	shuffle, bitshuf := c.Flags&1 != 0, c.Flags&4 != 0
	elem := c.Typesize
	if c.HeaderBytes == 32 {
		shuffle, bitshuf = false, false
		for k, f := range c.Filters {
			switch f {
			case 0:
			case 1:
				if shuffle || bitshuf {
					unfiltered = true
				}
				shuffle = true
				if c.FilterMeta[k] != 0 {
					elem = int(c.FilterMeta[k])
				}
			case 2:
				if shuffle || bitshuf {
					unfiltered = true
				}
				bitshuf = true
			default:
				unfiltered = true
			}
		}
	}
	tmp := make([]byte, c.Blocksize)
	for _, s := range c.Streams {
		start := s.Block * c.Blocksize
		bsize := min(c.Blocksize, c.Nbytes-start)
		if err := DecodeStream(s, tmp[s.DstStart:s.DstStart+s.Neblock]); err != nil {
			return nil, false, err
		}
		if !s.Last {
			continue
		}
		blk, dst := tmp[:bsize], out[start:start+bsize]
		switch {
		case unfiltered:
			copy(dst, blk)
		case shuffle && elem > 1:
			blosc.Unshuffle(dst, blk, elem)
		case bitshuf && bsize >= c.Typesize:
			if c.HeaderBytes == 16 && (bsize/c.Typesize)%8 != 0 {
				copy(dst, blk) // Blosc1 transposes only whole groups of 8 elements
			} else {
				bitshuffle.Unshuffle(dst, blk, c.Typesize)
			}
		default:
			copy(dst, blk)
		}
	}
	return out, unfiltered, nil
}
