package zstdenc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/datasets"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkLazyBlocks encodes what c-blosc2 hands zstd at clevel 6 with
// byte shuffle: whole blocks of 512 KiB at libzstd level 11 (lazy2 over
// rows of 64).
func BenchmarkLazyBlocks(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"runs", 4}, {"sensor_f32", 4}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"sensor_f64", 8}} {
		src := golden.Shuffled(golden.MustPattern(b, s.name, 512<<10), s.ts)
		b.Run(s.name+"/l11", func(b *testing.B) {
			var e Encoder
			dst := e.Encode(nil, src, 11)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			done := cputime.Throughput(b, len(src))
			for b.Loop() {
				dst = e.Encode(dst[:0], src, 11)
			}
			done()
			b.ReportMetric(float64(len(src))/float64(len(dst)), "ratio")
		})
	}
}

// BenchmarkChainBlocks encodes what c-blosc 1.x hands zstd at clevels
// 3-5 with byte shuffle: a whole block of 256 KiB of every bench dataset
// shuffled at its typesize, unsplit, at libzstd levels 5, 7 and 9
// (greedy, lazy and lazy2), over the uint32 chains and over rows (of 32,
// 16 and 32), one after the other for each.
func BenchmarkChainBlocks(b *testing.B) {
	for _, s := range datasets.Bench {
		src := golden.Shuffled(golden.MustPattern(b, s.Name, 256<<10), s.Typesize)
		for _, lvl := range []int{5, 7, 9} {
			for _, f := range []struct {
				name string
				from uint8
			}{{"chains", 0}, {"rows", 18}} {
				b.Run(fmt.Sprintf("%s/l%d/%s", s.Name, lvl, f.name), func(b *testing.B) {
					var e Encoder
					e.rowsFrom = f.from
					dst := e.Encode(nil, src, lvl)
					b.SetBytes(int64(len(src)))
					b.ReportAllocs()
					done := cputime.Throughput(b, len(src))
					for b.Loop() {
						dst = e.Encode(dst[:0], src, lvl)
					}
					done()
					b.ReportMetric(float64(len(src))/float64(len(dst)), "ratio")
				})
			}
		}
	}
}
