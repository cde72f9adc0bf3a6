package bloscpack

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/goblosc/blosc/internal/deflate"
)

// Metadata is the document of the metadata section. Reading fills JSON
// always and Numpy when the document describes a numpy array (its
// "container" is "numpy"); writing takes Numpy when set, JSON otherwise.
type Metadata struct {
	JSON  json.RawMessage
	Numpy *Numpy
}

// Numpy is the array description the reference's pack_ndarray stores.
type Numpy struct {
	// Dtype is numpy's repr of the dtype string, quotes included, as the
	// reference stores it ("'<f8'"); record dtypes hold the repr of their
	// descr list.
	Dtype     string  `json:"dtype"`
	Shape     []int64 `json:"shape"`
	Order     string  `json:"order"` // "C" or "F"
	Container string  `json:"container"`
}

// NewNumpyMetadata describes an array of the given dtype repr, shape and
// order ("C" or "F").
func NewNumpyMetadata(dtype string, shape []int64, order string) *Metadata {
	return &Metadata{Numpy: &Numpy{Dtype: dtype, Shape: shape, Order: order, Container: "numpy"}}
}

// serialize returns the document as the reference's json.dumps with
// separators (',', ':') writes it: compact, keys in the given order,
// non-ASCII escaped, '<' and '>' left alone.
func (m *Metadata) serialize() ([]byte, error) {
	if m.Numpy != nil {
		n := m.Numpy
		var b bytes.Buffer
		b.WriteString(`{"dtype":`)
		b.Write(pyString(n.Dtype))
		b.WriteString(`,"shape":[`)
		for i, d := range n.Shape {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", d)
		}
		b.WriteString(`],"order":`)
		b.Write(pyString(n.Order))
		b.WriteString(`,"container":`)
		c := n.Container
		if c == "" {
			c = "numpy"
		}
		b.Write(pyString(c))
		b.WriteByte('}')
		return b.Bytes(), nil
	}
	if !json.Valid(m.JSON) {
		return nil, fmt.Errorf("bloscpack: metadata is not valid JSON")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, m.JSON); err != nil {
		return nil, err
	}
	return asciiJSON(b.Bytes()), nil
}

// pyString quotes s as Python's json module does by default.
func pyString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return asciiJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// asciiJSON escapes every non-ASCII rune of a JSON text as \uXXXX
// (surrogate pairs above the BMP), as Python's ensure_ascii does.
func asciiJSON(b []byte) []byte {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
		case r < 0x80:
			out = append(out, byte(r))
		case r < 0x10000:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		}
	}
	return out
}

// parseMetadata checks the decoded document and surfaces numpy fields.
func parseMetadata(doc []byte) (*Metadata, error) {
	if !json.Valid(doc) {
		return nil, corruptf("metadata: not valid JSON")
	}
	m := &Metadata{JSON: json.RawMessage(doc)}
	var probe struct {
		Container *string `json:"container"`
	}
	if json.Unmarshal(doc, &probe) == nil && probe.Container != nil && *probe.Container == "numpy" {
		var n Numpy
		if err := json.Unmarshal(doc, &n); err != nil {
			return nil, corruptf("metadata: numpy container with fields of the wrong type: %v", err)
		}
		m.Numpy = &n
	}
	return m, nil
}

// MetaOptions configure the metadata section.
type MetaOptions struct {
	Checksum Checksum
	Codec    MetaCodec
	Level    int // 0..9, zlib's level
	// MaxSize is the space reserved for the stored metadata; 0 means ten
	// times the serialized size, the reference's default.
	MaxSize int
}

// DefaultMetaOptions are the reference's: adler32, zlib level 6.
func DefaultMetaOptions() MetaOptions {
	return MetaOptions{Checksum: Adler32, Codec: MetaZlib, Level: 6}
}

// encodeMetadata builds the whole metadata section.
func encodeMetadata(m *Metadata, o MetaOptions) ([]byte, MetaHeader, error) {
	var mh MetaHeader
	if o.Checksum >= numChecksums || o.Codec > MetaZlib || o.Level < 0 || o.Level > 9 || o.MaxSize < 0 {
		return nil, mh, invalidf("metadata options %+v", o)
	}
	doc, err := m.serialize()
	if err != nil {
		return nil, mh, invalidf("%v", err)
	}
	if len(doc) > 1<<28 {
		return nil, mh, invalidf("metadata of %d bytes (at most 256 MiB)", len(doc))
	}
	stored := doc
	codec := o.Codec
	if codec == MetaZlib {
		// C zlib's bytes (the reference compresses with Python's
		// zlib.compress) at levels 1-9; compress/zlib's stored blocks at
		// level 0.
		var z []byte
		if o.Level > 0 {
			z = new(deflate.Encoder).AppendCompress(nil, doc, o.Level)
		} else {
			var b bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&b, o.Level)
			zw.Write(doc)
			zw.Close()
			z = b.Bytes()
		}
		// As the reference: keep compression unless it makes it larger.
		if len(z) > len(doc) {
			codec = MetaNone
		} else {
			stored = z
		}
	}
	maxSize := int64(o.MaxSize)
	if maxSize == 0 {
		maxSize = 10 * int64(len(doc))
	}
	if int64(len(stored)) > maxSize || maxSize > 1<<32-1 || maxSize > int64(maxInt) {
		return nil, mh, invalidf("metadata needs %d bytes, max size %d", len(stored), maxSize)
	}
	mh = MetaHeader{Magic: "JSON", Checksum: o.Checksum, Codec: codec, Level: o.Level,
		Size: uint32(len(doc)), MaxSize: uint32(maxSize), CompSize: uint32(len(stored))}
	sec := mh.encode()
	sec = append(sec, stored...)
	sec = append(sec, make([]byte, int(maxSize)-len(stored))...)
	sec = newHasher(o.Checksum).sum(sec, stored)
	return sec, mh, nil
}

// decodeMetadataBody verifies and decodes the stored bytes of a section.
func decodeMetadataBody(mh *MetaHeader, stored, digest []byte) (*Metadata, error) {
	if mh.Checksum != NoChecksum {
		if got := newHasher(mh.Checksum).sum(nil, stored); !bytes.Equal(got, digest) {
			return nil, corruptf("metadata: %s checksum mismatch: stored %x, computed %x", mh.Checksum, digest, got)
		}
	}
	doc := stored
	if mh.Codec == MetaZlib {
		zr, err := zlib.NewReader(bytes.NewReader(stored))
		if err != nil {
			return nil, corruptf("metadata: zlib: %v", err)
		}
		// meta_size bounds what a lying stream may make us allocate.
		d, err := io.ReadAll(io.LimitReader(zr, int64(mh.Size)+1))
		if err != nil {
			return nil, corruptf("metadata: zlib: %v", err)
		}
		if len(d) != int(mh.Size) {
			return nil, corruptf("metadata: decompresses to %d bytes or more, meta_size says %d", len(d), mh.Size)
		}
		doc = d
	}
	return parseMetadata(doc)
}
