package inflate

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/testrand"
)

// adlerSum agrees with hash/adler32 at every length around its word and
// block sizes, on random bytes and on all-0xff bytes (the largest sums).
func TestAdler32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rnd := testrand.Bytes(r, 3*adlerBlock+100)
	ff := make([]byte, 40000)
	for i := range ff {
		ff[i] = 0xff
	}
	for _, p := range [][]byte{rnd, ff} {
		for n := 0; n <= len(p) && n < 3*adlerBlock+100; n++ {
			if got, want := adlerSum(p[:n]), adler32.Checksum(p[:n]); got != want {
				t.Fatalf("length %d: %#x, want %#x", n, got, want)
			}
		}
	}
	if got, want := adlerSum(ff), adler32.Checksum(ff); got != want {
		t.Fatalf("40000 bytes of 0xff: %#x, want %#x", got, want)
	}
}

func BenchmarkAdler32(b *testing.B) {
	p := testrand.Bytes(rand.New(rand.NewPCG(1, 1)), 1<<20)
	b.Run("ours", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adlerSum(p)
		}
	})
	b.Run("hash", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adler32.Checksum(p)
		}
	})
}
