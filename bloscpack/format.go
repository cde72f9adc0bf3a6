// Package bloscpack reads and writes Bloscpack files (.blp), the file
// format of the Bloscpack reference implementation (format version 3;
// version 2 files are read too): a 32-byte header, an optional JSON
// metadata section, an optional table of chunk offsets with slots kept free
// for appending, then Blosc1 chunks, each followed by its checksum.
//
// Open gives random access to a file's chunks and bytes through its
// offsets; NewReader streams a file's decompressed bytes; NewWriter packs a
// stream, compressing chunks in parallel; Append adds data in place while
// preallocated offset slots remain.
package bloscpack

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
)

// Magic starts every Bloscpack file.
const Magic = "blpk"

// FormatVersion is the version this package writes.
const FormatVersion = 3

const (
	headerLen     = 32
	metaHeaderLen = 32
	chunkHdrLen   = 16 // a Blosc1 chunk header

	optOffsets  = 0x01
	optMetadata = 0x02

	// maxChunkSize is the reference's BLOSC_MAX_BUFFERSIZE check on
	// chunk_size and last_chunk: c-blosc 1.x's largest input.
	maxChunkSize = 1<<31 - 1 - 16
)

// Header is the 32-byte file header.
type Header struct {
	Version  uint8    `json:"format_version"`
	Offsets  bool     `json:"offsets"`  // an offsets table follows the metadata
	Metadata bool     `json:"metadata"` // a metadata section follows the header
	Checksum Checksum `json:"checksum"` // digest stored after every chunk
	Typesize int      `json:"typesize"`
	// ChunkSize is the uncompressed size of every chunk but the last;
	// LastChunk the last one's. -1 marks an unknown value (a stream).
	ChunkSize int `json:"chunk_size"`
	LastChunk int `json:"last_chunk"`
	// NChunks is the number of chunks (-1: unknown); MaxAppChunks the
	// number of free offset slots left for appending (version 3).
	NChunks      int64 `json:"nchunks"`
	MaxAppChunks int64 `json:"max_app_chunks"`
}

func (h *Header) encode() []byte {
	b := make([]byte, headerLen)
	copy(b, Magic)
	b[4] = h.Version
	if h.Offsets {
		b[5] |= optOffsets
	}
	if h.Metadata {
		b[5] |= optMetadata
	}
	b[6] = uint8(h.Checksum)
	b[7] = uint8(h.Typesize)
	binary.LittleEndian.PutUint32(b[8:], uint32(int32(h.ChunkSize)))
	binary.LittleEndian.PutUint32(b[12:], uint32(int32(h.LastChunk)))
	binary.LittleEndian.PutUint64(b[16:], uint64(h.NChunks))
	binary.LittleEndian.PutUint64(b[24:], uint64(h.MaxAppChunks))
	return b
}

// decodeHeader checks every field the way the reference does, and more:
// the reference crashes on an unknown checksum id.
func decodeHeader(b []byte) (Header, error) {
	var h Header
	if len(b) < headerLen {
		return h, corruptf("header: %d bytes, a Bloscpack header has %d", len(b), headerLen)
	}
	if string(b[:4]) != Magic {
		return h, corruptf("header: magic %q, want %q", b[:4], Magic)
	}
	h.Version = b[4]
	if h.Version != 2 && h.Version != 3 {
		return h, fmt.Errorf("%w: bloscpack: header: format version %d (want 2 or 3)", blosc.ErrUnsupported, h.Version)
	}
	opts := b[5]
	allowed := uint8(optOffsets | optMetadata)
	if h.Version == 2 {
		allowed = optOffsets
	}
	if opts&^allowed != 0 {
		return h, corruptf("header: options 0x%02x have bits the format version %d does not define", opts, h.Version)
	}
	h.Offsets = opts&optOffsets != 0
	h.Metadata = opts&optMetadata != 0
	if b[6] >= uint8(numChecksums) {
		return h, corruptf("header: checksum id %d (want 0..%d)", b[6], numChecksums-1)
	}
	h.Checksum = Checksum(b[6])
	h.Typesize = int(b[7])
	h.ChunkSize = int(int32(binary.LittleEndian.Uint32(b[8:])))
	h.LastChunk = int(int32(binary.LittleEndian.Uint32(b[12:])))
	h.NChunks = int64(binary.LittleEndian.Uint64(b[16:]))
	if h.Version == 3 {
		h.MaxAppChunks = int64(binary.LittleEndian.Uint64(b[24:]))
	}
	switch {
	case h.ChunkSize < -1 || h.ChunkSize > maxChunkSize:
		return h, corruptf("header: chunk_size %d out of range", h.ChunkSize)
	case h.LastChunk < -1 || h.LastChunk > maxChunkSize:
		return h, corruptf("header: last_chunk %d out of range", h.LastChunk)
	case h.ChunkSize != -1 && h.LastChunk > h.ChunkSize:
		return h, corruptf("header: last_chunk %d is larger than chunk_size %d", h.LastChunk, h.ChunkSize)
	case h.NChunks < -1:
		return h, corruptf("header: nchunks %d", h.NChunks)
	case h.MaxAppChunks < 0:
		return h, corruptf("header: max_app_chunks %d", h.MaxAppChunks)
	case h.NChunks == -1 && h.MaxAppChunks != 0:
		return h, corruptf("header: max_app_chunks %d with an unknown chunk count", h.MaxAppChunks)
	case h.NChunks > 0 && h.MaxAppChunks > 1<<62-h.NChunks:
		return h, corruptf("header: nchunks %d + max_app_chunks %d overflow", h.NChunks, h.MaxAppChunks)
	}
	return h, nil
}

// slots is the number of entries of the offsets table.
func (h *Header) slots() int64 {
	if !h.Offsets || h.NChunks < 0 {
		return 0
	}
	return h.NChunks + h.MaxAppChunks
}

// MetaCodec is the codec of the metadata section.
type MetaCodec uint8

const (
	MetaNone MetaCodec = 0
	MetaZlib MetaCodec = 1
)

func (c MetaCodec) String() string {
	switch c {
	case MetaNone:
		return "None"
	case MetaZlib:
		return "zlib"
	}
	return fmt.Sprintf("metacodec(%d)", uint8(c))
}

// MarshalText writes the codec's name as the reference spells it.
func (c MetaCodec) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// MetaHeader is the 32-byte header of the metadata section.
type MetaHeader struct {
	Magic     string    `json:"magic_format"` // serializer; only "JSON" exists
	Options   uint8     `json:"meta_options"`
	Checksum  Checksum  `json:"meta_checksum"` // over the stored (compressed) bytes
	Codec     MetaCodec `json:"meta_codec"`
	Level     int       `json:"meta_level"`
	Size      uint32    `json:"meta_size"`      // serialized size
	MaxSize   uint32    `json:"max_meta_size"`  // space reserved for the stored bytes
	CompSize  uint32    `json:"meta_comp_size"` // stored size
	UserCodec string    `json:"user_codec"`
}

// sectionLen is the size of the whole metadata section.
func (m *MetaHeader) sectionLen() int64 {
	return metaHeaderLen + int64(m.MaxSize) + int64(m.Checksum.Size())
}

func (m *MetaHeader) encode() []byte {
	b := make([]byte, metaHeaderLen)
	copy(b[:8], m.Magic)
	b[8] = m.Options
	b[9] = uint8(m.Checksum)
	b[10] = uint8(m.Codec)
	b[11] = uint8(m.Level)
	binary.LittleEndian.PutUint32(b[12:], m.Size)
	binary.LittleEndian.PutUint32(b[16:], m.MaxSize)
	binary.LittleEndian.PutUint32(b[20:], m.CompSize)
	copy(b[24:], m.UserCodec)
	return b
}

func decodeMetaHeader(b []byte) (MetaHeader, error) {
	var m MetaHeader
	if len(b) < metaHeaderLen {
		return m, corruptf("metadata header: %d bytes, want %d", len(b), metaHeaderLen)
	}
	m.Magic = trimNul(b[:8])
	m.Options = b[8]
	if b[9] >= uint8(numChecksums) {
		return m, corruptf("metadata header: checksum id %d (want 0..%d)", b[9], numChecksums-1)
	}
	m.Checksum = Checksum(b[9])
	if b[10] > uint8(MetaZlib) {
		return m, corruptf("metadata header: codec id %d (want 0 none or 1 zlib)", b[10])
	}
	m.Codec = MetaCodec(b[10])
	m.Level = int(b[11])
	m.Size = binary.LittleEndian.Uint32(b[12:])
	m.MaxSize = binary.LittleEndian.Uint32(b[16:])
	m.CompSize = binary.LittleEndian.Uint32(b[20:])
	m.UserCodec = trimNul(b[24:32])
	switch {
	case m.Magic != "JSON":
		return m, fmt.Errorf("%w: bloscpack: metadata serializer %q (only JSON exists)", blosc.ErrUnsupported, m.Magic)
	case m.Options != 0:
		return m, corruptf("metadata header: options 0x%02x (all bits are reserved)", m.Options)
	case m.Level > 9:
		return m, corruptf("metadata header: level %d (want 0..9)", m.Level)
	case m.CompSize > m.MaxSize:
		return m, corruptf("metadata header: meta_comp_size %d larger than max_meta_size %d", m.CompSize, m.MaxSize)
	case m.Codec == MetaNone && m.CompSize != m.Size:
		return m, corruptf("metadata header: uncompressed metadata with meta_size %d but meta_comp_size %d", m.Size, m.CompSize)
	}
	return m, nil
}

func trimNul(b []byte) string {
	i, j := 0, len(b)
	for i < j && b[i] == 0 {
		i++
	}
	for j > i && b[j-1] == 0 {
		j--
	}
	return string(b[i:j])
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: bloscpack: %s", blosc.ErrCorrupt, fmt.Sprintf(format, args...))
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: bloscpack: %s", blosc.ErrInvalidOptions, fmt.Sprintf(format, args...))
}
