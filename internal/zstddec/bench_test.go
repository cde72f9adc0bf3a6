package zstddec

import (
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/klauspost/compress/zstd"
)

// benchSets are cmd/blosc bench's datasets with their typesizes.
var benchSets = []struct {
	name string
	ts   int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}, {"runs", 4}, {"rec12", 4}, {"arange_i16", 2}}

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
	for _, s := range benchSets {
		p, _ := golden.Pattern(s.name, n)
		src := shuffled(p, s.ts)
		for _, clevel := range []int{1, 5, 9} {
			zl := map[int]int{1: 1, 5: 9, 9: 22}[clevel]
			e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(zl)),
				zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true))
			frame := e.EncodeAll(src, nil)
			b.Run(fmt.Sprintf("%s/ts=%d/clevel=%d", s.name, s.ts, clevel), func(b *testing.B) {
				dst := make([]byte, n)
				var d Decoder
				slack := make([]byte, n+16)
				sides := []struct {
					name string
					f    func() error
				}{
					{"memcpy", func() error { copy(dst, src); return nil }},
					{"klauspost", func() error { _, err := o.DecodeAll(frame, dst[:0:n]); return err }},
					{"go", func() error { return d.Decode(dst, frame) }},
					{"klauspost-slack", func() error {
						out, err := o.DecodeAll(frame, slack[:0:n+16])
						copy(dst, out)
						return err
					}},
				}
				best := make([]time.Duration, len(sides))
				for i := range best {
					best[i] = 1 << 62
				}
				for b.Loop() {
					for i, sd := range sides {
						t0 := time.Now()
						if err := sd.f(); err != nil {
							b.Fatal(sd.name, err)
						}
						best[i] = min(best[i], time.Since(t0))
					}
				}
				gb := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
				for i, sd := range sides {
					b.ReportMetric(gb(best[i]), sd.name+"-GB/s")
				}
				b.ReportMetric(float64(best[1])/float64(best[2]), "go/klauspost")
				b.ReportMetric(float64(n)/float64(len(frame)), "ratio")
			})
		}
	}
}
