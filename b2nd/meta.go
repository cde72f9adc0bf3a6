package b2nd

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
)

// MetaName is the name of the fixed-size metalayer that makes a frame an
// N-dimensional array; legacyMetaName is the one Caterva wrote before it,
// which c-blosc2 still reads.
const (
	MetaName       = "b2nd"
	legacyMetaName = "caterva"
)

// MaxDim is the largest number of dimensions c-blosc2 handles
// (B2ND_MAX_DIM).
const MaxDim = 16

// metaVersion is the version c-blosc2 writes (B2ND_METALAYER_VERSION).
const metaVersion = 0

// DTypeNumPy is the dtype format of NumPy type strings, the only one
// c-blosc2 and python-blosc2 write.
const DTypeNumPy = 0

// Meta is the content of a b2nd metalayer.
type Meta struct {
	// Version is the metalayer's version byte (c-blosc2 writes 0 and reads
	// any).
	Version    uint8
	Shape      []int64
	ChunkShape []int32
	BlockShape []int32
	// DTypeFormat says how DType is written: 0 (DTypeNumPy) for NumPy type
	// strings.
	DTypeFormat int8
	// DType is the element type as NumPy spells it (dtype.str, or the
	// repr of dtype.descr for structured types); "" when the metalayer
	// (a Caterva one) holds none.
	DType string
	// HasDType is false for a metalayer without the dtype entries.
	HasDType bool
}

// ParseMeta decodes a b2nd (or Caterva) metalayer as c-blosc2's
// b2nd_deserialize_meta does: the msgpack markers are taken on trust,
// the dtype entries are optional, and every length is checked against
// the bytes there are.
func ParseMeta(b []byte) (Meta, error) {
	var m Meta
	p := 0
	need := func(n int) error {
		if n < 0 || len(b)-p < n {
			return fmt.Errorf("%w: b2nd metalayer of %d bytes is truncated at byte %d", blosc.ErrCorrupt, len(b), p)
		}
		return nil
	}
	// The 7-entry array marker, then the version.
	if err := need(3); err != nil {
		return m, err
	}
	m.Version = b[1]
	ndim := int(int8(b[2]))
	p = 3
	if ndim < 0 || ndim > MaxDim {
		return m, fmt.Errorf("%w: b2nd metalayer gives %d dimensions (0 to %d)", blosc.ErrCorrupt, ndim, MaxDim)
	}
	m.Shape = make([]int64, ndim)
	m.ChunkShape = make([]int32, ndim)
	m.BlockShape = make([]int32, ndim)
	if err := need(1 + 9*ndim); err != nil {
		return m, err
	}
	p++
	for i := range m.Shape {
		m.Shape[i] = int64(binary.BigEndian.Uint64(b[p+1:]))
		p += 9
	}
	for _, dims := range [][]int32{m.ChunkShape, m.BlockShape} {
		if err := need(1 + 5*ndim); err != nil {
			return m, err
		}
		p++
		for i := range dims {
			dims[i] = int32(binary.BigEndian.Uint32(b[p+1:]))
			p += 5
		}
	}
	if p == len(b) {
		return m, nil
	}
	if err := need(6); err != nil {
		return m, err
	}
	m.DTypeFormat = int8(b[p])
	if b[p+1] != 0xdb {
		return m, fmt.Errorf("%w: b2nd metalayer's dtype has msgpack marker %#x, not str32", blosc.ErrCorrupt, b[p+1])
	}
	n := int64(int32(binary.BigEndian.Uint32(b[p+2:])))
	p += 6
	if n < 0 || n > int64(len(b)-p) {
		return m, fmt.Errorf("%w: b2nd metalayer's dtype of %d bytes in %d", blosc.ErrCorrupt, n, len(b)-p)
	}
	m.DType = string(b[p : p+int(n)])
	m.HasDType = true
	return m, nil
}

// Marshal writes the metalayer byte for byte as c-blosc2's
// b2nd_serialize_meta does (version 0, int64 shape, int32 chunk and
// block shapes, the dtype as a str32).
func (m *Meta) Marshal() ([]byte, error) {
	ndim := len(m.Shape)
	if ndim > MaxDim || len(m.ChunkShape) != ndim || len(m.BlockShape) != ndim {
		return nil, fmt.Errorf("%w: b2nd metalayer of %d, %d and %d dimensions", blosc.ErrInvalidOptions, ndim, len(m.ChunkShape), len(m.BlockShape))
	}
	if m.DTypeFormat < 0 {
		return nil, fmt.Errorf("%w: dtype format %d", blosc.ErrInvalidOptions, m.DTypeFormat)
	}
	dtype := m.DType
	if dtype == "" {
		dtype = defaultDType
	}
	b := make([]byte, 0, 3+1+9*ndim+2*(1+5*ndim)+6+len(dtype))
	b = append(b, 0x90+7, metaVersion, byte(ndim), 0x90+byte(ndim))
	for _, v := range m.Shape {
		b = append(b, 0xd3)
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	for _, dims := range [][]int32{m.ChunkShape, m.BlockShape} {
		b = append(b, 0x90+byte(ndim))
		for _, v := range dims {
			b = append(b, 0xd2)
			b = binary.BigEndian.AppendUint32(b, uint32(v))
		}
	}
	b = append(b, byte(m.DTypeFormat), 0xdb)
	b = binary.BigEndian.AppendUint32(b, uint32(len(dtype)))
	return append(b, dtype...), nil
}

// defaultDType is c-blosc2's B2ND_DEFAULT_DTYPE.
const defaultDType = "|u1"
