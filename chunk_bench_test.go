package blosc

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
)

func BenchmarkCompress(b *testing.B) {
	for _, bi := range golden.BenchInputs {
		in := golden.MustPattern(b, bi.Pattern, golden.BenchSize)
		b.Run(bi.Pattern+"/memcpy", func(b *testing.B) {
			dst := make([]byte, len(in))
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, in)
			}
		})
		for _, c := range allCodecs {
			for _, threads := range []int{1, 2} {
				o := withFilter(Options{Codec: c, Level: 5, Typesize: bi.Typesize, Threads: threads}, ByteShuffle)
				b.Run(fmt.Sprintf("%s/%s/threads=%d", bi.Pattern, c, threads), func(b *testing.B) {
					comp, err := NewCompressor(o)
					if err != nil {
						b.Fatal(err)
					}
					dst := make([]byte, CompressBound(len(in)))
					out, _ := comp.Compress(dst, in)
					b.ReportMetric(float64(len(in))/float64(len(out)), "ratio")
					b.SetBytes(int64(len(in)))
					b.ReportAllocs()
					for b.Loop() {
						comp.Compress(dst, in)
					}
				})
			}
		}
	}
}

func BenchmarkDecompress(b *testing.B) {
	for _, bi := range golden.BenchInputs {
		in := golden.MustPattern(b, bi.Pattern, golden.BenchSize)
		b.Run(bi.Pattern+"/memcpy", func(b *testing.B) {
			dst := make([]byte, len(in))
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, in)
			}
		})
		for _, c := range allCodecs {
			chunk, err := Compress(nil, in, withFilter(Options{Codec: c, Level: 5, Typesize: bi.Typesize, Threads: 1}, ByteShuffle))
			if err != nil {
				b.Fatal(err)
			}
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", bi.Pattern, c, threads), func(b *testing.B) {
					d := &Decompressor{threads: threads}
					dst := make([]byte, len(in))
					if _, err := d.Decompress(dst, chunk); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(in)))
					b.ReportAllocs()
					for b.Loop() {
						d.Decompress(dst, chunk)
					}
				})
			}
		}
	}
}

// BenchmarkSmallChunk measures the per-call cost on chunks small enough to
// stay on the caller's goroutine.
func BenchmarkSmallChunk(b *testing.B) {
	for _, n := range []int{4 << 10, 64 << 10} {
		in := golden.MustPattern(b, "linspace_f64", n)
		o := withFilter(Options{Codec: LZ4, Level: 5, Typesize: 8, Threads: 1}, ByteShuffle)
		comp, _ := NewCompressor(o)
		dst := make([]byte, CompressBound(n))
		chunk, _ := comp.Compress(nil, in)
		d := &Decompressor{threads: 1}
		out := make([]byte, n)
		b.Run(fmt.Sprintf("compress/n=%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				comp.Compress(dst, in)
			}
		})
		b.Run(fmt.Sprintf("decompress/n=%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				d.Decompress(out, chunk)
			}
		})
	}
}

// BenchmarkParallelThreshold compares serial and 2-thread work around
// parallelMinBytes, the size the scheduler starts handing out blocks at.
func BenchmarkParallelThreshold(b *testing.B) {
	for _, n := range []int{64 << 10, 128 << 10, 256 << 10, 512 << 10} {
		in := golden.MustPattern(b, "linspace_f64", n)
		for _, threads := range []int{1, 2} {
			o := withFilter(Options{Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 32 << 10, Threads: threads, SplitMode: SplitNever}, ByteShuffle)
			p, _ := o.params()
			e := &engine{parallelMin: 1} // the threshold itself must not decide
			dst := make([]byte, n+16)
			chunk, _ := Compress(nil, in, o)
			h, _ := ReadHeader(chunk)
			out := make([]byte, n)
			b.Run(fmt.Sprintf("compress/n=%dKiB/nblocks=%d/threads=%d", n>>10, h.Nblocks, threads), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					e.compress(dst, in, &p)
				}
			})
			b.Run(fmt.Sprintf("decompress/n=%dKiB/nblocks=%d/threads=%d", n>>10, h.Nblocks, threads), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					e.decompress(out, chunk, threads)
				}
			})
		}
	}
}

// BenchmarkSmallLZ4 is the per-call cost of a 4 KiB LZ4 byte-shuffled chunk
// in both formats, with a plain copy of the input as the floor. Run with
// -benchtime=30000x or so and compare runs alternated between binaries:
// the best single call (best-us, which includes reading the clock) moves
// far less with the machine's load than the mean.
func BenchmarkSmallLZ4(b *testing.B) {
	const n = 4 << 10
	for _, s := range []struct {
		pattern  string
		typesize int
	}{{"linspace_f64", 8}, {"f32_noise", 4}} {
		in := golden.MustPattern(b, s.pattern, n)
		dst := make([]byte, CompressBound(n))
		b.Run(fmt.Sprintf("memcpy/%s", s.pattern), func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, in)
			}
		})
		for _, f := range []Format{FormatBlosc1, FormatBlosc2} {
			o := Options{Format: f, Codec: LZ4, Level: 5, Typesize: s.typesize, Threads: 1}
			o = withFilter(o, ByteShuffle)
			comp, err := NewCompressor(o)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := comp.Compress(dst, in); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("compress/%s/%s/ts=%d", f, s.pattern, s.typesize), func(b *testing.B) {
				b.SetBytes(n)
				b.ReportAllocs()
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					comp.Compress(dst, in)
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(best.Seconds()*1e6, "best-us")
			})
		}
	}
}
