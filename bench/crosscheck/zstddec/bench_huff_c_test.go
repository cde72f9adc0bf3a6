//go:build cblosc && cgo

package zstddec_test

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/goblosc/blosc/internal/zstdtest"
	"github.com/klauspost/compress/huff0"
)

// BenchmarkHuffmanVersusC times the Huffman literals alone: each byte
// plane of 512 KiB of shuffled input, Huffman-coded by huff0 as one
// 4-stream section of 128 KiB (a zstd block's literals at most), in a
// frame of one block without sequences, decoded by zstddec and libzstd
// alternately. csize/n is the section's size over its symbols: libzstd
// picks its double-symbol loop for the smaller ones.
func BenchmarkHuffmanVersusC(b *testing.B) {
	const n = 128 << 10
	sets := []struct {
		name string
		src  []byte
	}{{"noisy_f32", zstdtest.NoisyFloats(4 * n)}}
	for _, name := range []string{"f32_noise", "text", "linspace_f64"} {
		p, _ := golden.Pattern(name, 4*n)
		sets = append(sets, struct {
			name string
			src  []byte
		}{name, p})
	}
	for _, s := range sets {
		src := golden.Shuffled(s.src, 4)
		for plane := range 4 {
			in := src[plane*n : (plane+1)*n]
			var sc huff0.Scratch
			sec, _, err := huff0.Compress4X(in, &sc)
			if err != nil {
				continue // stored raw or as one byte
			}
			frame, ok := huffFrame(sec, n, true)
			if !ok {
				b.Fatal("no frame")
			}
			b.Run(fmt.Sprintf("%s/plane=%d", s.name, plane), func(b *testing.B) {
				dst := make([]byte, n)
				var d zstddec.Decoder
				best := zstdtest.Alternate(b, n, []zstdtest.Side{
					{"go", func() error { return d.Decode(dst, frame) }},
					{"c", func() error {
						m, err := czstd.Decompress(dst, frame)
						if err == nil && m != n {
							err = fmt.Errorf("libzstd gave %d bytes, want %d", m, n)
						}
						return err
					}},
				})
				b.ReportMetric(float64(best[1])/float64(best[0]), "go/c")
				b.ReportMetric(float64(len(sec))/n, "csize/n")
			})
		}
	}
}
