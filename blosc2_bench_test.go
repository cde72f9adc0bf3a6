package blosc

import (
	"fmt"
	"math"
	"testing"
	"time"

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
					d := &Decompressor{threads: th}
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

// blosc2BenchSets are the 64 MiB inputs compared with c-blosc2
// (BenchmarkBlosc2VersusC in bench/crosscheck uses the same).
var blosc2BenchSets = []struct {
	pattern  string
	typesize int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}}

// BenchmarkBlosc2Threads alternates Blosc2 compression and decompression
// at 1 and 2 threads on the same 64 MiB input every iteration, with a
// plain copy of the input as the memory limit, and reports each one's best
// time. The machine is shared, so the 2t/1t ratios from one interleaved
// run are the figures to compare; run with -benchtime=8x or so.
func BenchmarkBlosc2Threads(b *testing.B) {
	const n = 64 << 20
	for _, s := range blosc2BenchSets {
		var in []byte
		for _, c := range []Codec{BloscLZ, LZ4} {
			b.Run(fmt.Sprintf("n=64MiB/%s/%s/ts=%d", s.pattern, c, s.typesize), func(b *testing.B) {
				if in == nil {
					var err error
					if in, err = golden.Pattern(s.pattern, n); err != nil {
						b.Fatal(err)
					}
				}
				o := Options{Format: FormatBlosc2, Codec: c, Level: 5, Typesize: s.typesize,
					Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1}
				comp1, err := NewCompressor(o)
				if err != nil {
					b.Fatal(err)
				}
				o.Threads = 2
				comp2, _ := NewCompressor(o)
				dec1 := &Decompressor{threads: 1}
				dec2 := &Decompressor{threads: 2}
				dst := make([]byte, CompressBound(n))
				// Warm every engine up so that the loop measures reuse.
				chunk, err := comp1.Compress(dst, in)
				if err != nil {
					b.Fatal(err)
				}
				chunk = append([]byte(nil), chunk...)
				if _, err := comp2.Compress(dst, in); err != nil {
					b.Fatal(err)
				}
				out := make([]byte, n)
				if _, err := dec1.Decompress(out, chunk); err != nil {
					b.Fatal(err)
				}
				if _, err := dec2.Decompress(out, chunk); err != nil {
					b.Fatal(err)
				}
				const (
					memcpy = iota
					comp1t
					comp2t
					dec1t
					dec2t
				)
				best := [5]time.Duration{}
				for k := range best {
					best[k] = math.MaxInt64
				}
				b.SetBytes(n)
				b.ReportAllocs()
				for b.Loop() {
					var t [6]time.Time
					t[0] = time.Now()
					copy(out, in)
					t[1] = time.Now()
					comp1.Compress(dst, in)
					t[2] = time.Now()
					comp2.Compress(dst, in)
					t[3] = time.Now()
					dec1.Decompress(out, chunk)
					t[4] = time.Now()
					dec2.Decompress(out, chunk)
					t[5] = time.Now()
					for k := range best {
						best[k] = min(best[k], t[k+1].Sub(t[k]))
					}
				}
				gbs := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
				b.ReportMetric(gbs(best[memcpy]), "memcpy-GB/s")
				b.ReportMetric(gbs(best[comp1t]), "comp1-GB/s")
				b.ReportMetric(gbs(best[comp2t]), "comp2-GB/s")
				b.ReportMetric(gbs(best[comp2t])/gbs(best[comp1t]), "comp-2t/1t")
				b.ReportMetric(gbs(best[dec1t]), "dec1-GB/s")
				b.ReportMetric(gbs(best[dec2t]), "dec2-GB/s")
				b.ReportMetric(gbs(best[dec2t])/gbs(best[dec1t]), "dec-2t/1t")
				b.ReportMetric(float64(n)/float64(len(chunk)), "ratio")
			})
		}
	}
}

// BenchmarkBlosc2Path runs one direction of one 64 MiB chunk at a time,
// single-threaded, so that a CPU profile shows only that path:
//
//	go test -run '^$' -bench 'Blosc2Path/dec/f32_noise/blosclz' -cpuprofile cpu.out .
func BenchmarkBlosc2Path(b *testing.B) {
	const n = 64 << 20
	for _, s := range blosc2BenchSets {
		var in []byte
		for _, c := range []Codec{BloscLZ, LZ4} {
			o := Options{Format: FormatBlosc2, Codec: c, Level: 5, Typesize: s.typesize,
				Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1}
			var comp *Compressor
			var chunk []byte
			setup := func(b *testing.B) {
				if in != nil && chunk != nil {
					return
				}
				var err error
				if in == nil {
					if in, err = golden.Pattern(s.pattern, n); err != nil {
						b.Fatal(err)
					}
				}
				if comp, err = NewCompressor(o); err != nil {
					b.Fatal(err)
				}
				if chunk, err = comp.Compress(make([]byte, CompressBound(n)), in); err != nil {
					b.Fatal(err)
				}
			}
			name := fmt.Sprintf("%s/%s", s.pattern, c)
			b.Run("comp/"+name, func(b *testing.B) {
				setup(b)
				dst := make([]byte, CompressBound(n))
				b.SetBytes(n)
				b.ReportAllocs()
				for b.Loop() {
					comp.Compress(dst, in)
				}
			})
			b.Run("dec/"+name, func(b *testing.B) {
				setup(b)
				d := &Decompressor{threads: 1}
				out := make([]byte, n)
				b.SetBytes(n)
				b.ReportAllocs()
				for b.Loop() {
					d.Decompress(out, chunk)
				}
			})
		}
	}
}

// BenchmarkBlosc2Stage decodes the same chunk with and without output
// staging (see stageOutput) at several chunk sizes and 1 and 2 threads,
// interleaved every iteration, and reports each one's best time: the sizes
// where staging wins set stageMinBytes (and the CPUs stageMinDefault
// stages on). Run with -benchtime=20x or so.
func BenchmarkBlosc2Stage(b *testing.B) {
	for _, n := range []int{4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20} {
		for _, s := range []struct {
			pattern  string
			typesize int
		}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}} {
			in, err := golden.Pattern(s.pattern, n)
			if err != nil {
				b.Fatal(err)
			}
			o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: s.typesize,
				Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1}
			chunk, err := Compress(nil, in, o)
			if err != nil {
				b.Fatal(err)
			}
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("n=%dMiB/%s/lz4/ts=%d/threads=%d", n>>20, s.pattern, s.typesize, threads), func(b *testing.B) {
					var direct, staged engine
					direct.stageMin, staged.stageMin = math.MaxInt, 1
					out := make([]byte, n)
					best := [2]time.Duration{math.MaxInt64, math.MaxInt64}
					b.SetBytes(int64(n))
					b.ReportAllocs()
					for b.Loop() {
						for k, e := range []*engine{&direct, &staged} {
							t0 := time.Now()
							if _, err := e.decompress(out, chunk, threads); err != nil {
								b.Fatal(err)
							}
							best[k] = min(best[k], time.Since(t0))
						}
					}
					gbs := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
					b.ReportMetric(gbs(best[0]), "direct-GB/s")
					b.ReportMetric(gbs(best[1]), "staged-GB/s")
					b.ReportMetric(gbs(best[1])/gbs(best[0]), "staged/direct")
				})
			}
		}
	}
}
