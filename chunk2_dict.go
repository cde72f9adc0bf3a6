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

// minUsefulDict is BLOSC2_MINUSEFULDICT: a smaller dictionary budget and
// c-blosc2 compresses without one.
const minUsefulDict = 256

// trainDict2 builds the dictionary for a chunk from the samples c-blosc2's
// use_dict takes: at most 32 KiB and 5% of the input, from nsamples equal
// samples cut from the start of the filtered blocks (nsamples = the stream
// count, at least 8; each sample 1/16 of a stream's share). It returns nil
// where c-blosc2 falls back to compressing without a dictionary.
func trainDict2(src []byte, p *params, l *layout2, pipe *pipeline2, ref []byte, ws *workerState) ([]byte, error) {
	maxDict := min(maxDictSize2, l.nbytes/20)
	nsamples := l.nblocks
	if l.split {
		nsamples *= p.typesize
	}
	nsamples = max(nsamples, 8)
	sampleSize := l.nbytes / nsamples / 16
	if maxDict < minUsefulDict || sampleSize == 0 {
		return nil, nil
	}
	need := nsamples * sampleSize
	filtered := make([]byte, 0, need+l.blocksize)
	for j := 0; len(filtered) < need && j < l.nblocks; j++ {
		in := src[j*l.blocksize : j*l.blocksize+l.blockLen(j)]
		var r []byte
		if j > 0 && ref != nil {
			r = ref[:len(in)]
		}
		a, b := ws.b2.scratch(len(in))
		f, err := pipe.forward(in, a, b, r)
		if err != nil {
			return nil, err
		}
		filtered = append(filtered, f...)
	}
	samples := make([][]byte, nsamples)
	for i := range samples {
		samples[i] = filtered[i*sampleSize : (i+1)*sampleSize]
	}
	// zstd's trainer (klauspost/compress/dict) walks Go maps and so gives a
	// different dictionary from run to run; the samples themselves, as raw
	// content, give the same chunk every time, and c-blosc2 loads a raw
	// dictionary (no magic number) just as well.
	return filtered[:min(need, maxDict)], nil
}

// zstdDictEncoder compresses streams with one chunk's dictionary at zstd's
// fastest level, as c-blosc2 does (its CDict is made at level 1).
type zstdDictEncoder struct {
	enc *zstd.Encoder
	buf []byte
}

func newZstdDictEncoder(d []byte) (*zstdDictEncoder, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, d), zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		return nil, fmt.Errorf("blosc: zstd dictionary encoder: %w", err)
	}
	return &zstdDictEncoder{enc: enc}, nil
}

// compress writes src's frame into dst and returns its length, or 0 when
// it does not fit.
func (z *zstdDictEncoder) compress(dst, src []byte) int {
	z.buf = z.enc.EncodeAll(src, z.buf[:0])
	if len(z.buf) > len(dst) {
		return 0
	}
	return copy(dst, z.buf)
}

func (z *zstdDictEncoder) close() { z.enc.Close() }
