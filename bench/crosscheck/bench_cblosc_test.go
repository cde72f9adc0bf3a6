//go:build cblosc && cgo

package crosscheck

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkCompressC and BenchmarkDecompressC are the C rows of the root
// package's BenchmarkCompress and BenchmarkDecompress (same inputs, same
// options, named pattern/codec/C), for benchstat beside them.
func BenchmarkCompressC(b *testing.B)   { benchC(b, true) }
func BenchmarkDecompressC(b *testing.B) { benchC(b, false) }

func benchC(b *testing.B, compress bool) {
	for _, bi := range golden.BenchInputs {
		in := golden.MustPattern(b, bi.Pattern, golden.BenchSize)
		for _, c := range allCodecs {
			b.Run(fmt.Sprintf("%s/%s/C", bi.Pattern, c), func(b *testing.B) { benchCBlosc(b, c, 5, bi.Typesize, in, compress) })
		}
	}
}

// benchCBlosc is the C row: c-blosc 1.21 through the context API, one
// thread, byte shuffle, as the Go rows.
func benchCBlosc(b *testing.B, c blosc.Codec, level, typesize int, in []byte, compress bool) {
	dst := make([]byte, len(in)+16)
	n, err := cblosc.Compress(dst, in, c.String(), level, 1, typesize, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	chunk := append([]byte(nil), dst[:n]...)
	out := make([]byte, len(in))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	if compress {
		b.ReportMetric(float64(len(in))/float64(n), "ratio")
		for b.Loop() {
			cblosc.Compress(dst, in, c.String(), level, 1, typesize, 0, 1)
		}
		return
	}
	for b.Loop() {
		if _, err := cblosc.Decompress(out, chunk, 1); err != nil {
			b.Fatal(err)
		}
	}
}
