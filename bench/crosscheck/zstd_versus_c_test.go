//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdtest"
)

// BenchmarkZstdDecodeVersusC decodes, single-threaded, the zstd chunks
// Go and c-blosc2 write for every dataset of `blosc bench` (byte shuffle,
// the bench typesizes; rand_s1 and zeros come out as memcpyed and
// special chunks on both sides; noisy_f32 is zstdtest.NoisyFloats, an
// hourly temperature-like series) at clevel 1, 5 and 9, 1 MiB and 64 MiB chunks, each
// side its own chunk, alternating in one loop, and reports each side's
// best GB/s and go/c; go-on-c/c compares the decoders alone, Go decoding
// the chunk C wrote. Run with -benchtime=10x or so; the 64 MiB chunks
// at clevel 9 take C a while to write.
func BenchmarkZstdDecodeVersusC(b *testing.B) {
	sets := []struct {
		name string
		ts   int
	}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"rand_s1", 8}, {"text", 1}, {"runs", 4}, {"rec12", 4}, {"arange_i16", 2}, {"zeros", 8}, {"noisy_f32", 4}}
	for _, n := range []int{1 << 20, 64 << 20} {
		for _, s := range sets {
			for _, level := range []int{1, 5, 9} {
				b.Run(fmt.Sprintf("n=%dMiB/%s/clevel=%d", n>>20, s.name, level), func(b *testing.B) {
					var in []byte
					if s.name == "noisy_f32" {
						in = zstdtest.NoisyFloats(n)
					} else {
						in = golden.MustPattern(b, s.name, n)
					}
					o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: level, Typesize: s.ts,
						Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
					goChunk, err := blosc.Compress(nil, in, o)
					if err != nil {
						b.Fatal(err)
					}
					cChunk := compressC(b, in, o)
					goD := newDecompressor(1)
					cD, err := cblosc2.NewDecompressor(1)
					if err != nil {
						b.Fatal(err)
					}
					defer cD.Free()
					out := make([]byte, n)
					goDec := func() {
						if _, err := goD.Decompress(out, goChunk); err != nil {
							b.Fatal(err)
						}
					}
					cDec := func() {
						if _, err := cD.Decompress(out, cChunk); err != nil {
							b.Fatal(err)
						}
					}
					goOnC := func() {
						if _, err := goD.Decompress(out, cChunk); err != nil {
							b.Fatal(err)
						}
					}
					goOnC()
					if !bytes.Equal(out, in) {
						b.Fatal("Go decoding C's chunk lost data")
					}
					goDec()
					if !bytes.Equal(out, in) {
						b.Fatal("Go round trip lost data")
					}
					cDec()
					bestGo, bestC, bestGoOnC := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
					reps := max(1, (16<<20)/n)
					for b.Loop() {
						for range reps {
							t0 := time.Now()
							goDec()
							t1 := time.Now()
							cDec()
							t2 := time.Now()
							goOnC()
							t3 := time.Now()
							bestGo, bestC, bestGoOnC = min(bestGo, t1.Sub(t0)), min(bestC, t2.Sub(t1)), min(bestGoOnC, t3.Sub(t2))
						}
					}
					gb := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
					b.ReportMetric(gb(bestGo), "go-GB/s")
					b.ReportMetric(gb(bestC), "c-GB/s")
					b.ReportMetric(float64(bestC)/float64(bestGo), "go/c")
					// The decoders alone: Go decoding the chunk C wrote.
					b.ReportMetric(float64(bestC)/float64(bestGoOnC), "go-on-c/c")
					b.ReportMetric(float64(n)/float64(len(goChunk)), "go-ratio")
					b.ReportMetric(float64(n)/float64(len(cChunk)), "c-ratio")
				})
			}
		}
	}
}
