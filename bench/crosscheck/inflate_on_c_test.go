//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkInflateOnC times the zlib decoders on the chunks c-blosc2
// writes (1 MiB, byte shuffle, one thread, zlib at clevel 1, 3, 5 and 9):
// internal/inflate, klauspost's zlib reader (both through the codec, as
// chunks decode) and C, alternately on C's chunk in one loop. ours/c and
// klauspost/c are C's best time over the Go decoder's (above 1, Go is
// faster). Run with -benchtime=20x or so.
func BenchmarkInflateOnC(b *testing.B) {
	sets := []struct {
		name string
		ts   int
	}{{"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"mixed_rec13", 13},
		{"f32_noise", 4}, {"linspace_f64", 8}, {"rand_s1", 8}}
	const n = 1 << 20
	defer codec.SetOwnInflate(true)
	for _, s := range sets {
		for _, level := range []int{1, 3, 5, 9} {
			b.Run(fmt.Sprintf("%s/clevel=%d", s.name, level), func(b *testing.B) {
				in := golden.MustPattern(b, s.name, n)
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zlib, Level: level, Typesize: s.ts,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				cChunk := compressC(b, in, o)
				goD := newDecompressor(1)
				cD, err := cblosc2.NewDecompressor(1)
				if err != nil {
					b.Fatal(err)
				}
				defer cD.Free()
				out := make([]byte, n)
				for _, own := range []bool{true, false} {
					codec.SetOwnInflate(own)
					clear(out)
					if _, err := goD.Decompress(out, cChunk); err != nil || !bytes.Equal(out, in) {
						b.Fatalf("Go (own inflate %v) decoding C's chunk lost data (%v)", own, err)
					}
				}
				bestOurs, bestK, bestC := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
				for b.Loop() {
					for range 4 {
						codec.SetOwnInflate(true)
						t0 := time.Now()
						goD.Decompress(out, cChunk)
						t1 := time.Now()
						codec.SetOwnInflate(false)
						goD.Decompress(out, cChunk)
						t2 := time.Now()
						cD.Decompress(out, cChunk)
						t3 := time.Now()
						bestOurs, bestK, bestC = min(bestOurs, t1.Sub(t0)), min(bestK, t2.Sub(t1)), min(bestC, t3.Sub(t2))
					}
				}
				b.ReportMetric(float64(n)/bestOurs.Seconds()/1e9, "ours-GB/s")
				b.ReportMetric(float64(n)/bestC.Seconds()/1e9, "c-GB/s")
				b.ReportMetric(float64(bestC)/float64(bestOurs), "ours/c")
				b.ReportMetric(float64(bestC)/float64(bestK), "klauspost/c")
				b.ReportMetric(float64(n)/float64(len(cChunk)), "c-ratio")
			})
		}
	}
}
