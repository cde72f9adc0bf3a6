package blosc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/schunkhook"
)

// lazyOptions make chunks of shuffled blocks, of delta-coded blocks
// (whose reads read block 0 too) and memcpyed chunks (level 0).
var lazyOptions = []Options{
	{Codec: LZ4, Level: 5, Typesize: 4, Blocksize: 16 << 10, Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1},
	{Codec: LZ4, Level: 5, Typesize: 4, Blocksize: 16 << 10, Filters: [MaxFilters]Filter{4: Delta, 5: ByteShuffle}, Threads: 1},
	{Codec: BloscLZ, Level: 0, Typesize: 4, Threads: 1},
}

type countReaderAt struct {
	r        *bytes.Reader
	n, calls int64
}

func (c *countReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	c.calls++
	return n, err
}

// TestOpenChunkLazy opens each chunk of a frame read through an
// io.ReaderAt with OpenChunk and reads random ranges of it, which must
// match the chunk decompressed whole, one reader serving all chunks; a
// small read reads a small part of the chunk.
func TestOpenChunkLazy(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	data := make([]byte, 1<<20+4000)
	for i := range data {
		data[i] = byte(i/300) ^ byte(r.IntN(4))
	}
	for _, o := range lazyOptions {
		filters := o.Filters
		s, err := NewSChunk(SChunkOptions{Options: o, ChunkSize: 256 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AppendData(data); err != nil {
			t.Fatal(err)
		}
		z, _ := ZerosChunk(nil, 256<<10, 4)
		if err := s.InsertChunk(1, z); err != nil {
			t.Fatal(err)
		}
		fr, err := s.AppendFrame(nil)
		if err != nil {
			t.Fatal(err)
		}
		cr := &countReaderAt{r: bytes.NewReader(fr)}
		f, err := OpenFrame(cr, int64(len(fr)))
		if err != nil {
			t.Fatal(err)
		}
		var rd ChunkReader
		for i := range f.Nchunks() {
			want, err := s.DecompressChunk(nil, i)
			if err != nil {
				t.Fatal(err)
			}
			info, _ := f.ChunkInfo(i)
			before := cr.n
			if err := f.OpenChunk(&rd, i); err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
			p := make([]byte, 100)
			if _, err := rd.ReadAt(p, int64(len(want)/2)); err != nil || !bytes.Equal(p, want[len(want)/2:len(want)/2+100]) {
				t.Fatalf("chunk %d: a small read: %v", i, err)
			}
			if read := cr.n - before; info.Special == SpecialNone && i != f.Nchunks()-1 && read > int64(info.Cbytes)/4 {
				t.Errorf("chunk %d (filters %v): a 100-byte read read %d bytes of a %d-byte chunk", i, filters, read, info.Cbytes)
			}
			// The whole chunk reads its blocks in one call (they lie one
			// after the other).
			calls := cr.calls
			all := make([]byte, len(want))
			if _, err := rd.ReadAt(all, 0); err != nil || !bytes.Equal(all, want) {
				t.Fatalf("chunk %d: the whole chunk: %v", i, err)
			}
			if c := cr.calls - calls; c > 2 {
				t.Errorf("chunk %d: the whole chunk took %d reads", i, c)
			}
			if err := f.OpenChunk(&rd, i); err != nil {
				t.Fatal(err)
			}
			for range 30 {
				a, b := r.IntN(len(want)+1), r.IntN(len(want)+1)
				a, b = min(a, b), max(a, b)
				p := make([]byte, b-a)
				if _, err := rd.ReadAt(p, int64(a)); err != nil || !bytes.Equal(p, want[a:b]) {
					t.Fatalf("chunk %d: ReadAt [%d, %d): %v", i, a, b, err)
				}
			}
		}
	}
}

// TestLoadBlocks: schunkhook.LoadBlocks reads a lazy chunk's listed
// blocks, adjacent ones with one read (with block 0 under delta, blocks
// out of range ignored), after which reading them reads nothing more
// and gives the chunk's bytes; for a chunk in memory it reads nothing
// and says the reader is not lazy.
func TestLoadBlocks(t *testing.T) {
	data := make([]byte, 256<<10)
	r := rand.New(rand.NewPCG(8, 8))
	for i := range data {
		data[i] = byte(i/300) ^ byte(r.IntN(4))
	}
	for _, o := range lazyOptions {
		s, err := NewSChunk(SChunkOptions{Options: o, ChunkSize: 256 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AppendData(data); err != nil {
			t.Fatal(err)
		}
		fr, err := s.AppendFrame(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.DecompressChunk(nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		cr := &countReaderAt{r: bytes.NewReader(fr)}
		f, err := OpenFrame(cr, int64(len(fr)))
		if err != nil {
			t.Fatal(err)
		}
		var rd ChunkReader
		if err := f.OpenChunk(&rd, 0); err != nil {
			t.Fatal(err)
		}
		calls := cr.calls
		lazy, err := schunkhook.LoadBlocks(&rd, []int64{3, 4, 5, 9, -1, 1 << 40})
		if err != nil || !lazy {
			t.Fatalf("filters %v: LoadBlocks: %v, %v", o.Filters, lazy, err)
		}
		memcpyed := rd.c.h.memcpyed()
		wantCalls := int64(2) // blocks 3-5, block 9
		if o.Filters[4] == Delta {
			wantCalls = 3 // and block 0
		}
		if memcpyed {
			wantCalls = 0
		}
		if c := cr.calls - calls; c != wantCalls {
			t.Errorf("filters %v: LoadBlocks took %d reads, not %d", o.Filters, c, wantCalls)
		}
		bs := int(rd.c.h.blocksize)
		calls = cr.calls
		for _, j := range []int{3, 4, 5, 9} {
			p := make([]byte, bs)
			if _, err := rd.ReadAt(p, int64(j*bs)); err != nil || !bytes.Equal(p, want[j*bs:(j+1)*bs]) {
				t.Fatalf("filters %v: block %d: %v", o.Filters, j, err)
			}
		}
		if c := cr.calls - calls; c != 0 && !memcpyed {
			t.Errorf("filters %v: reading loaded blocks took %d reads", o.Filters, c)
		}
		if lazy, err := schunkhook.LoadBlocks(&ChunkReader{}, []int64{0}); lazy || err != nil {
			t.Errorf("a reader in memory: LoadBlocks says lazy %v, %v", lazy, err)
		}
	}
}

// FuzzOpenChunk: chunks of any frame opened through an io.ReaderAt read
// lazily or fail, never panicking, and agree with the chunk decompressed
// whole where that works.
func FuzzOpenChunk(f *testing.F) {
	// Small frames (one chunk of a few blocks) keep executions, and the
	// minimizing of new inputs, cheap; the lazy path takes chunks of more
	// than 8 KiB, which these noisy bytes make.
	r := rand.New(rand.NewPCG(9, 9))
	data := make([]byte, 12000)
	for i := range data {
		data[i] = byte(i/50) ^ byte(r.IntN(2))
	}
	for _, o := range lazyOptions {
		o.Blocksize = min(o.Blocksize, 2048)
		s, err := NewSChunk(SChunkOptions{Options: o, ChunkSize: 12000})
		if err != nil {
			f.Fatal(err)
		}
		if err := s.AppendData(data); err != nil {
			f.Fatal(err)
		}
		fr, _ := s.AppendFrame(nil)
		f.Add(fr, uint16(5000), uint16(300))
	}
	f.Fuzz(func(t *testing.T, fr []byte, off, n uint16) {
		s, err := OpenFrame(bytes.NewReader(fr), int64(len(fr)))
		if err != nil || s.ChunkSize() > 1<<16 {
			return
		}
		var r ChunkReader
		for i := range min(s.Nchunks(), 8) {
			if err := s.OpenChunk(&r, i); err != nil {
				continue
			}
			size := r.Nbytes()
			if size > 1<<16 {
				continue
			}
			o := int(off) % (size + 1)
			m := int(n) % (size - o + 1)
			p := make([]byte, m)
			if _, err := r.ReadAt(p, int64(o)); err != nil {
				continue
			}
			if want, err := s.DecompressChunk(nil, i); err == nil && len(want) == size && !bytes.Equal(p, want[o:o+m]) {
				t.Fatalf("chunk %d: ReadAt [%d, %d) differs from DecompressChunk", i, o, o+m)
			}
		}
	})
}
