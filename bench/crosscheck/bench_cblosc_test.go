//go:build cblosc && cgo

package blosc

import (
	"testing"

	"github.com/goblosc/blosc/internal/cblosc"
)

func init() { cBench = benchCBlosc }

// benchCBlosc is the C row: c-blosc 1.21 through the context API, one
// thread, same options as the Go rows.
func benchCBlosc(b *testing.B, c Codec, level, typesize int, in []byte, compress bool) {
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
