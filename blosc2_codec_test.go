package blosc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
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

// zstdDictMagic starts a dictionary in zstd's own format (ZDICT output);
// anything else is raw content.
const zstdDictMagic = 0xEC30A437

// dictCodec decodes dictionary streams for the tests, independently of
// codec.State.DecompressDict. It keeps one zstd
// decoder for the last dictionary seen, so the blocks of a chunk share it.
type dictCodec struct {
	zdec  *zstd.Decoder
	zdict []byte // the dictionary zdec was built with
}

func (d *dictCodec) decodeStream(c Codec, dict, dst, src []byte) error {
	switch c {
	case Zstd:
		if d.zdec == nil || !bytes.Equal(d.zdict, dict) {
			if d.zdec != nil {
				d.zdec.Close()
			}
			opt := zstd.WithDecoderDictRaw(0, dict)
			if len(dict) >= 8 && binary.LittleEndian.Uint32(dict) == zstdDictMagic {
				opt = zstd.WithDecoderDicts(dict)
			}
			z, err := zstd.NewReader(nil, opt, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
			if err != nil {
				d.zdec = nil
				return fmt.Errorf("%w: zstd dictionary: %v", ErrCorrupt, err)
			}
			d.zdec, d.zdict = z, append(d.zdict[:0], dict...)
		}
		out, err := d.zdec.DecodeAll(src, dst[:0:len(dst)])
		if err != nil {
			return fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
		}
		if len(out) != len(dst) {
			return fmt.Errorf("%w: zstd stream gave %d bytes, want %d", ErrCorrupt, len(out), len(dst))
		}
		return nil
	case LZ4, LZ4HC:
		n, err := lz4.UncompressBlockWithDict(src, dst, dict)
		if err != nil {
			return fmt.Errorf("%w: lz4: %v", ErrCorrupt, err)
		}
		if n != len(dst) {
			return fmt.Errorf("%w: lz4 stream gave %d bytes, want %d", ErrCorrupt, n, len(dst))
		}
		return nil
	}
	return fmt.Errorf("%w: dictionary with codec %v", ErrUnsupported, c)
}
