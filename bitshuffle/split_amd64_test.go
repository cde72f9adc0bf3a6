//go:build !purego && !noasm && gc

package bitshuffle

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/testrand"
)

// TestGFNISplitKernels runs the split GFNI kernels directly: the package
// calls them only for some row lengths (gfniSplit), but they handle any
// count of superblocks, and their first and last passes, which skip rows of
// superblocks that do not exist, differ with the count. Buffers sit next to
// guard pages on either side, or start unaligned.
func TestGFNISplitKernels(t *testing.T) {
	if !kernelUsable(kAVX512GFNI) {
		t.Skip("CPU without AVX-512 VBMI and GFNI")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ts := range []int{4, 8} {
		for _, sb := range []int{1, 2, 3, 4, 5, 6, 7, 9, 33, 64} {
			n := sb * blockSuper * ts
			rowLen := n / ts / 8
			src := testrand.Bytes(rng, n)
			want := make([]byte, n)
			shuffleGeneric(want, src, ts)
			for _, place := range []string{"guard-before", "guard-after", "unaligned"} {
				t.Run(fmt.Sprintf("ts=%d/superblocks=%d/%s", ts, sb, place), func(t *testing.T) {
					buf := func() []byte {
						switch place {
						case "guard-before":
							return guarded(t, n, false)
						case "guard-after":
							return guarded(t, n, true)
						}
						return make([]byte, n+5)[5:]
					}
					in, out := buf(), buf()
					copy(in, src)
					for i := range out {
						out[i] = 0xA5
					}
					shuffleAVX512GFNISplit(out, in, ts, rowLen, sb)
					if !bytes.Equal(out, want) {
						t.Fatalf("shuffle: %s", diffReport(out, want))
					}
					copy(in, want)
					for i := range out {
						out[i] = 0x5A
					}
					unshuffleAVX512GFNISplit(out, in, ts, rowLen, sb)
					if !bytes.Equal(out, src) {
						t.Fatalf("unshuffle: %s", diffReport(out, src))
					}
				})
			}
		}
	}
}
