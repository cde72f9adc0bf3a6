package blosc

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/goblosc/blosc/internal/codec"
)

// Header layout constants shared by both chunk formats.
const (
	blosc1HeaderLen = 16
	blosc2HeaderLen = 32

	// blosc1Version is the version byte c-blosc 1.x writes (its
	// BLOSC_VERSION_FORMAT); version 1 chunks have the same layout.
	blosc1Version = 2
	// versionLZ is the codec format version every c-blosc codec writes.
	versionLZ = 1

	flagShuffle    = 0x01
	flagMemcpyed   = 0x02
	flagBitShuffle = 0x04
	flagDelta      = 0x08 // a filter c-blosc 1.x does not know: it refuses the chunk
	flagDontSplit  = 0x10

	// blosc1MaxBufferSize is c-blosc 1.x's BLOSC_MAX_BUFFERSIZE, the largest
	// nbytes a Blosc1 chunk may declare.
	blosc1MaxBufferSize = math.MaxInt32 - blosc1HeaderLen
	// maxBlocksize is c-blosc's BLOSC_MAX_BLOCKSIZE.
	maxBlocksize = (math.MaxInt32 - MaxTypesize*4) / 3
)

// Special is the kind of a Blosc2 special chunk, which stores no blocks.
type Special uint8

const (
	SpecialNone   Special = 0
	SpecialZeros  Special = 1
	SpecialNaN    Special = 2
	SpecialValue  Special = 3
	SpecialUninit Special = 4
)

var specialNames = [...]string{"none", "zeros", "nan", "value", "uninit"}

func (s Special) String() string {
	if int(s) < len(specialNames) {
		return specialNames[s]
	}
	return fmt.Sprintf("special(%d)", uint8(s))
}

// MarshalText writes the kind's name.
func (s Special) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Header is a chunk header, decoded and checked against the buffer it came
// from. The fields mean the same for both formats; those only Blosc2 chunks
// have are zero for Blosc1.
type Header struct {
	Format    Format `json:"format"`
	Version   uint8  `json:"version"`
	VersionLZ uint8  `json:"versionlz"`
	// Flags is the raw flags byte; the booleans below decode it.
	Flags      uint8 `json:"flags"`
	Shuffle    bool  `json:"shuffle"`    // flag bit 0
	BitShuffle bool  `json:"bitshuffle"` // flag bit 2
	Memcpyed   bool  `json:"memcpyed"`   // flag bit 1: data stored uncompressed after the header
	DontSplit  bool  `json:"dont_split"` // flag bit 4
	// Split reports whether whole blocks are stored as Typesize streams,
	// as a reader decides it from DontSplit, Typesize and Blocksize (the
	// trailing partial block is always one stream).
	Split bool `json:"split"`
	// CodecCode is the 3-bit codec field of the flags; Codec is what it
	// names (LZ4 for code 1, which LZ4HC also writes).
	CodecCode uint8 `json:"codec_code"`
	Codec     Codec `json:"codec"`
	// Filters is the pipeline; a Blosc1 shuffle is reported in the last
	// slot, where c-blosc2 puts it.
	Filters    [MaxFilters]Filter `json:"filters"`
	FilterMeta [MaxFilters]uint8  `json:"filters_meta"`
	Typesize   int                `json:"typesize"`
	Nbytes     int                `json:"nbytes"`
	Blocksize  int                `json:"blocksize"`
	Cbytes     int                `json:"cbytes"`
	Nblocks    int                `json:"nblocks"`
	// HeaderLen is 16 (Blosc1) or 32 (Blosc2).
	HeaderLen int `json:"header_len"`

	// Blosc2 only.
	CodecMeta    uint8   `json:"codec_meta,omitempty"`
	Blosc2Flags  uint8   `json:"blosc2_flags,omitempty"`
	Blosc2Flags2 uint8   `json:"blosc2_flags2,omitempty"`
	Special      Special `json:"special,omitempty"`
	Dict         bool    `json:"dict,omitempty"`
	VarBlocks    bool    `json:"var_blocks,omitempty"`
}

// leftover returns the size of the last, partial block (0 if none).
func (h *Header) leftover() int {
	if h.Blocksize == 0 {
		return 0
	}
	return h.Nbytes % h.Blocksize
}

// blockSize returns the uncompressed size of block j.
func (h *Header) blockSize(j int) int {
	if j == h.Nblocks-1 {
		if lo := h.leftover(); lo > 0 {
			return lo
		}
	}
	return h.Blocksize
}

// codecID maps the flags' codec code to the codec adapter, for Blosc1.
func blosc1CodecFromCode(code uint8) (Codec, bool) {
	switch code {
	case 0:
		return BloscLZ, true
	case 1:
		return LZ4, true
	case 2:
		return Snappy, true
	case 3:
		return Zlib, true
	case 4:
		return Zstd, true
	}
	return 0, false
}

// codecCode is the flags' codec code c-blosc writes for c.
func codecCode(c Codec) uint8 {
	if c >= firstPluginID {
		return formatUser
	}
	switch c {
	case BloscLZ:
		return 0
	case LZ4, LZ4HC:
		return 1
	case Snappy:
		return 2
	case Zlib:
		return 3
	default:
		return 4
	}
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

func le32(b []byte) int { return int(int32(binary.LittleEndian.Uint32(b))) }

// ReadHeader decodes and validates the header of the chunk at the start of
// src (Blosc1 or Blosc2). Every size it returns has been checked against
// len(src) and the stream table walked, as Decompress describes: cbytes
// fits in src, offsets and stream sizes lie inside the chunk and cover it,
// blocksize and nbytes agree, and nbytes is no more than the streams can
// decode to. A truncated or inconsistent chunk returns an error wrapping
// ErrCorrupt; an unknown version, codec or filter wraps ErrUnsupported.
// Bytes of src beyond cbytes are ignored.
func ReadHeader(src []byte) (Header, error) {
	var h Header
	err := h.parse(src)
	return h, err
}

func (h *Header) parse(src []byte) error {
	if len(src) < blosc1HeaderLen {
		return corruptf("%d bytes, shorter than a chunk header", len(src))
	}
	flags := src[2]
	if flags&(flagShuffle|flagBitShuffle) == flagShuffle|flagBitShuffle {
		// Both shuffle bits mark c-blosc2's extended header.
		return h.parseBlosc2(src)
	}
	switch src[0] {
	case 1, blosc1Version:
		return h.parseBlosc1(src)
	case 0:
		return corruptf("version 0")
	}
	return fmt.Errorf("%w: chunk format version %d", ErrUnsupported, src[0])
}

func (h *Header) parseBlosc1(src []byte) error {
	*h = Header{
		Format:    FormatBlosc1,
		Version:   src[0],
		VersionLZ: src[1],
		Flags:     src[2],
		Typesize:  int(src[3]),
		Nbytes:    le32(src[4:]),
		Blocksize: le32(src[8:]),
		Cbytes:    le32(src[12:]),
		HeaderLen: blosc1HeaderLen,
	}
	f := h.Flags
	h.Shuffle = f&flagShuffle != 0
	h.BitShuffle = f&flagBitShuffle != 0
	h.Memcpyed = f&flagMemcpyed != 0
	h.DontSplit = f&flagDontSplit != 0
	h.CodecCode = f >> 5
	switch {
	case h.Shuffle:
		h.Filters[MaxFilters-1] = ByteShuffle
	case h.BitShuffle:
		h.Filters[MaxFilters-1] = BitShuffle
	}
	codecOK := false
	h.Codec, codecOK = blosc1CodecFromCode(h.CodecCode)
	if !codecOK {
		h.Codec = Codec(0xff)
	}

	if f&flagDelta != 0 {
		return fmt.Errorf("%w: flag bit 3 (a filter Blosc1 does not define)", ErrUnsupported)
	}
	if h.Typesize == 0 {
		return corruptf("typesize 0")
	}
	if h.Nbytes < 0 || h.Nbytes > blosc1MaxBufferSize {
		return corruptf("nbytes %d out of range", h.Nbytes)
	}
	if h.Cbytes < blosc1HeaderLen {
		return corruptf("cbytes %d smaller than the header", h.Cbytes)
	}
	if h.Cbytes > len(src) {
		return corruptf("cbytes %d but only %d bytes given", h.Cbytes, len(src))
	}
	if h.Nbytes == 0 {
		// c-blosc writes an empty input as a bare header (blocksize 1) and
		// returns before looking at anything else.
		if h.Memcpyed && h.Cbytes != blosc1HeaderLen {
			return corruptf("empty memcpyed chunk with cbytes %d", h.Cbytes)
		}
		return nil
	}
	if h.Blocksize <= 0 || h.Blocksize > maxBlocksize {
		return corruptf("blocksize %d out of range", h.Blocksize)
	}
	if h.Blocksize > h.Nbytes {
		return corruptf("blocksize %d larger than nbytes %d", h.Blocksize, h.Nbytes)
	}
	h.Nblocks = h.Nbytes / h.Blocksize
	if h.Nbytes%h.Blocksize != 0 {
		h.Nblocks++
	}
	h.Split = !h.DontSplit && h.Typesize <= maxSplits && h.Blocksize/h.Typesize >= minBufferSize
	if h.Memcpyed {
		if h.Cbytes != h.Nbytes+blosc1HeaderLen {
			return corruptf("memcpyed chunk with nbytes %d but cbytes %d", h.Nbytes, h.Cbytes)
		}
		return nil
	}
	if !codecOK {
		return fmt.Errorf("%w: codec code %d", ErrUnsupported, h.CodecCode)
	}
	if h.VersionLZ != versionLZ {
		return fmt.Errorf("%w: %s format version %d", ErrUnsupported, h.Codec, h.VersionLZ)
	}
	if h.Split && h.Blocksize%h.Typesize != 0 {
		// c-blosc never writes this; its reader would leave the block's
		// tail unwritten.
		return corruptf("split blocks of %d bytes are not a whole number of %d-byte elements", h.Blocksize, h.Typesize)
	}
	// Every block needs its offset, a stream size and one byte of stream.
	body := int64(h.Cbytes - blosc1HeaderLen)
	if int64(h.Nblocks)*9 > body {
		return corruptf("%d blocks cannot fit in %d bytes", h.Nblocks, h.Cbytes)
	}
	// Offsets point past the offsets table and leave room for a size.
	streams := blosc1HeaderLen + 4*h.Nblocks
	for j := 0; j < h.Nblocks; j++ {
		if off := le32(src[blosc1HeaderLen+4*j:]); off < streams || off > h.Cbytes-4 {
			return corruptf("block %d starts at %d, outside the streams area [%d, %d)", j, off, streams, h.Cbytes-4)
		}
	}
	// The allocation guard: no codec expands a byte into more than
	// MaxExpansion bytes, so a size claim beyond that is a lie.
	payload := body - 4*int64(h.Nblocks)
	ratio := int64(codec.MaxExpansion(codec.ID(h.Codec)))
	if int64(h.Nbytes) > payload*ratio {
		return corruptf("nbytes %d cannot come from %d compressed bytes of %s", h.Nbytes, payload, h.Codec)
	}
	// Walk the stream sizes: each stream lies in the chunk and can give
	// its share of the block, and the blocks, written back to back in any
	// order, cover the chunk exactly.
	used := 0
	for j := 0; j < h.Nblocks; j++ {
		off := le32(src[blosc1HeaderLen+4*j:])
		begin := off
		lastPartial := j == h.Nblocks-1 && h.leftover() > 0
		nsplits := 1
		if h.Split && !lastPartial {
			nsplits = h.Typesize
		}
		neblock := h.blockSize(j) / nsplits
		for k := 0; k < nsplits; k++ {
			if off > h.Cbytes-4 {
				return corruptf("block %d stream %d: size field beyond cbytes", j, k)
			}
			csize := le32(src[off:])
			off += 4
			if csize <= 0 || csize > h.Cbytes-off {
				return corruptf("block %d stream %d: size %d with %d bytes left", j, k, csize, h.Cbytes-off)
			}
			if csize != neblock && int64(csize)*ratio < int64(neblock) {
				return corruptf("block %d stream %d: %d bytes of %s cannot give %d", j, k, csize, h.Codec, neblock)
			}
			off += csize
		}
		used += off - begin
	}
	if used != h.Cbytes-streams {
		return corruptf("streams cover %d bytes of the %d after the offsets", used, h.Cbytes-streams)
	}
	return nil
}
