package zstdenc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkEncodeBlocks encodes what c-blosc2 hands zstd at clevels 7-9
// with byte shuffle in a 1 MiB chunk: its first block of 512 KiB
// (libzstd levels 13 and 15, btlazy2) or the whole chunk as one block
// (level 22, btultra2).
func BenchmarkEncodeBlocks(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"runs", 4}, {"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"rand_s1", 8}} {
		chunk := golden.MustPattern(b, s.name, 1<<20)
		for _, lvl := range []int{13, 15, 22} {
			n := 512 << 10
			if lvl == 22 {
				n = 1 << 20
			}
			src := golden.Shuffled(chunk[:n], s.ts)
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
