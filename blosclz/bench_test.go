package blosclz_test

import (
	"testing"

	"github.com/goblosc/blosc/blosclz"
)

// benchPatterns are the inputs of the performance target, with the typesize
// they are byte-shuffled with, as a Blosc chunk would store them.
var benchPatterns = []struct {
	name     string
	typesize int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}}

const benchSize = 1 << 20

// benchBlock is the block c-blosc 1.21 uses for a 1 MiB BloscLZ buffer of
// typesize 1 (it caps split blocks at 256 KiB whatever blocksize is asked),
// so the Go rows compress and decode the same streams as the C rows.
const benchBlock = 1 << 18

// benchLevels are the levels benchmarked; l5 is c-blosc's default.
var benchLevels = []int{1, 5, 9}

func benchLevelName(level int) string { return "l" + string(rune('0'+level)) }

// compressBlocks compresses src block by block into dst (len(src) bytes),
// as c-blosc lays the streams out in a chunk, and returns the stream sizes
// and the size the chunk would have (header, bstarts, csize fields).
func compressBlocks(dst, src []byte, level int, sizes []int) int {
	total := 16
	for i := 0; i*benchBlock < len(src); i++ {
		blk := src[i*benchBlock : min(len(src), (i+1)*benchBlock)]
		n := blosclz.Compress(dst[i*benchBlock:i*benchBlock+len(blk)], blk, level)
		if n == 0 {
			n = len(blk) // stored raw
		}
		sizes[i] = n
		total += 8 + n
	}
	return total
}

func BenchmarkCompress(b *testing.B) {
	for _, p := range benchPatterns {
		src := shuffled(b, p.name, benchSize)
		b.Run(p.name+"/copy", func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, level := range benchLevels {
			b.Run(p.name+"/"+benchLevelName(level), func(b *testing.B) {
				dst := make([]byte, len(src))
				sizes := make([]int, len(src)/benchBlock+1)
				var n int
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					n = compressBlocks(dst, src, level, sizes)
				}
				b.ReportMetric(float64(len(src))/float64(n), "ratio")
			})
		}
	}
}

func BenchmarkDecompress(b *testing.B) {
	for _, p := range benchPatterns {
		src := shuffled(b, p.name, benchSize)
		b.Run(p.name+"/copy", func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, level := range benchLevels {
			comp := make([]byte, len(src))
			sizes := make([]int, len(src)/benchBlock+1)
			total := compressBlocks(comp, src, level, sizes)
			b.Run(p.name+"/"+benchLevelName(level), func(b *testing.B) {
				out := make([]byte, len(src))
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					for i := 0; i*benchBlock < len(src); i++ {
						start, end := i*benchBlock, min(len(src), (i+1)*benchBlock)
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
	src := shuffled(b, "linspace_f64", 4096)
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
	whole := shuffled(b, "f32_noise", benchSize)
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
