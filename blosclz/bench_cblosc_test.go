//go:build cblosc && cgo

package blosclz_test

import (
	"testing"

	"github.com/goblosc/blosc/internal/cblosc"
)

// cChunk compresses src with c-blosc's BloscLZ, no shuffle and typesize 1,
// so each block is one stream: the closest the public C API comes to
// calling blosclz_compress directly. c-blosc caps such blocks at 256 KiB
// whatever blocksize asks, so 1 MiB gives four streams (the Go rows
// compress the same four).
func cChunk(tb testing.TB, src []byte, level, blocksize int) []byte {
	dst := make([]byte, len(src)+16)
	n, err := cblosc.Compress(dst, src, "blosclz", level, 0, 1, blocksize, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return dst[:n]
}

func benchCCompress(b *testing.B, name string, src []byte, level int) {
	b.Run(name+"/"+benchLevelName(level)+"/c", func(b *testing.B) {
		dst := make([]byte, len(src)+16)
		var n int
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if n, err = cblosc.Compress(dst, src, "blosclz", level, 0, 1, len(src), 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(src))/float64(n), "ratio")
	})
}

func benchCDecompress(b *testing.B, name string, src []byte, level int) {
	comp := cChunk(b, src, level, len(src))
	b.Run(name+"/"+benchLevelName(level)+"/c", func(b *testing.B) {
		out := make([]byte, len(src))
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cblosc.Decompress(out, comp, 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(src))/float64(len(comp)), "ratio")
	})
}
