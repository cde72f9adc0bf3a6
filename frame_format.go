package blosc

import (
	"encoding/binary"
	"fmt"
)

// The msgpack parts of a Blosc2 contiguous frame: the fixed-layout header
// with its metalayers, and the trailer with the variable-length
// metalayers. Both are written byte for byte as c-blosc2's
// new_header_frame and frame_update_trailer write them (integers inside
// msgpack are big-endian; docs/formats.md and c-blosc2's README_CFRAME_FORMAT.rst),
// and read with every marker and length checked against the bytes given.

// Byte positions in the header (c-blosc2's frame.h). Each names the first
// byte of a value; the msgpack marker sits just before it.
const (
	frameHeaderLenPos   = 11 // int32 header length (marker d2 at 10)
	frameLenPos         = 16 // uint64 frame length (marker cf at 15)
	frameFlagsPos       = 25 // general flags; a4 at 24
	frameTypePos        = 26
	frameCodecsPos      = 27 // codec | clevel<<4
	frameOtherFlagsPos  = 28 // split mode - 1
	frameNbytesPos      = 30 // int64 (d3 at 29)
	frameCbytesPos      = 39 // int64 (d3 at 38)
	frameTypesizePos    = 48 // int32 (d2 at 47)
	frameBlocksizePos   = 53 // int32 (d2 at 52)
	frameChunksizePos   = 58 // int32 (d2 at 57)
	frameTcompPos       = 63 // int16 (d1 at 62)
	frameTdecompPos     = 66 // int16 (d1 at 65)
	frameHasVLMetaPos   = 68 // c2 false, c3 true
	framePipelinePos    = 70 // fixext16 type byte = slot count (d8 at 69)
	frameFiltersPos     = 71 // 6 filter codes
	frameUDCodecPos     = 77 // the codec code again
	frameCodecMetaPos   = 78
	frameFilterMetaPos  = 79 // 6 filter metas
	frameOtherFlags2Pos = 85 // bit 0: use_dict
	frameHeaderMinLen   = 87 // the metalayers section starts here
	frameMetaIdxSizePos = 89 // uint16 size of the metalayer index (cd at 88)

	frameTrailerMinLen = 25 // 94 01, an empty vlmetalayer section, length, fingerprint

	frameFormatRC1      = 2 // BLOSC2_VERSION_FRAME_FORMAT_RC1
	frameFormatVLBlocks = 3 // BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS
	frameOffsets64      = 0x10
	frameVarChunks      = 0x40
	frameVLBlocksFlag   = 0x80
	frameUseDict        = 0x01

	// MaxMetalayers is how many fixed-size metalayers a frame header
	// holds (BLOSC2_MAX_METALAYERS).
	MaxMetalayers = 16
	// MaxVLMetalayers bounds the variable-length metalayers
	// (BLOSC2_MAX_VLMETALAYERS).
	MaxVLMetalayers = 8 * 1024
	// MaxMetalayerName is the longest metalayer name, in bytes.
	MaxMetalayerName = 31
)

var frameMagic = [8]byte{'b', '2', 'f', 'r', 'a', 'm', 'e', 0}

// metalayer is a named byte string; for variable-length metalayers the
// content is the compressed Blosc2 chunk the trailer stores.
type metalayer struct {
	name    string
	content []byte
}

// frameHeader holds the header fields of a contiguous frame.
type frameHeader struct {
	headerLen    int
	frameLen     int64
	generalFlags uint8
	frameType    uint8
	codecFlags   uint8
	otherFlags   uint8
	nbytes       int64
	cbytes       int64
	typesize     int32
	blocksize    int32
	chunksize    int32
	tcomp        int16
	tdecomp      int16
	hasVLMeta    bool
	nfilters     uint8
	filters      [MaxFilters]uint8
	filterMeta   [MaxFilters]uint8
	udcodec      uint8
	codecMeta    uint8
	otherFlags2  uint8
	meta         []metalayer
}

func (h *frameHeader) codec() uint8     { return h.codecFlags & 0x0f }
func (h *frameHeader) clevel() int      { return int(h.codecFlags >> 4) }
func (h *frameHeader) version() uint8   { return h.generalFlags & 0x0f }
func (h *frameHeader) vlBlocks() bool   { return h.generalFlags&frameVLBlocksFlag != 0 }
func (h *frameHeader) splitMode() uint8 { return h.otherFlags&0x03 + 1 }

// checkContiguous refuses a header that is not a contiguous frame's.
func (h *frameHeader) checkContiguous() error {
	switch h.frameType {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: the index of a sparse frame (type 1) is read with its directory", ErrUnsupported)
	}
	return fmt.Errorf("%w: frame type %d", ErrCorrupt, h.frameType)
}

// appendHeader writes the header (metalayers included) after dst. The
// frame length is written as given; header_len is computed.
func appendFrameHeader(dst []byte, h *frameHeader) []byte {
	start := len(dst)
	dst = append(dst, 0x9e, 0xa8)
	dst = append(dst, frameMagic[:]...)
	dst = append(dst, 0xd2, 0, 0, 0, 0) // header_len, patched below
	dst = append(dst, 0xcf)
	dst = binary.BigEndian.AppendUint64(dst, uint64(h.frameLen))
	dst = append(dst, 0xa4, h.generalFlags, h.frameType, h.codecFlags, h.otherFlags)
	dst = append(dst, 0xd3)
	dst = binary.BigEndian.AppendUint64(dst, uint64(h.nbytes))
	dst = append(dst, 0xd3)
	dst = binary.BigEndian.AppendUint64(dst, uint64(h.cbytes))
	for _, v := range []int32{h.typesize, h.blocksize, h.chunksize} {
		dst = append(dst, 0xd2)
		dst = binary.BigEndian.AppendUint32(dst, uint32(v))
	}
	for _, v := range []int16{h.tcomp, h.tdecomp} {
		dst = append(dst, 0xd1)
		dst = binary.BigEndian.AppendUint16(dst, uint16(v))
	}
	if h.hasVLMeta {
		dst = append(dst, 0xc3)
	} else {
		dst = append(dst, 0xc2)
	}
	dst = append(dst, 0xd8, MaxFilters)
	dst = append(dst, h.filters[:]...)
	dst = append(dst, h.udcodec, h.codecMeta)
	dst = append(dst, h.filterMeta[:]...)
	dst = append(dst, h.otherFlags2, 0)
	// The metalayer section: the index's size counts from the array
	// marker to the end of the name/offset map.
	secStart := len(dst)
	dst = append(dst, 0x93, 0xcd, 0, 0, 0xde)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(h.meta)))
	offPos := make([]int, len(h.meta))
	for i, m := range h.meta {
		dst = append(dst, 0xa0|byte(len(m.name)))
		dst = append(dst, m.name...)
		dst = append(dst, 0xd2, 0, 0, 0, 0)
		offPos[i] = len(dst) - 4
	}
	binary.BigEndian.PutUint16(dst[secStart+2:], uint16(len(dst)-secStart))
	dst = append(dst, 0xdc)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(h.meta)))
	for i, m := range h.meta {
		binary.BigEndian.PutUint32(dst[offPos[i]:], uint32(len(dst)-start))
		dst = append(dst, 0xc6)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.content)))
		dst = append(dst, m.content...)
	}
	binary.BigEndian.PutUint32(dst[start+frameHeaderLenPos:], uint32(len(dst)-start))
	return dst
}

// frameHeaderSize is the length appendFrameHeader writes for metas.
func frameHeaderSize(meta []metalayer) int {
	n := frameHeaderMinLen + 7 + 3
	for _, m := range meta {
		n += 1 + len(m.name) + 5 + 5 + len(m.content)
	}
	return n
}

// parseFrameHeader decodes the header at the start of b, where b holds at
// least the whole header (b may extend further). Every marker is checked:
// c-blosc2 writes all of them whatever the content.
func parseFrameHeader(b []byte) (frameHeader, error) {
	var h frameHeader
	if len(b) < frameHeaderMinLen {
		return h, fmt.Errorf("%w: frame of %d bytes, a frame header needs %d", ErrCorrupt, len(b), frameHeaderMinLen)
	}
	if b[0] != 0x9e || b[1] != 0xa8 || [8]byte(b[2:10]) != frameMagic {
		return h, fmt.Errorf("%w: no b2frame magic", ErrCorrupt)
	}
	markers := [...]struct {
		pos  int
		want byte
	}{{10, 0xd2}, {15, 0xcf}, {24, 0xa4}, {29, 0xd3}, {38, 0xd3}, {47, 0xd2}, {52, 0xd2}, {57, 0xd2}, {62, 0xd1}, {65, 0xd1}, {69, 0xd8}}
	for _, m := range markers {
		if b[m.pos] != m.want {
			return h, fmt.Errorf("%w: frame header byte %d is %#02x, not the msgpack marker %#02x", ErrCorrupt, m.pos, b[m.pos], m.want)
		}
	}
	be32 := func(p int) int32 { return int32(binary.BigEndian.Uint32(b[p:])) }
	h.headerLen = int(be32(frameHeaderLenPos))
	h.frameLen = int64(binary.BigEndian.Uint64(b[frameLenPos:]))
	h.generalFlags, h.frameType = b[frameFlagsPos], b[frameTypePos]
	h.codecFlags, h.otherFlags = b[frameCodecsPos], b[frameOtherFlagsPos]
	h.nbytes = int64(binary.BigEndian.Uint64(b[frameNbytesPos:]))
	h.cbytes = int64(binary.BigEndian.Uint64(b[frameCbytesPos:]))
	h.typesize = be32(frameTypesizePos)
	h.blocksize = be32(frameBlocksizePos)
	h.chunksize = be32(frameChunksizePos)
	h.tcomp = int16(binary.BigEndian.Uint16(b[frameTcompPos:]))
	h.tdecomp = int16(binary.BigEndian.Uint16(b[frameTdecompPos:]))
	switch b[frameHasVLMetaPos] {
	case 0xc2:
	case 0xc3:
		h.hasVLMeta = true
	default:
		return h, fmt.Errorf("%w: frame header byte %d is %#02x, not a msgpack bool", ErrCorrupt, frameHasVLMetaPos, b[frameHasVLMetaPos])
	}
	h.nfilters = b[framePipelinePos]
	if h.nfilters > MaxFilters {
		return h, fmt.Errorf("%w: frame header names %d filter slots", ErrCorrupt, h.nfilters)
	}
	copy(h.filters[:h.nfilters], b[frameFiltersPos:])
	copy(h.filterMeta[:h.nfilters], b[frameFilterMetaPos:])
	h.udcodec, h.codecMeta, h.otherFlags2 = b[frameUDCodecPos], b[frameCodecMetaPos], b[frameOtherFlags2Pos]

	switch {
	case h.version() > frameFormatVLBlocks:
		return h, fmt.Errorf("%w: %w: frame format version %d (newer than c-blosc2's 3, or a damaged header)", ErrCorrupt, ErrUnsupported, h.version())
	case h.generalFlags&0x30 != frameOffsets64:
		return h, fmt.Errorf("%w: frame offsets of kind %d (only 64-bit offsets exist)", ErrUnsupported, h.generalFlags>>4&3)
	case h.headerLen < frameHeaderMinLen:
		return h, fmt.Errorf("%w: frame header length %d", ErrCorrupt, h.headerLen)
	case int64(h.headerLen) > h.frameLen || h.headerLen > len(b):
		return h, fmt.Errorf("%w: frame header length %d beyond the frame (%d bytes, %d given)", ErrCorrupt, h.headerLen, h.frameLen, len(b))
	case h.nbytes < 0 || h.cbytes < 0:
		return h, fmt.Errorf("%w: frame sizes nbytes %d, cbytes %d", ErrCorrupt, h.nbytes, h.cbytes)
	case h.typesize <= 0 || h.typesize > MaxTypesize:
		return h, fmt.Errorf("%w: frame typesize %d", ErrCorrupt, h.typesize)
	case h.blocksize < 0:
		return h, fmt.Errorf("%w: frame blocksize %d", ErrCorrupt, h.blocksize)
	case h.chunksize < -1:
		return h, fmt.Errorf("%w: frame chunksize %d", ErrCorrupt, h.chunksize)
	}
	meta, err := parseMetaSection(b[:h.headerLen], frameHeaderMinLen, MaxMetalayers, true)
	if err != nil {
		return h, fmt.Errorf("frame header metalayers: %w", err)
	}
	h.meta = meta
	return h, nil
}

// parseMetaSection reads a metalayer section (93 cd size de n {name: d2
// off} dc n [c6 len bytes]) that starts at sec inside buf; offsets are
// relative to buf's start and every content must lie inside buf. In the
// header the index size counts the 93 marker; in the trailer it does not
// (inclusive93), as c-blosc2 writes them.
func parseMetaSection(buf []byte, sec, max int, inclusive93 bool) ([]metalayer, error) {
	if sec+7 > len(buf) {
		return nil, fmt.Errorf("%w: metalayer section truncated", ErrCorrupt)
	}
	if buf[sec] != 0x93 || buf[sec+1] != 0xcd || buf[sec+4] != 0xde {
		return nil, fmt.Errorf("%w: metalayer section markers % x", ErrCorrupt, buf[sec:sec+5])
	}
	n := int(binary.BigEndian.Uint16(buf[sec+5:]))
	if n > max {
		return nil, fmt.Errorf("%w: %d metalayers, at most %d", ErrCorrupt, n, max)
	}
	p := sec + 7
	meta := make([]metalayer, 0, min(n, (len(buf)-p)/6))
	for i := 0; i < n; i++ {
		if p >= len(buf) || buf[p]&0xe0 != 0xa0 {
			return nil, fmt.Errorf("%w: metalayer %d has no name", ErrCorrupt, i)
		}
		l := int(buf[p] & 0x1f)
		if p+1+l+5 > len(buf) {
			return nil, fmt.Errorf("%w: metalayer %d truncated", ErrCorrupt, i)
		}
		name := string(buf[p+1 : p+1+l])
		p += 1 + l
		if buf[p] != 0xd2 {
			return nil, fmt.Errorf("%w: metalayer %q has no offset", ErrCorrupt, name)
		}
		off := int64(int32(binary.BigEndian.Uint32(buf[p+1:])))
		p += 5
		if off < 0 || off+5 > int64(len(buf)) || buf[off] != 0xc6 {
			return nil, fmt.Errorf("%w: metalayer %q at offset %d", ErrCorrupt, name, off)
		}
		cl := int64(binary.BigEndian.Uint32(buf[off+1:]))
		if off+5+cl > int64(len(buf)) {
			return nil, fmt.Errorf("%w: metalayer %q of %d bytes overruns its section", ErrCorrupt, name, cl)
		}
		for _, m := range meta {
			if m.name == name {
				return nil, fmt.Errorf("%w: metalayer %q twice", ErrCorrupt, name)
			}
		}
		meta = append(meta, metalayer{name: name, content: buf[off+5 : off+5+cl : off+5+cl]})
	}
	idx := int(binary.BigEndian.Uint16(buf[sec+2:]))
	want := p - sec
	if !inclusive93 {
		want--
	}
	if idx != want {
		return nil, fmt.Errorf("%w: metalayer index size %d, the index takes %d", ErrCorrupt, idx, want)
	}
	if p+3 > len(buf) || buf[p] != 0xdc || int(binary.BigEndian.Uint16(buf[p+1:])) != n {
		return nil, fmt.Errorf("%w: metalayer value array", ErrCorrupt)
	}
	return meta, nil
}

// appendFrameTrailer writes the trailer holding the vlmetalayers (their
// contents already compressed) after dst.
func appendFrameTrailer(dst []byte, vl []metalayer) []byte {
	start := len(dst)
	dst = append(dst, 0x94, 0x01, 0x93, 0xcd, 0, 0, 0xde)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(vl)))
	offPos := make([]int, len(vl))
	for i, m := range vl {
		dst = append(dst, 0xa0|byte(len(m.name)))
		dst = append(dst, m.name...)
		dst = append(dst, 0xd2, 0, 0, 0, 0)
		offPos[i] = len(dst) - 4
	}
	binary.BigEndian.PutUint16(dst[start+4:], uint16(len(dst)-start-3))
	dst = append(dst, 0xdc)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(vl)))
	for i, m := range vl {
		binary.BigEndian.PutUint32(dst[offPos[i]:], uint32(len(dst)-start))
		dst = append(dst, 0xc6)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.content)))
		dst = append(dst, m.content...)
	}
	tl := len(dst) - start + 23
	dst = append(dst, 0xce)
	dst = binary.BigEndian.AppendUint32(dst, uint32(tl))
	dst = append(dst, 0xd8, 0)
	dst = append(dst, make([]byte, 16)...)
	return dst
}

// frameTrailerSize is the length appendFrameTrailer writes for vl.
func frameTrailerSize(vl []metalayer) int {
	n := 2 + 7 + 3 + 23 // 94 01, 93 cd size de n, dc n, then length and fingerprint
	for _, m := range vl {
		n += 1 + len(m.name) + 5 + 5 + len(m.content)
	}
	return n
}

// frameTrailerLen reads the trailer length from the last bytes of a frame
// of frameLen bytes whose tail is in tail (the frame's last len(tail)
// bytes, at least frameTrailerMinLen of them).
func frameTrailerLen(tail []byte, frameLen int64, headerLen int) (int, error) {
	t := tail[len(tail)-frameTrailerMinLen:]
	if t[2] != 0xce {
		return 0, fmt.Errorf("%w: no trailer length marker", ErrCorrupt)
	}
	tl := int64(binary.BigEndian.Uint32(t[3:]))
	if tl < frameTrailerMinLen || tl > frameLen-int64(headerLen) {
		return 0, fmt.Errorf("%w: trailer length %d in a frame of %d bytes with a %d-byte header", ErrCorrupt, tl, frameLen, headerLen)
	}
	return int(tl), nil
}

// parseFrameTrailer decodes the vlmetalayers of a trailer (the trailer's
// bytes exactly).
func parseFrameTrailer(t []byte) ([]metalayer, error) {
	if len(t) < frameTrailerMinLen || t[0] != 0x94 {
		return nil, fmt.Errorf("%w: trailer of %d bytes", ErrCorrupt, len(t))
	}
	if t[1] != 0x01 {
		return nil, fmt.Errorf("%w: trailer version %d", ErrUnsupported, t[1])
	}
	vl, err := parseMetaSection(t[:len(t)-23], 2, MaxVLMetalayers, false)
	if err != nil {
		return nil, fmt.Errorf("frame trailer vlmetalayers: %w", err)
	}
	return vl, nil
}

// maxFrameChunks is the most chunks an offsets index (a chunk of int64s)
// can list.
const maxFrameChunks = MaxBufferSize / 8
