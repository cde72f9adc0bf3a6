package b2nd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/cputime"
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

// BenchmarkGetSliceShapes reads the slices of BenchmarkB2NDVersusC (in
// bench/crosscheck) from 32 MiB arrays in memory at one thread: a band
// of 1% of the rows, one of 1% of the columns, and a box of 1% of the
// items, of a 2-D array of 512x512 chunks of 64x64 blocks and a 3-D one
// of 64^3 chunks of 16^3 blocks; the ...file ones read the same slices
// from the array's frame in a file.
func BenchmarkGetSliceShapes(b *testing.B) {
	for _, set := range []struct {
		name           string
		shape          []int64
		chunks, blocks []int32
		rows, cols     [2][]int64
		cube           [2][]int64
	}{
		{"2d", []int64{4096, 1024}, []int32{512, 512}, []int32{64, 64},
			[2][]int64{{2028, 0}, {2069, 1024}}, [2][]int64{{0, 507}, {4096, 517}}, [2][]int64{{1843, 461}, {2252, 563}}},
		{"3d", []int64{256, 128, 128}, []int32{64, 64, 64}, []int32{16, 16, 16},
			[2][]int64{{127, 0, 0}, {130, 128, 128}}, [2][]int64{{0, 0, 63}, {256, 128, 64}}, [2][]int64{{96, 52, 52}, {160, 77, 77}}},
	} {
		n := int(set.shape[0] * set.shape[1] * 8)
		if len(set.shape) == 3 {
			n *= int(set.shape[2])
		}
		in := golden.MustPattern(b, "linspace_f64", n)
		o := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Threads: 1}
		o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
		a, err := FromBuffer(Params{Shape: set.shape, ChunkShape: set.chunks, BlockShape: set.blocks, DType: "<f8", Options: o}, in)
		if err != nil {
			b.Fatal(err)
		}
		a.SetThreads(1)
		// The same array in a frame file, read lazily block by block.
		path := filepath.Join(b.TempDir(), set.name+".b2nd")
		var frame bytes.Buffer
		if _, err := a.WriteTo(&frame); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, frame.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		fa, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer fa.Close()
		fa.SetThreads(1)
		wide := [2][]int64{make([]int64, len(set.shape)), slices.Clone(set.shape)}
		wide[0][0], wide[1][0] = set.shape[0]/2-set.shape[0]/28, set.shape[0]/2+set.shape[0]/28
		for _, box := range []struct {
			name string
			se   [2][]int64
		}{{"rows", set.rows}, {"rowswide", wide}, {"cols", set.cols}, {"cube", set.cube}, {"rowsfile", set.rows}, {"colsfile", set.cols}, {"cubefile", set.cube}} {
			a := a
			if strings.HasSuffix(box.name, "file") {
				a = fa
			}
			b.Run(set.name+"/"+box.name, func(b *testing.B) {
				dst, err := a.GetSlice(nil, box.se[0], box.se[1])
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(dst)))
				b.ReportAllocs()
				done := cputime.Throughput(b, len(dst))
				for b.Loop() {
					if _, err := a.GetSlice(dst, box.se[0], box.se[1]); err != nil {
						b.Fatal(err)
					}
				}
				done()
			})
		}
	}
}

// BenchmarkFromBuffer makes 16 MiB 2-D and 3-D float64 arrays (LZ4,
// shuffle) at one and two threads, the shapes of BenchmarkGetSliceShapes.
func BenchmarkFromBuffer(b *testing.B) {
	for _, set := range []struct {
		name           string
		shape          []int64
		chunks, blocks []int32
	}{
		{"2d", []int64{2048, 1024}, []int32{512, 512}, []int32{64, 64}},
		{"3d", []int64{128, 128, 128}, []int32{64, 64, 64}, []int32{16, 16, 16}},
	} {
		in := golden.MustPattern(b, "linspace_f64", 16<<20)
		for _, th := range []int{1, 2} {
			o := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Threads: th}
			o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
			p := Params{Shape: set.shape, ChunkShape: set.chunks, BlockShape: set.blocks, DType: "<f8", Options: o}
			b.Run(fmt.Sprintf("%s/threads=%d", set.name, th), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					if _, err := FromBuffer(p, in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
