package zstdenc

import (
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
