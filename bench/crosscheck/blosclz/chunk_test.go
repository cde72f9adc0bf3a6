package blosclz_test

// A minimal reader of Blosc1 and Blosc2 chunks, only for finding the BloscLZ
// streams inside the golden vectors and C's output. The real chunk layer
// lives in the root package.

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/blosclz"
)

type stream struct {
	block    int
	offset   int    // of the payload in the chunk
	csize    int32  // as stored: == neblock raw, 0 zeros, < 0 byte run (Blosc2)
	payload  []byte // nil for zeros and runs
	neblock  int
	split    bool // the chunk's "split" state, BloscLZ's split_block argument
	dstStart int  // where the decoded stream goes in the block buffer
	last     bool // the block's final stream
}

type chunk struct {
	version     int
	flags       byte
	typesize    int
	nbytes      int
	blocksize   int
	filters     [6]byte // Blosc2 only
	filterMeta  [6]byte
	special     int // Blosc2 special value, 0 none
	memcpyed    bool
	streams     []stream
	headerBytes int
}

func le32(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[i:])) }

// parseChunk walks the chunk's layout, checking every offset against the
// buffer. blosc2 selects the 32-byte header.
func parseChunk(b []byte, blosc2 bool) (*chunk, error) {
	hsize := 16
	if blosc2 {
		hsize = 32
	}
	if len(b) < hsize {
		return nil, fmt.Errorf("chunk of %d bytes", len(b))
	}
	c := &chunk{version: int(b[0]), flags: b[2], typesize: int(b[3]),
		nbytes: int(le32(b, 4)), blocksize: int(le32(b, 8)), headerBytes: hsize}
	if blosc2 {
		copy(c.filters[:], b[16:22])
		copy(c.filterMeta[:], b[24:30])
		c.special = int(b[31]>>4) & 7
	}
	c.memcpyed = c.flags&2 != 0
	if c.special != 0 || c.memcpyed || c.nbytes == 0 {
		return c, nil
	}
	if c.blocksize <= 0 || c.typesize == 0 {
		return nil, fmt.Errorf("blocksize %d typesize %d", c.blocksize, c.typesize)
	}
	nblocks := (c.nbytes + c.blocksize - 1) / c.blocksize
	if hsize+4*nblocks > len(b) {
		return nil, fmt.Errorf("bstarts past the end")
	}
	split := c.flags&0x10 == 0
	for i := 0; i < nblocks; i++ {
		bsize := c.blocksize
		leftover := i == nblocks-1 && c.nbytes%c.blocksize != 0
		if leftover {
			bsize = c.nbytes % c.blocksize
		}
		nsplits := 1
		if split && !leftover {
			nsplits = c.typesize
		}
		neblock := bsize / nsplits
		pos := int(le32(b, hsize+4*i))
		for j := 0; j < nsplits; j++ {
			if pos < 0 || pos+4 > len(b) {
				return nil, fmt.Errorf("block %d stream %d: offset %d outside the chunk", i, j, pos)
			}
			s := stream{block: i, csize: le32(b, pos), neblock: neblock, split: split, dstStart: j * neblock, last: j == nsplits-1}
			pos += 4
			switch {
			case s.csize == 0 && blosc2:
			case s.csize < 0 && blosc2:
				pos++ // the token byte
			case s.csize <= 0 || int(s.csize) > len(b)-pos:
				return nil, fmt.Errorf("block %d stream %d: csize %d", i, j, s.csize)
			default:
				s.offset = pos
				s.payload = b[pos : pos+int(s.csize)]
				pos += int(s.csize)
			}
			c.streams = append(c.streams, s)
		}
	}
	return c, nil
}

// decodeStream decodes one stream into out (neblock bytes) with Decompress.
func decodeStream(s stream, out []byte) error {
	switch {
	case s.payload == nil && s.csize == 0:
		clear(out)
	case s.payload == nil:
		for i := range out {
			out[i] = byte(-s.csize)
		}
	case int(s.csize) == s.neblock:
		copy(out, s.payload)
	default:
		n, err := blosclz.Decompress(out, s.payload)
		if err != nil {
			return fmt.Errorf("block %d: %w", s.block, err)
		}
		if n != len(out) {
			return fmt.Errorf("block %d: decoded %d bytes, want %d", s.block, n, len(out))
		}
	}
	return nil
}

// decodeChunk returns the chunk's content. unfiltered reports that the
// Blosc2 filter pipeline held something other than one shuffle, so the
// result is still filtered and only the streams were checked.
func decodeChunk(b []byte, c *chunk) (out []byte, unfiltered bool, err error) {
	out = make([]byte, c.nbytes)
	if c.memcpyed {
		if c.headerBytes+c.nbytes > len(b) {
			return nil, false, fmt.Errorf("memcpyed chunk truncated")
		}
		copy(out, b[c.headerBytes:])
		return out, false, nil
	}
	if c.special != 0 {
		return nil, true, nil
	}
	shuffle, bitshuf := c.flags&1 != 0, c.flags&4 != 0
	elem := c.typesize
	if c.headerBytes == 32 {
		shuffle, bitshuf = false, false
		for k, f := range c.filters {
			switch f {
			case 0:
			case 1:
				if shuffle || bitshuf {
					unfiltered = true
				}
				shuffle = true
				if c.filterMeta[k] != 0 {
					elem = int(c.filterMeta[k])
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
	tmp := make([]byte, c.blocksize)
	for _, s := range c.streams {
		start := s.block * c.blocksize
		bsize := min(c.blocksize, c.nbytes-start)
		if err := decodeStream(s, tmp[s.dstStart:s.dstStart+s.neblock]); err != nil {
			return nil, false, err
		}
		if !s.last {
			continue
		}
		blk, dst := tmp[:bsize], out[start:start+bsize]
		switch {
		case unfiltered:
			copy(dst, blk)
		case shuffle && elem > 1:
			blosc.Unshuffle(dst, blk, elem)
		case bitshuf && bsize >= c.typesize:
			if c.headerBytes == 16 && (bsize/c.typesize)%8 != 0 {
				copy(dst, blk) // Blosc1 transposes only whole groups of 8 elements
			} else {
				bitshuffle.Unshuffle(dst, blk, c.typesize)
			}
		default:
			copy(dst, blk)
		}
	}
	return out, unfiltered, nil
}
