package blosclztest

import (
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/golden"
)

// PatternTypesize is the natural typesize of each pattern, for shuffling as
// Blosc would.
var PatternTypesize = map[string]int{
	"zeros": 1, "arange_i8": 1, "arange_i16": 2, "arange_i32": 4, "arange_i64": 8,
	"linspace_f64": 8, "rand_s1": 8, "f32_noise": 4, "text": 1, "runs": 4, "rec12": 12,
}

// Shuffled returns n bytes of the named pattern byte-shuffled with its
// natural typesize.
func Shuffled(tb testing.TB, name string, n int) []byte {
	tb.Helper()
	src := golden.MustPattern(tb, name, n)
	ts := PatternTypesize[name]
	if ts <= 1 {
		return src
	}
	out := make([]byte, n)
	blosc.Shuffle(out, src, ts)
	return out
}

// BenchBlock is the block c-blosc 1.21 uses for a 1 MiB BloscLZ buffer of
// typesize 1 (it caps split blocks at 256 KiB whatever blocksize is asked),
// so the Go rows compress and decode the same streams as the C rows.
const BenchBlock = 1 << 18

// BenchLevels are the levels benchmarked; l5 is c-blosc's default.
var BenchLevels = []int{1, 5, 9}

// BenchLevelName names a level's sub-benchmark.
func BenchLevelName(level int) string { return "l" + string(rune('0'+level)) }

// CompressBlocks compresses src block by block into dst (len(src) bytes),
// as c-blosc lays the streams out in a chunk, and returns the stream sizes
// and the size the chunk would have (header, bstarts, csize fields).
func CompressBlocks(dst, src []byte, level int, sizes []int) int {
	total := 16
	for i := 0; i*BenchBlock < len(src); i++ {
		blk := src[i*BenchBlock : min(len(src), (i+1)*BenchBlock)]
		n := blosclz.Compress(dst[i*BenchBlock:i*BenchBlock+len(blk)], blk, level)
		if n == 0 {
			n = len(blk) // stored raw
		}
		sizes[i] = n
		total += 8 + n
	}
	return total
}

// SeedStreams adds blosclz's fuzz seed corpus: (stream, decoded size) pairs.
func SeedStreams(f *testing.F) {
	for _, name := range []string{"arange_i64", "linspace_f64", "f32_noise", "text", "runs", "rec12", "zeros"} {
		src := Shuffled(f, name, 2048)
		dst := make([]byte, len(src))
		if n := blosclz.Compress(dst, src, 5); n > 0 {
			f.Add(dst[:n], uint16(len(src)))
		}
	}
	f.Add([]byte{0x01, 'a', 'b', 0xE0, 0xFF, 0xFF, 0x01}, uint16(600))
	f.Add([]byte{0x00, 'a', 0x3F, 0xFF, 0x00, 0x00, 0x00}, uint16(100))
}
