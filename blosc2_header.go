package blosc

import (
	"encoding/binary"
	"fmt"
)

// Layout of the 32-byte header c-blosc2 writes (README_CHUNK_FORMAT.rst and
// what the C library really writes; see docs/formats.md).
const (
	header2Len = 32

	// version2Alpha and version2Beta are pre-release formats c-blosc2 still
	// reads; the alpha series left the sixth filter slot uninitialised.
	version2Alpha    = 3
	version2Beta     = 4
	version2Stable   = 5
	version2VLBlocks = 6

	// flagsExtended: byte shuffle and bit shuffle set together, which no
	// Blosc1 chunk can carry, mark the extended header.
	flagsExtended = 0x05

	// Byte 30 (flags2).
	flags2VLBlocks = 0x01
	// Byte 31 (blosc2 flags).
	b2FlagDict         = 0x01
	b2FlagBigEndian    = 0x02
	b2FlagLazy         = 0x08
	b2FlagInstrumented = 0x80
	b2SpecialShift     = 4
	b2SpecialMask      = 0x07

	// maxBlocksize2 is BLOSC2_MAXBLOCKSIZE.
	maxBlocksize2 = 536866816
	// maxDictSize2 is BLOSC2_MAXDICTSIZE.
	maxDictSize2 = 32 * 1024
	// minBufferSize2 is BLOSC_MIN_BUFFERSIZE: smaller inputs are stored.
	minBufferSize2 = 32
)

// Special chunk kinds (bits 4-6 of byte 31).
const (
	specialNone   = 0
	specialZero   = 1
	specialNaN    = 2
	specialValue  = 3
	specialUninit = 4
)

// Compressor format codes, bits 5-7 of flags.
const (
	formatBloscLZ = 0
	formatLZ4     = 1 // LZ4 and LZ4HC share the stream format
	formatSnappy  = 2
	formatZlib    = 3
	formatZstd    = 4
	formatUser    = 6 // the codec is in byte 22
)

// header2 is a decoded Blosc2 chunk header.
type header2 struct {
	version    uint8
	versionLZ  uint8
	flags      uint8
	typesize   uint8
	nbytes     int
	blocksize  int // the raw field: the block count for VL-block chunks
	cbytes     int
	filters    [MaxFilters]uint8
	codecID    uint8
	codecMeta  uint8
	filterMeta [MaxFilters]uint8
	flags2     uint8
	b2flags    uint8
}

func (h *header2) memcpyed() bool  { return h.flags&flagMemcpyed != 0 }
func (h *header2) dontSplit() bool { return h.flags&flagDontSplit != 0 }
func (h *header2) vlBlocks() bool  { return h.flags2&flags2VLBlocks != 0 }
func (h *header2) useDict() bool   { return h.b2flags&b2FlagDict != 0 }
func (h *header2) special() int    { return int(h.b2flags>>b2SpecialShift) & b2SpecialMask }

// codec returns the codec whose streams the chunk holds. LZ4HC is reported
// as LZ4HC when byte 22 says so, but it decodes as LZ4.
func (h *header2) codec() (Codec, error) {
	switch h.flags >> 5 {
	case formatBloscLZ:
		return BloscLZ, nil
	case formatLZ4:
		if h.codecID == uint8(LZ4HC) {
			return LZ4HC, nil
		}
		return LZ4, nil
	case formatSnappy:
		return Snappy, nil
	case formatZlib:
		return Zlib, nil
	case formatZstd:
		return Zstd, nil
	case formatUser:
		if h.codecID >= firstPluginID && lookupCodec(Codec(h.codecID)) != nil {
			return Codec(h.codecID), nil
		}
		return 0, unsupportedCodec(h.codecID)
	}
	// c-blosc2 reports a format code it lacks as a missing codec library,
	// not as a bad chunk.
	return 0, &unimplementedError{fmt.Sprintf("codec format %d (not one c-blosc2 defines)", h.flags>>5)}
}

// isBlosc2Header reports whether src starts with an extended (Blosc2)
// header, using c-blosc2's own test: the byte- and bit-shuffle flags both
// set. The caller must have checked len(src) >= 3.
func isBlosc2Header(src []byte) bool { return src[2]&flagsExtended == flagsExtended }

// decodeHeader2 reads the 32 header bytes without validating them.
func decodeHeader2(src []byte) header2 {
	var h header2
	h.version, h.versionLZ, h.flags, h.typesize = src[0], src[1], src[2], src[3]
	h.nbytes = int(int32(binary.LittleEndian.Uint32(src[4:])))
	h.blocksize = int(int32(binary.LittleEndian.Uint32(src[8:])))
	h.cbytes = int(int32(binary.LittleEndian.Uint32(src[12:])))
	copy(h.filters[:], src[16:22])
	h.codecID, h.codecMeta = src[22], src[23]
	copy(h.filterMeta[:], src[24:30])
	h.flags2, h.b2flags = src[30], src[31]
	return h
}

// put writes the header into dst[:32].
func (h *header2) put(dst []byte) {
	_ = dst[header2Len-1]
	dst[0], dst[1], dst[2], dst[3] = h.version, h.versionLZ, h.flags, h.typesize
	binary.LittleEndian.PutUint32(dst[4:], uint32(int32(h.nbytes)))
	binary.LittleEndian.PutUint32(dst[8:], uint32(int32(h.blocksize)))
	binary.LittleEndian.PutUint32(dst[12:], uint32(int32(h.cbytes)))
	copy(dst[16:22], h.filters[:])
	dst[22], dst[23] = h.codecID, h.codecMeta
	copy(dst[24:30], h.filterMeta[:])
	dst[30], dst[31] = h.flags2, h.b2flags
}

// parseHeader2 decodes and validates a Blosc2 header against the buffer
// that holds the chunk. Everything the decoder later trusts (sizes, the
// special kind, the codec, the filters) is checked here, so that a hostile
// header fails before any allocation. It returns the header with blocksize
// clamped to nbytes as c-blosc2 does.
func parseHeader2(src []byte) (header2, error) {
	if len(src) < header2Len {
		return header2{}, fmt.Errorf("%w: %d bytes, a Blosc2 header needs %d", ErrCorrupt, len(src), header2Len)
	}
	h := decodeHeader2(src)
	if h.flags&flagsExtended != flagsExtended {
		return h, fmt.Errorf("%w: flags %#02x lack the extended-header marker", ErrCorrupt, h.flags)
	}
	// c-blosc2 ignores the version byte; a future version may change the
	// layout, so only the versions c-blosc2 writes or reads are accepted.
	if h.version < version2Alpha || h.version > version2VLBlocks {
		return h, fmt.Errorf("%w: Blosc2 format version %d", ErrUnsupported, h.version)
	}
	if h.version == version2Alpha {
		h.filters[MaxFilters-1], h.filterMeta[MaxFilters-1] = 0, 0
	}
	if h.typesize == 0 {
		return h, fmt.Errorf("%w: typesize 0", ErrCorrupt)
	}
	if h.nbytes < 0 || h.nbytes > MaxBufferSize {
		return h, fmt.Errorf("%w: nbytes %d", ErrCorrupt, h.nbytes)
	}
	if h.cbytes < header2Len {
		return h, fmt.Errorf("%w: cbytes %d smaller than the header", ErrCorrupt, h.cbytes)
	}
	if h.cbytes > len(src) {
		return h, fmt.Errorf("%w: cbytes %d but only %d bytes given", ErrCorrupt, h.cbytes, len(src))
	}
	if h.blocksize <= 0 || h.blocksize > maxBlocksize2 {
		return h, fmt.Errorf("%w: blocksize %d", ErrCorrupt, h.blocksize)
	}
	if h.b2flags&b2FlagLazy != 0 {
		return h, fmt.Errorf("%w: lazy chunk (only meaningful inside a frame file)", ErrUnsupported)
	}
	if h.b2flags&b2FlagInstrumented != 0 {
		return h, fmt.Errorf("%w: instrumented chunk", ErrUnsupported)
	}
	sp := h.special()
	if sp > specialUninit {
		return h, fmt.Errorf("%w: special value kind %d", ErrCorrupt, sp)
	}
	if h.vlBlocks() {
		if sp != specialNone {
			return h, fmt.Errorf("%w: VL-block chunk marked special", ErrCorrupt)
		}
		if h.memcpyed() {
			return h, fmt.Errorf("%w: VL-block chunk marked memcpyed", ErrCorrupt)
		}
	}
	switch sp {
	case specialNone:
	case specialValue:
		ts := h.cbytes - header2Len
		if ts <= 0 || ts > h.nbytes || h.nbytes%ts != 0 {
			return h, fmt.Errorf("%w: repeated-value chunk of %d value bytes for nbytes %d", ErrCorrupt, ts, h.nbytes)
		}
	case specialZero:
		if h.cbytes != header2Len {
			return h, fmt.Errorf("%w: zero-special chunk of %d bytes", ErrCorrupt, h.cbytes)
		}
	default:
		if h.cbytes != header2Len {
			return h, fmt.Errorf("%w: special chunk of %d bytes", ErrCorrupt, h.cbytes)
		}
		if h.nbytes%int(h.typesize) != 0 {
			return h, fmt.Errorf("%w: nbytes %d not a multiple of typesize %d", ErrCorrupt, h.nbytes, h.typesize)
		}
	}
	if sp != specialNone && h.memcpyed() && h.cbytes != h.nbytes+header2Len {
		// c-blosc2 checks a memcpyed flag against the sizes whatever the
		// chunk is, and never sets it on the special chunks it writes.
		return h, fmt.Errorf("%w: special chunk marked memcpyed with nbytes %d and cbytes %d", ErrCorrupt, h.nbytes, h.cbytes)
	}
	if sp == specialNone {
		for i, f := range h.filters {
			if !knownFilter(Filter(f)) {
				return h, unsupportedFilter(Filter(f), i)
			}
		}
		if !h.memcpyed() {
			if _, err := h.codec(); err != nil {
				return h, err
			}
		} else if h.cbytes != h.nbytes+header2Len {
			return h, fmt.Errorf("%w: memcpyed chunk of nbytes %d has cbytes %d", ErrCorrupt, h.nbytes, h.cbytes)
		}
	}
	if !h.vlBlocks() && h.nbytes > 0 && h.blocksize > h.nbytes {
		h.blocksize = h.nbytes
	}
	return h, nil
}

// nblocks returns the number of blocks and the size of the last one.
func (h *header2) nblocks() (n, last int) {
	if h.vlBlocks() {
		return h.blocksize, 0
	}
	n = h.nbytes / h.blocksize
	last = h.nbytes % h.blocksize
	if last > 0 {
		n++
	} else {
		last = h.blocksize
	}
	return n, last
}

// parseBlosc2 decodes a c-blosc2 extended (32-byte) header and checks the
// whole chunk layout against src (see openChunk2).
func (h *Header) parseBlosc2(src []byte) error {
	c, err := openChunk2(src)
	h.fromChunk2(&c)
	return err
}

func (h *Header) fromChunk2(c *chunk2) {
	x := &c.h
	*h = Header{Format: FormatBlosc2, Version: x.version, VersionLZ: x.versionLZ, Flags: x.flags,
		Typesize: int(x.typesize), Nbytes: x.nbytes, Blocksize: x.blocksize, Cbytes: x.cbytes,
		HeaderLen: header2Len, CodecMeta: x.codecMeta, Blosc2Flags: x.b2flags, Blosc2Flags2: x.flags2,
		Special: Special(x.special()), Dict: x.useDict(), VarBlocks: x.vlBlocks(),
		Memcpyed: x.memcpyed(), DontSplit: x.dontSplit(), CodecCode: x.flags >> 5}
	for i, f := range x.filters {
		h.Filters[i] = Filter(f)
		h.FilterMeta[i] = x.filterMeta[i]
		h.Shuffle = h.Shuffle || Filter(f) == ByteShuffle
		h.BitShuffle = h.BitShuffle || Filter(f) == BitShuffle
	}
	h.Split = !x.dontSplit() && !x.vlBlocks()
	if cd, err := x.codec(); err == nil {
		h.Codec = cd
	} else {
		h.Codec = Codec(0xff)
	}
	if x.memcpyed() && int(x.codecID) < len(codecNames) {
		// c-blosc2 leaves the codec bits of a copy's flags clear but keeps
		// the codec in byte 22.
		h.Codec = Codec(x.codecID)
	}
	if x.blocksize > 0 {
		h.Nblocks, _ = x.nblocks()
		if x.nbytes == 0 {
			h.Nblocks = 0
		}
	}
	if x.vlBlocks() {
		h.Blocksize = c.maxBlk
	}
}
