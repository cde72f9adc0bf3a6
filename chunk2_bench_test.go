package blosc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkBlosc2 measures Blosc2 chunks against a plain copy of the same
// bytes, single-threaded and with GOMAXPROCS threads.
func BenchmarkBlosc2(b *testing.B) {
	const n = 4 << 20
	src, _ := golden.Pattern("linspace_f64", n)
	b.Run("memcpy/n=4MiB", func(b *testing.B) {
		dst := make([]byte, n)
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
	for _, c := range []Codec{LZ4, Zstd, BloscLZ} {
		for _, fs := range []struct {
			name string
			f    [MaxFilters]Filter
		}{{"shuffle", [MaxFilters]Filter{5: ByteShuffle}}, {"delta+shuffle", [MaxFilters]Filter{Delta, ByteShuffle}}} {
			for _, th := range []int{1, 0} {
				o := Options{Format: FormatBlosc2, Codec: c, Level: 5, Typesize: 8, Filters: fs.f, Threads: th}
				comp, err := NewCompressor(o)
				if err != nil {
					b.Fatal(err)
				}
				chunk, _ := comp.Compress(make([]byte, 0, CompressBound(n)), src)
				name := fmt.Sprintf("%s/%s/ts=8/n=4MiB/threads=%d", c, fs.name, th)
				b.Run("compress/"+name, func(b *testing.B) {
					b.SetBytes(n)
					b.ReportAllocs()
					for b.Loop() {
						chunk, _ = comp.Compress(chunk[:0], src)
					}
					b.ReportMetric(float64(n)/float64(len(chunk)), "ratio")
				})
				b.Run("decompress/"+name, func(b *testing.B) {
					d := &Decompressor{Threads: th}
					out := make([]byte, 0, n)
					b.SetBytes(n)
					b.ReportAllocs()
					for b.Loop() {
						out, _ = d.Decompress(out[:0], chunk)
					}
				})
			}
		}
	}
}
