//go:build cblosc2 && cgo

package crosscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkB2NDVersusC alternates Go and c-blosc2 on 2-D and 3-D float64
// arrays (256 MiB unless GOBLOSC_FRAME_BENCH_MB says otherwise), at 1
// and 2 threads each: making the array from C-order data (b2nd_from_cbuffer),
// reading it whole (b2nd_to_cbuffer) and reading a box of 1% of its items
// from its middle (b2nd_get_slice_cbuffer), both reading c-blosc2's
// frame, in memory and (the slice) from a file. It reports each side's best GB/s (of the array, or of the
// slice) and the c/go time ratios (above 1: Go is faster).
func BenchmarkB2NDVersusC(b *testing.B) {
	n := frametest.BenchBytes(b)
	items := int64(n / 8)
	sets := []struct {
		name           string
		shape          []int64
		chunks, blocks []int32
	}{
		{"2d", []int64{items / 1024, 1024}, []int32{512, 512}, []int32{64, 64}},
		{"3d", []int64{items / (128 * 128), 128, 128}, []int32{64, 64, 64}, []int32{16, 16, 16}},
	}
	for _, set := range sets {
		for _, th := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%dMiB/%s/linspace_f64/lz4/threads=%d", n>>20, set.name, th), func(b *testing.B) {
				nitems := int64(1)
				for _, s := range set.shape {
					nitems *= s
				}
				in := golden.MustPattern(b, "linspace_f64", int(nitems*8))
				o := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: th}
				p := b2nd.Params{Shape: set.shape, ChunkShape: set.chunks, BlockShape: set.blocks, DType: "<f8", Options: o}
				cp := cParams(o)
				// The 1% box: each side a fraction 0.01^(1/ndim) of the
				// array's, in its middle.
				start, stop := make([]int64, len(set.shape)), make([]int64, len(set.shape))
				sliceItems := int64(1)
				for i, s := range set.shape {
					side := s / map[int]int64{2: 10, 3: 5}[len(set.shape)]
					if len(set.shape) == 3 && i == 0 {
						side = s / 4
					}
					start[i] = (s - side) / 2
					stop[i] = start[i] + side
					sliceItems *= side
				}
				out := make([]byte, len(in))
				sl := make([]byte, sliceItems*8)
				var tGm, tCm, tGr, tCr, tGs, tCs, tGf, tCf frametest.Best
				var cframe []byte
				var gf *b2nd.Array
				var cf *cblosc2.Array
				defer func() {
					if gf != nil {
						gf.Close()
						cf.Free()
					}
				}()
				round := func() {
					if err := tGm.Time(func() error { _, err := b2nd.FromBuffer(p, in); return err }); err != nil {
						b.Fatal(err)
					}
					var ca *cblosc2.Array
					if err := tCm.Time(func() error {
						var err error
						ca, err = cblosc2.ArrayFromCBuffer(cp, set.shape, set.chunks, set.blocks, "<f8", in)
						return err
					}); err != nil {
						b.Fatal(err)
					}
					if cframe == nil {
						cframe, _ = ca.Frame()
						// The same frame as a file, both sides reading it
						// lazily (from the page cache).
						path := filepath.Join(b.TempDir(), "a.b2nd")
						if err := os.WriteFile(path, cframe, 0o644); err != nil {
							b.Fatal(err)
						}
						var err error
						if gf, err = b2nd.Open(path); err != nil {
							b.Fatal(err)
						}
						gf.SetThreads(th)
						if cf, err = cblosc2.OpenArray(path); err != nil {
							b.Fatal(err)
						}
					}
					ga, err := b2nd.OpenBytes(cframe)
					if err != nil {
						b.Fatal(err)
					}
					ga.SetThreads(th)
					if err := tGr.Time(func() error { _, err := ga.Read(out); return err }); err != nil {
						b.Fatal(err)
					}
					if err := tCr.Time(func() error { _, err := ca.ToCBuffer(out); return err }); err != nil {
						b.Fatal(err)
					}
					if err := tGs.Time(func() error { _, err := ga.GetSlice(sl, start, stop); return err }); err != nil {
						b.Fatal(err)
					}
					if err := tCs.Time(func() error { _, err := ca.GetSlice(sl, start, stop); return err }); err != nil {
						b.Fatal(err)
					}
					if err := tGf.Time(func() error { _, err := gf.GetSlice(sl, start, stop); return err }); err != nil {
						b.Fatal(err)
					}
					if err := tCf.Time(func() error { _, err := cf.GetSlice(sl, start, stop); return err }); err != nil {
						b.Fatal(err)
					}
					ca.Free()
				}
				round()
				for b.Loop() {
					round()
				}
				frametest.ReportSpeeds(b, len(in), map[string]frametest.Best{"go-make": tGm, "c-make": tCm, "go-read": tGr, "c-read": tCr})
				frametest.ReportSpeeds(b, len(sl), map[string]frametest.Best{"go-slice": tGs, "c-slice": tCs, "go-fileslice": tGf, "c-fileslice": tCf})
				frametest.ReportRatios(b, map[string][2]frametest.Best{"make-c/go": {tCm, tGm}, "read-c/go": {tCr, tGr}, "slice-c/go": {tCs, tGs}, "fileslice-c/go": {tCf, tGf}})
			})
		}
	}
}
