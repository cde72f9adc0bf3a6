//go:build !purego && !noasm && gc

package zstdenc

import (
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/guard"
)

// matchLenGo is matchLen with its Go loop only.
func matchLenGo(buf []byte, a, b, end int) int {
	defer func() { useMatchLenTail = true }()
	useMatchLenTail = false
	return matchLen(buf, a, b, end)
}

// TestMatchLenTailMatchesGo: matchLen with the assembly tail counts what
// the Go loop counts, for matches ending at every offset up to a few
// hundred bytes, at end, and in buffers ending at a guard page (a read
// at or past end faults).
func TestMatchLenTailMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, side := range []guard.Side{guard.Start, guard.End} {
		for _, n := range []int{40, 64, 65, 100, 127, 128, 129, 300, 1000, 4096 + 17} {
			g := guard.New(n, side)
			buf := g.Bytes
			for trial := 0; trial < 200; trial++ {
				off := 1 + rng.IntN(min(n-1, 70))
				// A run of period off, so buf[i] == buf[i-off] up to the
				// first change.
				for i := range buf {
					buf[i] = byte(i % off)
				}
				if rng.IntN(4) != 0 {
					buf[rng.IntN(n)] ^= byte(1 + rng.IntN(255))
				}
				b := rng.IntN(n - off)
				a := b + off
				end := a + rng.IntN(n-a+1)
				if rng.IntN(3) == 0 {
					end = n
				}
				got := matchLen(buf, a, b, end)
				want := matchLenGo(buf, a, b, end)
				if got != want {
					t.Fatalf("side %v n=%d a=%d b=%d end=%d: %d, Go %d", side, n, a, b, end, got, want)
				}
			}
			g.Free()
		}
	}
}

// FuzzMatchLenTailMatchesGo holds matchLen with the assembly tail to
// its Go loop on any bytes: data repeats itself at the fuzzer's offset
// with the fuzzer's changes.
func FuzzMatchLenTailMatchesGo(f *testing.F) {
	f.Add([]byte("abcdefgh"), uint16(5), uint16(3), uint16(300), uint16(290))
	f.Add([]byte{0}, uint16(1), uint16(0), uint16(4096), uint16(4096))
	f.Fuzz(func(t *testing.T, pat []byte, off, b, n, end uint16) {
		if len(pat) == 0 || off == 0 {
			return
		}
		size := int(n)%8192 + 2
		o := int(off) % size
		if o == 0 {
			o = 1
		}
		buf := make([]byte, size)
		for i := range buf {
			buf[i] = pat[(i%o)%len(pat)]
		}
		for i := o; i < len(buf); i += len(pat) * 97 {
			buf[i] ^= pat[i%len(pat)]
		}
		bb := int(b) % (size - o)
		a := bb + o
		e := a + int(end)%(size-a+1)
		if got, want := matchLen(buf, a, bb, e), matchLenGo(buf, a, bb, e); got != want {
			t.Fatalf("a=%d b=%d end=%d size %d: %d, Go %d", a, bb, e, size, got, want)
		}
	})
}
