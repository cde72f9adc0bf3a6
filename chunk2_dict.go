package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Dictionary chunks (blosc2 flag bit 0): after the block offsets come an
// int32 dictionary size and the dictionary, shared by every stream. zstd
// streams are frames made with a trained (ZDICT) dictionary; LZ4 and LZ4HC
// streams are raw blocks whose matches may reach back into the dictionary.

// zstdDictMagic starts a dictionary in zstd's own format (ZDICT output);
// anything else is raw content.
const zstdDictMagic = 0xEC30A437

// dictCodec decodes streams that use a chunk dictionary. It keeps one zstd
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

func (d *dictCodec) close() {
	if d.zdec != nil {
		d.zdec.Close()
		d.zdec = nil
	}
}

// withDict routes streams to the dictionary decoder when the chunk has a
// dictionary and to the plain codec otherwise.
type withDict struct {
	plain codecDecoder
	dict  *dictCodec
}

func (w withDict) decodeStream(c Codec, dict, dst, src []byte) error {
	if dict != nil {
		return w.dict.decodeStream(c, dict, dst, src)
	}
	return w.plain.decodeStream(c, nil, dst, src)
}
