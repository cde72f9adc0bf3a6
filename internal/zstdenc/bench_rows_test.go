package zstdenc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
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
// 3-5 with byte shuffle: a whole block of 256 KiB, unsplit, at libzstd
// levels 5, 7 and 9 (greedy, lazy and lazy2 over the uint32 chains).
func BenchmarkChainBlocks(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"sensor_f32", 4}, {"timestamps_i64", 8}} {
		src := golden.Shuffled(golden.MustPattern(b, s.name, 256<<10), s.ts)
		for _, lvl := range []int{5, 7, 9} {
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
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
