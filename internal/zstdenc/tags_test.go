package zstdenc

import (
	"math/rand/v2"
	"testing"
)

// TestTagMatches checks the tag compare this build uses against one tag
// at a time, on rows of 16, 32 and 64 tags at every offset of a buffer
// (rows are not always 16-byte aligned) and every tag value a row holds
// or not.
func TestTagMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 64+15)
	ahead := make([]uint32, 32) // what the prefetch asks for
	for round := 0; round < 200; round++ {
		// Few distinct values so that most tags have matches.
		for i := range buf {
			buf[i] = uint8(rng.IntN(4)) * 0x55
		}
		for _, n := range []int{16, 32, 64} {
			for off := 0; off+n <= len(buf); off++ {
				tags := buf[off : off+n]
				for _, tag := range []uint8{0, 0x55, 0xAA, 0xFF, 1} {
					var want uint64
					for j := 0; j < n; j++ {
						if tags[j] == tag {
							want |= 1 << j
						}
					}
					if got := tagMatches(tags, tag, n); got != want {
						t.Fatalf("n %d, offset %d, tag %#x: %#x, want %#x", n, off, tag, got, want)
					}
					if got := tagMatchesSWAR(tags, tag, n); got != want {
						t.Fatalf("SWAR: n %d, offset %d, tag %#x: %#x, want %#x", n, off, tag, got, want)
					}
					if n == 64 {
						if got := tagMatches64AndPrefetch(tags, tag, &buf[0], &ahead[0]); got != want {
							t.Fatalf("with prefetch: offset %d, tag %#x: %#x, want %#x", off, tag, got, want)
						}
					}
				}
			}
		}
	}
}
