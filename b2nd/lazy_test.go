package b2nd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r     *bytes.Reader
	n     atomic.Int64
	calls atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	c.calls.Add(1)
	return n, err
}

// TestSliceReadsItsBlocks: a slice of 1% of a frame read through an
// io.ReaderAt reads the blocks it touches (and the headers and block
// starts of their chunks), not the frame nor whole chunks.
func TestSliceReadsItsBlocks(t *testing.T) {
	const side = 1024
	r := rand.New(rand.NewPCG(1, 1))
	data := make([]byte, side*side*8)
	for i := range side * side {
		binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(float64(i%side)+r.Float64()))
	}
	o := testOptions()
	a, err := FromBuffer(Params{Shape: []int64{side, side}, ChunkShape: []int32{256, 256}, BlockShape: []int32{32, 32}, DType: "<f8", Options: o}, data)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := a.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(fr)}
	b, err := OpenReaderAt(cr, int64(len(fr)))
	if err != nil {
		t.Fatal(err)
	}
	opened := cr.n.Load()
	start, stop := []int64{461, 461}, []int64{563, 563} // 102x102: 1% of the items
	got, err := b.GetSlice(nil, start, stop)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, refSlice(data, []int64{side, side}, start, stop, 8)) {
		t.Fatal("slice differs")
	}
	read := cr.n.Load() - opened
	// The 4 chunks the slice touches, whole.
	var touched int64
	for _, i := range []int{5, 6, 9, 10} {
		info, err := b.SChunk().ChunkInfo(i)
		if err != nil {
			t.Fatal(err)
		}
		touched += int64(info.Cbytes)
	}
	t.Logf("frame %d bytes; opening read %d; the 1%% slice read %d bytes in %d calls (%.2f%% of the frame, %.0f%% of its 4 chunks' %d bytes)",
		len(fr), opened, read, cr.calls.Load(), 100*float64(read)/float64(len(fr)), 100*float64(read)/float64(touched), touched)
	if read > touched/5 {
		t.Errorf("the slice read %d bytes; its 16 blocks lie in 4 chunks of %d bytes", read, touched)
	}
}

// TestParallelRead: a slice of many chunks read by several workers (in
// memory and through an io.ReaderAt) is the one a single worker reads.
func TestParallelRead(t *testing.T) {
	const rows, cols = 700, 500
	r := rand.New(rand.NewPCG(5, 5))
	data := make([]byte, rows*cols*4)
	for i := range data {
		data[i] = byte(i/4%251) ^ byte(r.IntN(2))
	}
	o := testOptions()
	o.Threads = 4
	a, err := FromBuffer(Params{Shape: []int64{rows, cols}, ChunkShape: []int32{64, 96}, BlockShape: []int32{16, 32}, DType: "<u4", Options: o}, data)
	if err != nil {
		t.Fatal(err)
	}
	fr, _ := a.AppendFrame(nil)
	b, err := OpenReaderAt(bytes.NewReader(fr), int64(len(fr)))
	if err != nil {
		t.Fatal(err)
	}
	start, stop := []int64{3, 5}, []int64{697, 499}
	want := refSlice(data, []int64{rows, cols}, start, stop, 4)
	for _, x := range []*Array{a, b} {
		for _, th := range []int{1, 3, 8} {
			x.SetThreads(th)
			got, err := x.GetSlice(nil, start, stop)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("threads %d: GetSlice differs (%v)", th, err)
			}
		}
	}
}

// TestGetSliceAllocs: once warm, a slice of an array in memory into a
// buffer of its size allocates nothing (one worker; a parallel read
// starts goroutines).
func TestGetSliceAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	data := make([]byte, 60*70*8)
	for i := range data {
		data[i] = byte(i / 13)
	}
	o := testOptions()
	a, err := FromBuffer(Params{Shape: []int64{60, 70}, ChunkShape: []int32{16, 32}, BlockShape: []int32{4, 8}, DType: "<f8", Options: o}, data)
	if err != nil {
		t.Fatal(err)
	}
	a.SetThreads(1)
	start, stop := []int64{5, 9}, []int64{50, 61}
	dst, err := a.GetSlice(nil, start, stop)
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := a.GetSlice(dst, start, stop); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("GetSlice allocates %.1f times a call", n)
	}
}

// TestConcurrentGetSlice: goroutines slicing one array at once (in memory
// and through an io.ReaderAt) each get their slice.
func TestConcurrentGetSlice(t *testing.T) {
	const rows, cols = 200, 150
	data := make([]byte, rows*cols*2)
	for i := range data {
		data[i] = byte(i / 7)
	}
	a, err := FromBuffer(Params{Shape: []int64{rows, cols}, ChunkShape: []int32{40, 32}, BlockShape: []int32{8, 16}, DType: "<u2", Options: testOptions()}, data)
	if err != nil {
		t.Fatal(err)
	}
	fr, _ := a.AppendFrame(nil)
	b, err := OpenReaderAt(bytes.NewReader(fr), int64(len(fr)))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Array{a, b} {
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 1))
				for range 20 {
					s0, s1 := r.Int64N(rows), r.Int64N(cols)
					start, stop := []int64{s0, s1}, []int64{s0 + r.Int64N(rows-s0+1), s1 + r.Int64N(cols-s1+1)}
					got, err := x.GetSlice(nil, start, stop)
					if err != nil || !bytes.Equal(got, refSlice(data, []int64{rows, cols}, start, stop, 2)) {
						errs <- fmt.Errorf("slice [%v, %v): %v", start, stop, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// TestSliceReadBytes counts, for bands of rows and of columns and a box,
// of 2-D and 3-D arrays read through an io.ReaderAt, the bytes GetSlice
// reads: exactly what c-blosc2's lazy chunks read for the chunks it
// touches: each chunk's first 4 KiB (or its header and block starts when
// longer), then the compressed bytes of the blocks the slice touches not
// read yet; nothing else.
func TestSliceReadBytes(t *testing.T) {
	const probe = 4 << 10 // what the frame layer reads of a chunk first
	r := rand.New(rand.NewPCG(3, 3))
	for _, set := range []struct {
		shape          []int64
		chunks, blocks []int32
		boxes          [][2][]int64
	}{
		{[]int64{1024, 1024}, []int32{256, 256}, []int32{32, 32},
			[][2][]int64{{{502, 0}, {512, 1024}}, {{0, 500}, {1024, 510}}, {{461, 461}, {563, 563}}}},
		{[]int64{128, 128, 128}, []int32{64, 64, 64}, []int32{16, 16, 16},
			[][2][]int64{{{63, 0, 0}, {64, 128, 128}}, {{0, 0, 63}, {128, 128, 64}}, {{40, 40, 40}, {88, 88, 88}}}},
	} {
		n := int64(8)
		for _, s := range set.shape {
			n *= s
		}
		data := make([]byte, n)
		for i := 0; i < len(data); i += 8 {
			// Noisy floats: blocks of several KiB compressed.
			binary.LittleEndian.PutUint64(data[i:], math.Float64bits(float64(i%4096)+r.Float64()))
		}
		a, err := FromBuffer(Params{Shape: set.shape, ChunkShape: set.chunks, BlockShape: set.blocks, DType: "<f8", Options: testOptions()}, data)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := a.AppendFrame(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, box := range set.boxes {
			start, stop := box[0], box[1]
			cr := &countingReader{r: bytes.NewReader(fr)}
			b, err := OpenReaderAt(cr, int64(len(fr)))
			if err != nil {
				t.Fatal(err)
			}
			b.SetThreads(1)
			opened := cr.n.Load()
			got, err := b.GetSlice(nil, start, stop)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, refSlice(data, set.shape, start, stop, 8)) {
				t.Fatalf("%v-%v: slice differs", start, stop)
			}
			read := cr.n.Load() - opened
			// What the lazy chunks must read, from the chunks themselves.
			var want, blockBytes, chunkBytes int64
			w := newSliceWalk(b.g, start, stop)
			for more := w.firstChunk(); more; more = w.nextChunk() {
				c, err := a.SChunk().Chunk(nil, int(w.nchunk()))
				if err != nil {
					t.Fatal(err)
				}
				chunkBytes += int64(len(c))
				nbytes, bsize := binary.LittleEndian.Uint32(c[4:]), binary.LittleEndian.Uint32(c[8:])
				nblocks := int((nbytes + bsize - 1) / bsize)
				starts := make([]int64, nblocks)
				for j := range starts {
					starts[j] = int64(binary.LittleEndian.Uint32(c[32+4*j:]))
				}
				have := min(int64(len(c)), max(probe, 32+4*int64(nblocks)))
				want += have
				w.blocks(func(nb int64) error {
					end := int64(len(c))
					for _, s := range starts {
						if s > starts[nb] && s < end {
							end = s
						}
					}
					blockBytes += end - starts[nb]
					want += max(0, end-max(starts[nb], have))
					return nil
				})
			}
			t.Logf("shape %v, slice [%v, %v): read %d bytes in %d calls; the lazy chunks' share %d (its blocks %d bytes, its chunks %d)",
				set.shape, start, stop, read, cr.calls.Load(), want, blockBytes, chunkBytes)
			// The frame's offsets were read when it was opened.
			if read != want {
				t.Errorf("shape %v, slice [%v, %v): read %d bytes, want %d", set.shape, start, stop, read, want)
			}
		}
	}
}
