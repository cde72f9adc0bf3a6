package zstdenc

import (
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/testrand"
)

// TestNoiseLiteralsSampled: the literals of a block without sequences
// are stored raw from a count of their two ends alone once they reach
// 16 KiB (the full count, e.litCount, left as it was), counted in full
// below that, and Huffman coded at every size when they are skewed.
func TestNoiseLiteralsSampled(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 16))
	for _, n := range []int{16<<10 - 1, 16 << 10, 32 << 10, 40 << 10, 128 << 10} {
		var e Encoder
		e.strategy = stratDfast
		dst := make([]byte, n+16)

		e.litsSrc = testrand.Bytes(r, n)
		e.litCount[0] = 1 << 30
		got := e.writeLiterals(dst)
		if got != n+3 || dst[0]&3 != 0 {
			t.Errorf("%d bytes of noise: literals section of %d bytes, type %d; want %d, raw", n, got, dst[0]&3, n+3)
		}
		sampled := e.litCount[0] == 1<<30
		if want := n >= 16<<10; sampled != want {
			t.Errorf("%d bytes of noise: decided from samples %v, want %v", n, sampled, want)
		}

		skewed := make([]byte, n)
		for i := range skewed {
			skewed[i] = byte(r.IntN(16))
		}
		e.litsSrc = skewed
		if got := e.writeLiterals(dst); got <= 0 || got > n*3/5 || dst[0]&3 != 2 {
			t.Errorf("%d skewed bytes: literals section of %d bytes, type %d; want Huffman coded, at most %d", n, got, dst[0]&3, n*3/5)
		}
	}
}
