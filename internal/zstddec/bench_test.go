package zstddec

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdtest"
	"github.com/klauspost/compress/zstd"
)

// BenchmarkDecode alternates memcpy, klauspost's DecodeAll and Decode on
// the same 256 KiB frames (shuffled as Blosc does, written by klauspost at
// the level c-blosc maps clevel 1, 5, 9 to) and reports each one's best
// GB/s and the ratios; run with -benchtime=200x or so. The libzstd row is
// bench/crosscheck/zstddec's BenchmarkDecodeVersusC.
func BenchmarkDecode(b *testing.B) {
	const n = 256 << 10
	o, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range zstdtest.BenchSets {
		p, _ := golden.Pattern(s.Name, n)
		src := golden.Shuffled(p, s.TS)
		for _, clevel := range []int{1, 5, 9} {
			zl := map[int]int{1: 1, 5: 9, 9: 22}[clevel]
			e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(zl)),
				zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true))
			frame := e.EncodeAll(src, nil)
			b.Run(fmt.Sprintf("%s/ts=%d/clevel=%d", s.Name, s.TS, clevel), func(b *testing.B) {
				dst := make([]byte, n)
				var d Decoder
				slack := make([]byte, n+16)
				best := zstdtest.Alternate(b, n, []zstdtest.Side{
					{"memcpy", func() error { copy(dst, src); return nil }},
					{"klauspost", func() error { _, err := o.DecodeAll(frame, dst[:0:n]); return err }},
					{"go", func() error { return d.Decode(dst, frame) }},
					{"klauspost-slack", func() error {
						out, err := o.DecodeAll(frame, slack[:0:n+16])
						copy(dst, out)
						return err
					}},
				})
				b.ReportMetric(float64(best[1])/float64(best[2]), "go/klauspost")
				b.ReportMetric(float64(n)/float64(len(frame)), "ratio")
			})
		}
	}
}
