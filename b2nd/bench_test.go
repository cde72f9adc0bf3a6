package b2nd

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// benchArray returns the frame of a 32 MiB 2-D float64 array of 512x512
// chunks of 64x64 blocks (LZ4, shuffle), and the box of 1% of its items
// in its middle.
func benchArray(b *testing.B) (frame []byte, start, stop []int64) {
	b.Helper()
	shape := []int64{4096, 1024}
	in := golden.MustPattern(b, "linspace_f64", 4096*1024*8)
	o := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Threads: 1}
	o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
	a, err := FromBuffer(Params{Shape: shape, ChunkShape: []int32{512, 512}, BlockShape: []int32{64, 64}, DType: "<f8", Options: o}, in)
	if err != nil {
		b.Fatal(err)
	}
	fr, err := a.AppendFrame(nil)
	if err != nil {
		b.Fatal(err)
	}
	return fr, []int64{1843, 461}, []int64{2252, 563}
}

func BenchmarkGetSlice1Percent(b *testing.B) {
	fr, start, stop := benchArray(b)
	a, err := OpenBytes(fr)
	if err != nil {
		b.Fatal(err)
	}
	dst, _ := a.GetSlice(nil, start, stop)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.GetSlice(dst, start, stop); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	fr, _, _ := benchArray(b)
	a, err := OpenBytes(fr)
	if err != nil {
		b.Fatal(err)
	}
	dst, _ := a.Read(nil)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Read(dst); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetSlice1PercentReaderAt reads the 1% box through an
// io.ReaderAt (as from a file), reporting the bytes each slice reads.
func BenchmarkGetSlice1PercentReaderAt(b *testing.B) {
	fr, start, stop := benchArray(b)
	cr := &countingReader{r: bytes.NewReader(fr)}
	a, err := OpenReaderAt(cr, int64(len(fr)))
	if err != nil {
		b.Fatal(err)
	}
	a.SetThreads(1)
	dst, _ := a.GetSlice(nil, start, stop)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	before := cr.n.Load()
	for b.Loop() {
		if _, err := a.GetSlice(dst, start, stop); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cr.n.Load()-before)/float64(b.N), "read-B/op")
	b.ReportMetric(float64(len(fr)), "frame-B")
}
