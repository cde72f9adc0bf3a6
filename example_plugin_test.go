package blosc_test

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/goblosc/blosc"
)

// xorFilter is a toy filter: every byte XORed with the slot's meta byte.
type xorFilter struct{}

func (xorFilter) Forward(dst, src []byte, p blosc.FilterParams) error {
	for i, b := range src {
		dst[i] = b ^ p.Meta
	}
	return nil
}

func (f xorFilter) Backward(dst, src []byte, p blosc.FilterParams) error {
	return f.Forward(dst, src, p)
}

// flateCodec codes each stream as raw deflate (RFC 1951).
type flateCodec struct{}

func (flateCodec) Compress(dst, src []byte, p blosc.CodecParams) (int, error) {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, p.Level)
	if err != nil {
		return 0, err
	}
	if _, err := w.Write(src); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	if buf.Len() > len(dst) {
		return 0, nil // does not fit: the stream is stored as it is
	}
	return copy(dst, buf.Bytes()), nil
}

func (flateCodec) Decompress(dst, src []byte, p blosc.CodecParams) (int, error) {
	return io.ReadFull(flate.NewReader(bytes.NewReader(src)), dst)
}

// Plugins take the ids c-blosc2 leaves to programs (160..255), or the ids
// of c-blosc2's own plugins (ndlz, zfp, ...) to bind an implementation.
// Once registered they work through every API: chunks, super-chunks and
// frames.
func ExampleRegisterCodec() {
	const (
		flateID = blosc.Codec(160)
		xorID   = blosc.Filter(200)
	)
	if err := blosc.RegisterCodec(flateID, "flate", 1, flateCodec{}); err != nil {
		panic(err)
	}
	if err := blosc.RegisterFilter(xorID, "xor", xorFilter{}); err != nil {
		panic(err)
	}
	src := make([]byte, 8*10000)
	for i := 0; i < 10000; i++ {
		binary.LittleEndian.PutUint64(src[8*i:], uint64(i))
	}
	opts := blosc.Options{Format: blosc.FormatBlosc2, Codec: flateID, Level: 5, Typesize: 8}
	opts.Filters[4], opts.Filters[5] = blosc.ByteShuffle, xorID
	opts.FilterMeta[5] = 0x5a
	chunk, err := blosc.Compress(nil, src, opts)
	if err != nil {
		panic(err)
	}
	h, err := blosc.ReadHeader(chunk)
	if err != nil {
		panic(err)
	}
	out, err := blosc.Decompress(nil, chunk)
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Codec, h.Filters[4], h.Filters[5], bytes.Equal(out, src), len(chunk) < len(src)/10)
	// Output: flate shuffle xor true true
}
