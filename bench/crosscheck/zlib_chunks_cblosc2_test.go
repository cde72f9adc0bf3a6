//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
)

// TestZlibChunksEqualCBlosc2: Blosc2 zlib chunks (byte shuffle, one
// thread) are c-blosc2's byte for byte at every clevel, since
// internal/deflate writes the streams of the zlib c-blosc2 links
// (Debian's 1.2.13): 1 MiB of every dataset of the harness and the
// real-world-like ones, and a size with a leftover block.
func TestZlibChunksEqualCBlosc2(t *testing.T) {
	for _, s := range zstdChunkSets() {
		for _, n := range []int{1 << 20, 300<<10 + 77} {
			if n != 1<<20 && s.name != "text" && s.name != "mixed_rec13" {
				continue
			}
			in := golden.MustPattern(t, s.name, n)
			for clevel := 1; clevel <= 9; clevel++ {
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zlib, Level: clevel, Typesize: s.ts,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				ours, err := blosc.Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				cC, err := cblosc2.NewCompressor(cParams(o))
				if err != nil {
					t.Fatal(err)
				}
				theirs := make([]byte, blosc.CompressBound(n))
				m, err := cC.Compress(theirs, in)
				cC.Free()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(ours, theirs[:m]) {
					t.Errorf("%s/%d clevel %d: our chunk (%d bytes) differs from c-blosc2's (%d) at %d",
						s.name, n, clevel, len(ours), m, golden.FirstDiff(ours, theirs[:m]))
				}
			}
		}
	}
}
