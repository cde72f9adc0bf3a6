//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkZstdDecodeOnC compares the decoders alone on the chunks
// c-blosc2 writes: 1 MiB, byte shuffle, one thread, zstd at clevel 1, 3,
// 5 and 9, for the real-world-like datasets and the smooth and noisy
// floats, and rand_s1, which C stores memcpyed. Go and C decode C's chunk
// alternately in one loop; go-on-c/c is C's best time over Go's (above 1,
// Go is faster). Run with -benchtime=20x or so.
func BenchmarkZstdDecodeOnC(b *testing.B) { decodeOnC(b, blosc.Zstd) }

// BenchmarkZlibDecodeOnC is BenchmarkZstdDecodeOnC for zlib, whose
// inflate is internal/inflate (BenchmarkInflateOnC adds klauspost's
// beside it; docs/codecs.md).
func BenchmarkZlibDecodeOnC(b *testing.B) { decodeOnC(b, blosc.Zlib) }

func decodeOnC(b *testing.B, codec blosc.Codec) {
	sets := []struct {
		name string
		ts   int
	}{{"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"mixed_rec13", 13},
		{"f32_noise", 4}, {"linspace_f64", 8}, {"rand_s1", 8}}
	const n = 1 << 20
	for _, s := range sets {
		for _, level := range []int{1, 3, 5, 9} {
			b.Run(fmt.Sprintf("%s/clevel=%d", s.name, level), func(b *testing.B) {
				in := golden.MustPattern(b, s.name, n)
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: codec, Level: level, Typesize: s.ts,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				cChunk := compressC(b, in, o)
				goD := newDecompressor(1)
				cD, err := cblosc2.NewDecompressor(1)
				if err != nil {
					b.Fatal(err)
				}
				defer cD.Free()
				out := make([]byte, n)
				if _, err := goD.Decompress(out, cChunk); err != nil || !bytes.Equal(out, in) {
					b.Fatalf("Go decoding C's chunk lost data (%v)", err)
				}
				bestGo, bestC := time.Duration(1<<62), time.Duration(1<<62)
				for b.Loop() {
					for range 4 {
						t0 := time.Now()
						goD.Decompress(out, cChunk)
						t1 := time.Now()
						cD.Decompress(out, cChunk)
						t2 := time.Now()
						bestGo, bestC = min(bestGo, t1.Sub(t0)), min(bestC, t2.Sub(t1))
					}
				}
				b.ReportMetric(float64(n)/bestGo.Seconds()/1e9, "go-GB/s")
				b.ReportMetric(float64(n)/bestC.Seconds()/1e9, "c-GB/s")
				b.ReportMetric(float64(bestC)/float64(bestGo), "go-on-c/c")
				b.ReportMetric(float64(n)/float64(len(cChunk)), "c-ratio")
			})
		}
	}
}
