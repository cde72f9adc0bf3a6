package blosclz_test

import (
	"testing"

	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
	"github.com/goblosc/blosc/internal/golden"
)

func BenchmarkCompress(b *testing.B) {
	for _, p := range golden.BenchInputs {
		src := blosclztest.Shuffled(b, p.Pattern, golden.BenchSize)
		b.Run(p.Pattern+"/copy", func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, level := range blosclztest.BenchLevels {
			b.Run(p.Pattern+"/"+blosclztest.BenchLevelName(level), func(b *testing.B) {
				dst := make([]byte, len(src))
				sizes := make([]int, len(src)/blosclztest.BenchBlock+1)
				var n int
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					n = blosclztest.CompressBlocks(dst, src, level, sizes)
				}
				b.ReportMetric(float64(len(src))/float64(n), "ratio")
			})
		}
	}
}

func BenchmarkDecompress(b *testing.B) {
	for _, p := range golden.BenchInputs {
		src := blosclztest.Shuffled(b, p.Pattern, golden.BenchSize)
		b.Run(p.Pattern+"/copy", func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, level := range blosclztest.BenchLevels {
			comp := make([]byte, len(src))
			sizes := make([]int, len(src)/blosclztest.BenchBlock+1)
			total := blosclztest.CompressBlocks(comp, src, level, sizes)
			b.Run(p.Pattern+"/"+blosclztest.BenchLevelName(level), func(b *testing.B) {
				out := make([]byte, len(src))
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					for i := 0; i*blosclztest.BenchBlock < len(src); i++ {
						start, end := i*blosclztest.BenchBlock, min(len(src), (i+1)*blosclztest.BenchBlock)
						if sizes[i] == end-start {
							copy(out[start:end], comp[start:end])
							continue
						}
						if n, err := blosclz.Decompress(out[start:end], comp[start:start+sizes[i]]); err != nil || n != end-start {
							b.Fatal(n, err)
						}
					}
				}
				b.ReportMetric(float64(len(src))/float64(total), "ratio")
			})
		}
	}
}

// Decoding one small stream, the size a split block often has.
func BenchmarkDecompress4KiB(b *testing.B) {
	src := blosclztest.Shuffled(b, "linspace_f64", 4096)
	comp := make([]byte, len(src))
	comp = comp[:blosclz.Compress(comp, src, 5)]
	out := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := blosclz.Decompress(out, comp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVersions compresses the same block with 2.5.1 (Compress) and
// 2.5.3 (CompressBlosc2), side by side in one run, at the block sizes Blosc
// chunks usually split into; the copy row is the memory bound.
func BenchmarkVersions(b *testing.B) {
	whole := blosclztest.Shuffled(b, "f32_noise", golden.BenchSize)
	for _, size := range []int{8 << 10, 64 << 10} {
		src := whole[:size]
		name := "f32_noise/" + map[int]string{8 << 10: "8KiB", 64 << 10: "64KiB"}[size]
		dst := make([]byte, len(src))
		b.Run(name+"/copy", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, v := range []struct {
			name string
			fn   func(dst, src []byte, level int) int
		}{{"2.5.1", blosclz.Compress}, {"2.5.3", blosclz.CompressBlosc2}} {
			b.Run(name+"/"+v.name+"/l5", func(b *testing.B) {
				var n int
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					n = v.fn(dst, src, 5)
				}
				if n == 0 {
					n = len(src)
				}
				b.ReportMetric(float64(len(src))/float64(n), "ratio")
			})
		}
	}
}

// BenchmarkDecompressByteRuns decodes a 64 KiB stream of 256-byte runs,
// what byte 1 of a shuffled int64 counter is in a Blosc2 block: every
// match has distance 1 and is about 255 bytes long.
func BenchmarkDecompressByteRuns(b *testing.B) {
	src := make([]byte, 64<<10)
	for i := range src {
		src[i] = byte(i >> 8)
	}
	comp := make([]byte, len(src))
	n := blosclz.CompressBlosc2(comp, src, 5)
	if n == 0 {
		b.Fatal("the runs did not compress")
	}
	out := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if m, err := blosclz.Decompress(out, comp[:n]); err != nil || m != len(src) {
			b.Fatal(m, err)
		}
	}
}
