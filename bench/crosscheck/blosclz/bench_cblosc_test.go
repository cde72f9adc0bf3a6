//go:build cblosc && cgo

package blosclz_test

import (
	"math"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
	"github.com/goblosc/blosc/internal/golden"
)

// cChunk compresses src with c-blosc's BloscLZ, no shuffle and typesize 1,
// so each block is one stream: the closest the public C API comes to
// calling blosclz_compress directly. c-blosc caps such blocks at 256 KiB
// whatever blocksize asks, so 1 MiB gives four streams (the Go rows
// compress the same four).
func cChunk(tb testing.TB, src []byte, level, blocksize int) []byte {
	dst := make([]byte, len(src)+16)
	n, err := cblosc.Compress(dst, src, "blosclz", level, 0, 1, blocksize, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return dst[:n]
}

// BenchmarkCompressC and BenchmarkDecompressC are the C rows of blosclz's
// BenchmarkCompress and BenchmarkDecompress (same inputs and levels, rows
// named pattern/level/c), for benchstat beside them.
func BenchmarkCompressC(b *testing.B) {
	for _, p := range golden.BenchInputs {
		src := blosclztest.Shuffled(b, p.Pattern, golden.BenchSize)
		for _, level := range blosclztest.BenchLevels {
			benchCCompress(b, p.Pattern, src, level)
		}
	}
}

func BenchmarkDecompressC(b *testing.B) {
	for _, p := range golden.BenchInputs {
		src := blosclztest.Shuffled(b, p.Pattern, golden.BenchSize)
		for _, level := range blosclztest.BenchLevels {
			benchCDecompress(b, p.Pattern, src, level)
		}
	}
}

func benchCCompress(b *testing.B, name string, src []byte, level int) {
	b.Run(name+"/"+blosclztest.BenchLevelName(level)+"/c", func(b *testing.B) {
		dst := make([]byte, len(src)+16)
		var n int
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if n, err = cblosc.Compress(dst, src, "blosclz", level, 0, 1, len(src), 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(src))/float64(n), "ratio")
	})
}

func benchCDecompress(b *testing.B, name string, src []byte, level int) {
	comp := cChunk(b, src, level, len(src))
	b.Run(name+"/"+blosclztest.BenchLevelName(level)+"/c", func(b *testing.B) {
		out := make([]byte, len(src))
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cblosc.Decompress(out, comp, 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(src))/float64(len(comp)), "ratio")
	})
}

// BenchmarkVersusC alternates Go and C on the same 1 MiB (Go compress, C
// compress, Go decompress, C decompress, every iteration) and reports each
// one's best time as GB/s, with the Go/C quotient. On a shared machine the
// best of many interleaved short runs compares the two more fairly than
// separate rows, which load from other processes hits unevenly. Run with
// many iterations, e.g. -benchtime=300x.
func BenchmarkVersusC(b *testing.B) {
	for _, p := range golden.BenchInputs {
		src := blosclztest.Shuffled(b, p.Pattern, golden.BenchSize)
		for _, level := range blosclztest.BenchLevels {
			b.Run(p.Pattern+"/"+blosclztest.BenchLevelName(level), func(b *testing.B) {
				dst := make([]byte, len(src)+16)
				comp := make([]byte, len(src))
				sizes := make([]int, len(src)/blosclztest.BenchBlock+1)
				blosclztest.CompressBlocks(comp, src, level, sizes)
				cc := cChunk(b, src, level, len(src))
				out := make([]byte, len(src))
				best := [4]time.Duration{math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64}
				b.ReportAllocs()
				for b.Loop() {
					t0 := time.Now()
					blosclztest.CompressBlocks(dst, src, level, sizes)
					t1 := time.Now()
					if _, err := cblosc.Compress(dst, src, "blosclz", level, 0, 1, len(src), 1); err != nil {
						b.Fatal(err)
					}
					t2 := time.Now()
					for j := 0; j*blosclztest.BenchBlock < len(src); j++ {
						s, e := j*blosclztest.BenchBlock, min(len(src), (j+1)*blosclztest.BenchBlock)
						if sizes[j] == e-s {
							copy(out[s:e], comp[s:e])
						} else if n, err := blosclz.Decompress(out[s:e], comp[s:s+sizes[j]]); err != nil || n != e-s {
							b.Fatal(n, err)
						}
					}
					t3 := time.Now()
					if _, err := cblosc.Decompress(out, cc, 1); err != nil {
						b.Fatal(err)
					}
					t4 := time.Now()
					for k, d := range [4]time.Duration{t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3)} {
						best[k] = min(best[k], d)
					}
				}
				gbs := func(d time.Duration) float64 { return float64(len(src)) / d.Seconds() / 1e9 }
				b.ReportMetric(gbs(best[0]), "go-comp-GB/s")
				b.ReportMetric(gbs(best[1]), "c-comp-GB/s")
				b.ReportMetric(gbs(best[0])/gbs(best[1]), "comp-go/c")
				b.ReportMetric(gbs(best[2]), "go-dec-GB/s")
				b.ReportMetric(gbs(best[3]), "c-dec-GB/s")
				b.ReportMetric(gbs(best[2])/gbs(best[3]), "dec-go/c")
			})
		}
	}
}
