package zstdenc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
)

func BenchmarkEncode(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"arange_i64", 8}} {
		src := golden.Shuffled(golden.MustPattern(b, s.name, 256<<10), s.ts)
		for _, lvl := range []int{1, 3} {
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
			})
		}
	}
}
