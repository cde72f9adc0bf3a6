//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/cputime"
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

// BenchmarkBloscLZDecodeOnC is BenchmarkZstdDecodeOnC for BloscLZ, over
// every dataset of the harness's suite and the real-world-like ones and
// every clevel 1-9: BloscLZ's clevels change the stream (the hash size,
// the minimum match, when a block is stored raw), so each can take a
// different path through the decoder.
func BenchmarkBloscLZDecodeOnC(b *testing.B) { decodeOnC(b, blosc.BloscLZ) }

// BenchmarkLZ4DecodeOnC is BenchmarkBloscLZDecodeOnC for LZ4.
func BenchmarkLZ4DecodeOnC(b *testing.B) { decodeOnC(b, blosc.LZ4) }

// decodeOnC reports, besides the wall-clock go-on-c/c, cpu-go-on-c/c: the
// same ratio of the thread CPU times (the benchmark holds its thread), the
// one to read on a shared machine.
func decodeOnC(b *testing.B, codec blosc.Codec) {
	sets := []struct {
		name string
		ts   int
	}{{"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"mixed_rec13", 13},
		{"f32_noise", 4}, {"linspace_f64", 8}, {"rand_s1", 8}}
	levels := []int{1, 3, 5, 9}
	if codec == blosc.BloscLZ || codec == blosc.LZ4 {
		sets = zstdChunkSets()
		levels = []int{1, 2, 3, 4, 5, 6, 7, 8, 9}
	}
	const n = 1 << 20
	for _, s := range sets {
		for _, level := range levels {
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
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				bestGo, bestC := time.Duration(1<<62), time.Duration(1<<62)
				cpuGo, cpuC := time.Duration(1<<62), time.Duration(1<<62)
				for b.Loop() {
					for range 4 {
						c0, _ := cputime.Thread()
						t0 := time.Now()
						goD.Decompress(out, cChunk)
						t1 := time.Now()
						c1, _ := cputime.Thread()
						cD.Decompress(out, cChunk)
						t2 := time.Now()
						c2, _ := cputime.Thread()
						bestGo, bestC = min(bestGo, t1.Sub(t0)), min(bestC, t2.Sub(t1))
						cpuGo, cpuC = min(cpuGo, c1-c0), min(cpuC, c2-c1)
					}
				}
				if cpuGo > 0 && cpuC > 0 {
					b.ReportMetric(float64(cpuC)/float64(cpuGo), "cpu-go-on-c/c")
				}
				b.ReportMetric(float64(n)/bestGo.Seconds()/1e9, "go-GB/s")
				b.ReportMetric(float64(n)/bestC.Seconds()/1e9, "c-GB/s")
				b.ReportMetric(float64(bestC)/float64(bestGo), "go-on-c/c")
				b.ReportMetric(float64(n)/float64(len(cChunk)), "c-ratio")
			})
		}
	}
}
