//go:build cblosc2 && cgo

package crosscheck

import (
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
)

// Helpers only the c-blosc2 cross-checks use.

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func hasFilter(h *blosc.Header, f blosc.Filter) bool {
	for _, g := range h.Filters {
		if g == f {
			return true
		}
	}
	return false
}

// compressC compresses in with c-blosc2 under o's settings and returns the
// chunk.
func compressC(tb testing.TB, in []byte, o blosc.Options) []byte {
	tb.Helper()
	cc, err := cblosc2.NewCompressor(cParams(o))
	if err != nil {
		tb.Fatal(err)
	}
	defer cc.Free()
	c := make([]byte, blosc.CompressBound(len(in)))
	m, err := cc.Compress(c, in)
	if err != nil {
		tb.Fatal(err)
	}
	return c[:m]
}
