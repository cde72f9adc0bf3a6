//go:build cblosc && cgo

// Package zstddec_test holds internal/zstddec, the decoder of Blosc's zstd
// streams, to libzstd: the frames libzstd writes decode to the input and
// to klauspost's decoding (TestLibzstdFrames), and the two decoders are
// timed side by side on them (BenchmarkDecodeVersusC).
package zstddec_test

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/goblosc/blosc/internal/zstdtest"
)

// TestLibzstdFrames decodes frames libzstd writes, at the levels c-blosc
// maps its clevels to, and checks them byte for byte against the input
// and against klauspost's decoding.
func TestLibzstdFrames(t *testing.T) {
	var d zstddec.Decoder
	o := zstdtest.Oracle(t)
	for name, src := range zstdtest.Inputs(t) {
		for _, level := range []int{1, 3, 5, 9, 13, 22} {
			if level > 9 && len(src) > 1<<17 {
				continue // slow in C and adds no frame shape
			}
			frame, err := czstd.Compress(src, level)
			if err != nil {
				t.Fatal(err)
			}
			zstdtest.Check(t, d.Decode, zstddec.ErrUnsupported, o, fmt.Sprintf("%s/libzstd-%d", name, level), frame, src)
		}
	}
}

// BenchmarkDecodeVersusC alternates memcpy, klauspost's DecodeAll,
// zstddec's Decode and libzstd's ZSTD_decompress on the same 256 KiB
// frames (shuffled as Blosc does, written by libzstd at the level c-blosc
// maps clevel 1, 5, 9 to) and reports each one's best GB/s and the
// ratios; run with -benchtime=200x or so. internal/zstddec's own
// BenchmarkDecode is the same without the C side.
func BenchmarkDecodeVersusC(b *testing.B) {
	const n = 256 << 10
	o := zstdtest.Oracle(b)
	for _, s := range zstdtest.BenchSets {
		p, _ := golden.Pattern(s.Name, n)
		src := golden.Shuffled(p, s.TS)
		for _, clevel := range []int{1, 5, 9} {
			zl := map[int]int{1: 1, 5: 9, 9: 22}[clevel]
			frame, err := czstd.Compress(src, zl)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/ts=%d/clevel=%d", s.Name, s.TS, clevel), func(b *testing.B) {
				dst := make([]byte, n)
				var d zstddec.Decoder
				best := zstdtest.Alternate(b, n, []zstdtest.Side{
					{"memcpy", func() error { copy(dst, src); return nil }},
					{"klauspost", func() error { _, err := o.DecodeAll(frame, dst[:0:n]); return err }},
					{"go", func() error { return d.Decode(dst, frame) }},
					{"c", func() error {
						m, err := czstd.Decompress(dst, frame)
						if err == nil && m != n {
							err = fmt.Errorf("libzstd gave %d bytes, want %d", m, n)
						}
						return err
					}},
				})
				b.ReportMetric(float64(best[1])/float64(best[2]), "go/klauspost")
				b.ReportMetric(float64(best[3])/float64(best[2]), "go/c")
				b.ReportMetric(float64(n)/float64(len(frame)), "ratio")
			})
		}
	}
}
