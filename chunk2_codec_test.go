package blosc

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// testCodec decodes codec streams for the Blosc2 tests with the libraries
// directly, independent of the package's own codec adapters. BloscLZ is
// not available to it; tests skip those vectors by name and say so.
type testCodec struct {
	zdec *zstd.Decoder
	dict dictCodec
}

var errNoBloscLZ = fmt.Errorf("%w: blosclz not available to the test codec", ErrUnsupported)

func (t *testCodec) decodeStream(c Codec, dict, dst, src []byte) error {
	if dict != nil {
		return t.dict.decodeStream(c, dict, dst, src)
	}
	switch c {
	case LZ4, LZ4HC:
		n, err := lz4.UncompressBlock(src, dst)
		if err != nil || n != len(dst) {
			return fmt.Errorf("%w: lz4 %d/%d %v", ErrCorrupt, n, len(dst), err)
		}
	case Zlib:
		r, err := zlib.NewReader(bytes.NewReader(src))
		if err != nil {
			return fmt.Errorf("%w: zlib %v", ErrCorrupt, err)
		}
		n, err := io.ReadFull(r, dst)
		if err != nil || n != len(dst) {
			return fmt.Errorf("%w: zlib %d/%d %v", ErrCorrupt, n, len(dst), err)
		}
	case Zstd:
		if t.zdec == nil {
			t.zdec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
		}
		out, err := t.zdec.DecodeAll(src, dst[:0:len(dst)])
		if err != nil || len(out) != len(dst) {
			return fmt.Errorf("%w: zstd %d/%d %v", ErrCorrupt, len(out), len(dst), err)
		}
	case BloscLZ:
		return errNoBloscLZ
	default:
		return fmt.Errorf("%w: codec %v", ErrUnsupported, c)
	}
	return nil
}
