//go:build cblosc && cgo

package crosscheck

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkChunkVersusC alternates Go and c-blosc 1.21 on the same input
// every iteration (Go compress at 1 and 2 threads, C compress, Go
// decompress at 1 and 2 threads, C decompress, both decoding C's chunk)
// and reports each one's best time. On a machine shared with other work
// the best of many interleaved runs compares Go with C more fairly than
// separate benchmark rows, which the load hits unevenly. The 4 KiB rows
// are the per-call cost (run with -benchtime=20000x or so), the 64 MiB
// rows the throughput (-benchtime=5x).
func BenchmarkChunkVersusC(b *testing.B) {
	type setup struct {
		size     int
		pattern  string
		typesize int
		codecs   []blosc.Codec
	}
	setups := []setup{
		{4 << 10, "linspace_f64", 8, []blosc.Codec{blosc.LZ4}},
		{4 << 10, "f32_noise", 4, []blosc.Codec{blosc.LZ4}},
		{64 << 20, "arange_i64", 8, []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd}},
		{64 << 20, "linspace_f64", 8, []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd}},
		{64 << 20, "f32_noise", 4, []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd}},
	}
	for _, s := range setups {
		var in []byte
		for _, c := range s.codecs {
			name := fmt.Sprintf("n=%dKiB/%s/%s/ts=%d", s.size>>10, s.pattern, c, s.typesize)
			b.Run(name, func(b *testing.B) {
				if in == nil {
					in = golden.MustPattern(b, s.pattern, s.size)
				}
				o := withFilter(blosc.Options{Codec: c, Level: 5, Typesize: s.typesize, Threads: 1}, blosc.ByteShuffle)
				comp1, err := blosc.NewCompressor(o)
				if err != nil {
					b.Fatal(err)
				}
				o.Threads = 2
				comp2, _ := blosc.NewCompressor(o)
				dec1 := newDecompressor(1)
				dec2 := newDecompressor(2)
				dst := make([]byte, blosc.CompressBound(len(in)))
				// Warm every engine up so that the loop measures reuse.
				if _, err := comp1.Compress(dst, in); err != nil {
					b.Fatal(err)
				}
				comp2.Compress(dst, in)
				nc, err := cblosc.Compress(dst, in, c.String(), 5, 1, s.typesize, 0, 1)
				if err != nil {
					b.Fatal(err)
				}
				cchunk := append([]byte(nil), dst[:nc]...)
				out := make([]byte, len(in))
				// Both decode C's chunk: for zstd Go's chunk holds
				// other streams.
				if _, err := dec1.Decompress(out, cchunk); err != nil {
					b.Fatal(err)
				}
				dec2.Decompress(out, cchunk)
				const (
					goComp1 = iota
					goComp2
					cComp
					goDec1
					goDec2
					cDec
				)
				best := [6]time.Duration{}
				for k := range best {
					best[k] = math.MaxInt64
				}
				b.ReportAllocs()
				for b.Loop() {
					var t [7]time.Time
					t[0] = time.Now()
					comp1.Compress(dst, in)
					t[1] = time.Now()
					comp2.Compress(dst, in)
					t[2] = time.Now()
					cblosc.Compress(dst, in, c.String(), 5, 1, s.typesize, 0, 1)
					t[3] = time.Now()
					dec1.Decompress(out, cchunk)
					t[4] = time.Now()
					dec2.Decompress(out, cchunk)
					t[5] = time.Now()
					cblosc.Decompress(out, cchunk, 1)
					t[6] = time.Now()
					for k := range best {
						best[k] = min(best[k], t[k+1].Sub(t[k]))
					}
				}
				gbs := func(d time.Duration) float64 { return float64(len(in)) / d.Seconds() / 1e9 }
				if s.size < 1<<20 {
					us := func(d time.Duration) float64 { return d.Seconds() * 1e6 }
					b.ReportMetric(us(best[goComp1]), "go-comp-us")
					b.ReportMetric(us(best[cComp]), "c-comp-us")
					b.ReportMetric(us(best[goDec1]), "go-dec-us")
					b.ReportMetric(us(best[cDec]), "c-dec-us")
				} else {
					b.ReportMetric(gbs(best[goComp1]), "go-comp-GB/s")
					b.ReportMetric(gbs(best[cComp]), "c-comp-GB/s")
					b.ReportMetric(gbs(best[goComp2])/gbs(best[goComp1]), "comp-2t/1t")
					b.ReportMetric(gbs(best[goDec1]), "go-dec-GB/s")
					b.ReportMetric(gbs(best[cDec]), "c-dec-GB/s")
					b.ReportMetric(gbs(best[goDec2])/gbs(best[goDec1]), "dec-2t/1t")
				}
				b.ReportMetric(gbs(best[goComp1])/gbs(best[cComp]), "comp-go/c")
				b.ReportMetric(gbs(best[goDec1])/gbs(best[cDec]), "dec-go/c")
			})
		}
	}
}
