package blosc

import (
	"fmt"

	"github.com/goblosc/blosc/internal/zdict"
	"github.com/klauspost/compress/zstd"
)

// Dictionary chunks (blosc2 flag bit 0): after the block offsets come an
// int32 dictionary size and the dictionary, shared by every stream. zstd
// streams are frames made with a trained (ZDICT) or raw-content
// dictionary; LZ4 and LZ4HC streams are raw blocks whose matches may reach
// back into the dictionary. Reading goes through codec.State.DecompressDict.

// minUsefulDict is BLOSC2_MINUSEFULDICT: a smaller dictionary budget and
// c-blosc2 compresses without one.
const minUsefulDict = 256

// trainDict2 builds the dictionary for a chunk from the samples c-blosc2's
// use_dict takes: at most 32 KiB and 5% of the input, from nsamples equal
// samples cut from the start of the filtered blocks (nsamples = the stream
// count, at least 8; each sample 1/16 of a stream's share). It returns nil
// where c-blosc2 falls back to compressing without a dictionary.
//
// C trains with ZDICT_trainFromBuffer; klauspost/compress/dict walks Go
// maps and so changes from run to run. zdict runs the same COVER
// selection deterministically and returns raw content, which C's
// ZSTD_createDDict and our decoder load as they load a trained one.
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
	// No d-mer recurring in enough samples leaves the dictionary empty.
	// C's trainer still returns one then, so the chunk keeps a dictionary
	// as in C: the samples themselves, whose cost the first blocks, which
	// they repeat, mostly win back.
	d := zdict.Train(nil, samples, maxDict)
	if len(d) < minDictContent {
		return filtered[:min(need, maxDict)], nil
	}
	return d, nil
}

// minDictContent is the shortest trained dictionary written: zstd would
// load a shorter one as content too, but below 8 bytes it is of no use.
const minDictContent = 8

// zstdDictEncoder compresses streams with one chunk's dictionary at zstd's
// fastest level, as c-blosc2 does (its CDict is made at level 1). Like C's
// level 1, it Huffman-codes the literals of a block without matches: the
// fastest Go encoder otherwise stores such a block raw, so a shuffled
// stream that matched nothing in the dictionary was not compressed at all.
type zstdDictEncoder struct {
	enc *zstd.Encoder
	buf []byte
}

func newZstdDictEncoder(d []byte) (*zstdDictEncoder, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, d), zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithAllLitEntropyCompression(true), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
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
