package blosc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// readerChunks are chunks of several kinds: codecs, shuffles, delta (whose
// blocks read block 0), a memcpyed chunk, special chunks, a short last
// block.
func readerChunks(t testing.TB, n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i/97) ^ byte(r.IntN(3))
	}
	var out [][]byte
	for _, o := range []Options{
		{Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 8192, Filters: [MaxFilters]Filter{5: ByteShuffle}},
		{Codec: Zstd, Level: 3, Typesize: 4, Blocksize: 4096, Filters: [MaxFilters]Filter{4: Delta, 5: BitShuffle}},
		{Codec: BloscLZ, Level: 0, Typesize: 1},
	} {
		o.Format = FormatBlosc2
		c, err := Compress(nil, data, o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	z, _ := ZerosChunk(nil, 4096, 4)
	v, _ := ValueChunk(nil, 4096, []byte{1, 2, 3, 4})
	return append(out, z, v)
}

// TestChunkReader reads random ranges of each chunk and compares them
// with the decompressed chunk.
func TestChunkReader(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i, c := range readerChunks(t, 100_003) {
		want, err := Decompress(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		cr, err := NewChunkReader(c)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if cr.Nbytes() != len(want) {
			t.Fatalf("chunk %d: Nbytes %d, want %d", i, cr.Nbytes(), len(want))
		}
		for range 200 {
			a, b := r.IntN(len(want)+1), r.IntN(len(want)+1)
			a, b = min(a, b), max(a, b)
			p := make([]byte, b-a)
			if _, err := cr.ReadAt(p, int64(a)); err != nil || !bytes.Equal(p, want[a:b]) {
				t.Fatalf("chunk %d: ReadAt [%d, %d): %v", i, a, b, err)
			}
		}
		if _, err := cr.ReadAt(make([]byte, 2), int64(len(want)-1)); !errors.Is(err, ErrRange) {
			t.Errorf("chunk %d: a read past the end: %v", i, err)
		}
		// The same reader, reset to the chunk, reads it again.
		if err := cr.Reset(c); err != nil {
			t.Fatal(err)
		}
		if p := make([]byte, 10); len(want) >= 10 {
			if _, err := cr.ReadAt(p, int64(len(want)-10)); err != nil || !bytes.Equal(p, want[len(want)-10:]) {
				t.Fatalf("chunk %d: after Reset: %v", i, err)
			}
		}
	}
}

// FuzzChunkReader: any bytes open or fail, and every read of what opens
// fails or agrees with Decompress, never panicking.
func FuzzChunkReader(f *testing.F) {
	// Small chunks keep every execution cheap.
	for _, c := range readerChunks(f, 6_001) {
		f.Add(c, uint32(100), uint32(5000))
	}
	f.Fuzz(func(t *testing.T, src []byte, off, n uint32) {
		cr, err := NewChunkReader(src)
		if err != nil {
			return
		}
		size := cr.Nbytes()
		if size > 1<<16 {
			return
		}
		o := int(off) % (size + 1)
		m := int(n) % (size - o + 1)
		p := make([]byte, m)
		if _, err := cr.ReadAt(p, int64(o)); err != nil {
			return
		}
		if want, err := Decompress(nil, src); err == nil && !bytes.Equal(p, want[o:o+m]) {
			t.Fatalf("ReadAt [%d, %d) differs from Decompress", o, o+m)
		}
	})
}

// TestChunkReaderBlockParts reads small ranges inside blocks of chunks
// whose only filter to undo is a byte shuffle (split into streams or not,
// blocks whose size is no multiple of the typesize, a short last block),
// which decode only the range's items, and checks them against the
// decompressed chunk; it checks too that those ranges took that path.
func TestChunkReaderBlockParts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 50_011)
	for i := range data {
		data[i] = byte(i / 97)
		if r.IntN(16) == 0 {
			data[i] ^= byte(r.Uint32())
		}
	}
	for _, o := range []Options{
		{Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 8192, Filters: [MaxFilters]Filter{5: ByteShuffle}},
		{Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 8192, Filters: [MaxFilters]Filter{5: ByteShuffle}, SplitMode: SplitNever},
		{Codec: Zstd, Level: 1, Typesize: 3, Blocksize: 3000, Filters: [MaxFilters]Filter{5: ByteShuffle}, SplitMode: SplitAlways},
		{Codec: BloscLZ, Level: 5, Typesize: 7, Blocksize: 4100, Filters: [MaxFilters]Filter{5: ByteShuffle}},
		{Codec: LZ4, Level: 5, Typesize: 4, Blocksize: 4100, Filters: [MaxFilters]Filter{3: TruncPrec, 5: ByteShuffle}, FilterMeta: [MaxFilters]uint8{3: 20}},
		{Codec: LZ4, Level: 5, Typesize: 4, Blocksize: 4096, Filters: [MaxFilters]Filter{4: ByteShuffle}, FilterMeta: [MaxFilters]uint8{4: 2}},
	} {
		o.Format = FormatBlosc2
		c, err := Compress(nil, data, o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Decompress(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		cr, err := NewChunkReader(c)
		if err != nil {
			t.Fatal(err)
		}
		if cr.c.nblocks == 0 {
			t.Fatalf("%+v: a chunk without blocks (memcpyed: %v)", o, cr.c.h.memcpyed())
		}
		bs := cr.c.h.blocksize
		var st decodeState
		var ws workerState
		parts := 0
		for range 400 {
			j := r.IntN(cr.c.nblocks)
			bsize := cr.c.blockSize(j)
			n := r.IntN(bsize/4 + 1)
			off := r.IntN(bsize - n + 1)
			a := j*bs + off
			p := make([]byte, n)
			if _, err := cr.ReadAt(p, int64(a)); err != nil || !bytes.Equal(p, want[a:a+n]) {
				t.Fatalf("%+v: ReadAt [%d, %d) in block %d: %v", o, a, a+n, j, err)
			}
			clear(p)
			done, err := cr.c.decodeBlockPart(p, j, off, &st, &ws)
			if err != nil {
				t.Fatal(err)
			}
			if done {
				parts++
				if !bytes.Equal(p, want[a:a+n]) {
					t.Fatalf("%+v: decodeBlockPart [%d, %d) of block %d differs at %d", o, off, off+n, j, golden.FirstDiff(p, want[a:a+n]))
				}
			}
		}
		if parts < 300 {
			t.Errorf("%+v: %d of 400 ranges decoded in part", o, parts)
		}
	}
}
