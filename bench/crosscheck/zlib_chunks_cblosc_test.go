//go:build cblosc && cgo

package crosscheck

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/golden"
)

// TestZlibChunksEqualCBlosc1: Blosc1 zlib chunks are c-blosc 1.21's byte
// for byte at every clevel, with and without byte shuffle, since
// internal/deflate writes the streams of the system zlib (1.2.13) that
// c-blosc links.
func TestZlibChunksEqualCBlosc1(t *testing.T) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"text", 1}, {"f32_noise", 4}, {"linspace_f64", 8}, {"arange_i64", 8}, {"runs", 4}, {"sensor_f32", 4}, {"mixed_rec13", 13}} {
		for _, n := range []int{1 << 20, 200<<10 + 33} {
			in := golden.MustPattern(t, s.name, n)
			for clevel := 1; clevel <= 9; clevel++ {
				for _, shuffle := range []int{0, 1} {
					o := blosc.Options{Format: blosc.FormatBlosc1, Codec: blosc.Zlib, Level: clevel, Typesize: s.ts, Threads: 1}
					if shuffle == 1 {
						o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
					}
					ours, err := blosc.Compress(nil, in, o)
					if err != nil {
						t.Fatal(err)
					}
					theirs := make([]byte, n+16)
					m, err := cblosc.Compress(theirs, in, "zlib", clevel, shuffle, s.ts, 0, 1)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(ours, theirs[:m]) {
						t.Errorf("%s/%d clevel %d shuffle %d: our chunk (%d bytes) differs from c-blosc's (%d) at %d",
							s.name, n, clevel, shuffle, len(ours), m, golden.FirstDiff(ours, theirs[:m]))
					}
				}
			}
		}
	}
}
