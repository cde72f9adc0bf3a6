package lz4

import (
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/guard"
)

// The unchecked loads must never touch a byte outside src: with src placed
// flush against an inaccessible page on either side, an over-read faults.
// Repetitive data drives the match loops to the very end of the input.
func TestSrcAgainstGuardPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c Compressor
	sizes := []int{0, 1, 4, 5, 11, 12, 13, 64, 4096, 65535, 65547, 65548, 100_000}
	for n := 14; n < 300; n++ {
		sizes = append(sizes, n)
	}
	for _, side := range []guard.Side{guard.Start, guard.End} {
		for _, n := range sizes {
			buf := guard.New(n, side)
			src := buf.Bytes
			for i := range src {
				if i%97 < 90 {
					src[i] = byte(i % 7) // long matches up to the end
				} else {
					src[i] = byte(rng.Uint32())
				}
			}
			dst := make([]byte, CompressBlockBound(n))
			for _, acc := range []int{1, 5, 10} {
				if m := c.CompressBlock(dst, src, acc); n > 0 && m == 0 {
					t.Fatalf("n=%d acc=%d: compressed to nothing", n, acc)
				}
			}
			buf.Free()
		}
	}
}
