package zstddec

import (
	"math/rand/v2"
	"testing"
)

// spreadOracle is the symbol spread of RFC 8878 4.1.1 as the format
// states it: the symbols of probability below one at the top, then each
// symbol's count of positions along the walk, skipping the top.
func spreadOracle(norm []int16, tableLog uint) []uint8 {
	size := 1 << tableLog
	symbols := make([]uint8, size)
	high := size - 1
	for s, c := range norm {
		if c == -1 {
			symbols[high] = uint8(s)
			high--
		}
	}
	step := size>>1 + size>>3 + 3
	p := 0
	for s, c := range norm {
		for range int(c) {
			symbols[p] = uint8(s)
			p = (p + step) & (size - 1)
			for p > high {
				p = (p + step) & (size - 1)
			}
		}
	}
	return symbols
}

// TestFseSpread holds fseSpread to the format's definition on random
// distributions of every table log, with and without symbols of
// probability below one, and on the predefined ones.
func TestFseSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(name string, norm []int16, log uint) {
		t.Helper()
		var got [512]uint8
		fseSpread(&got, norm, log)
		want := spreadOracle(norm, log)
		for u := range want {
			if got[u] != want[u] {
				t.Fatalf("%s: log %d, %d symbols: state %d has symbol %d, want %d", name, log, len(norm), u, got[u], want[u])
			}
		}
	}
	check("ll", llPredefNorm, 6)
	check("ml", mlPredefNorm, 6)
	check("of", ofPredefNorm, 5)
	for log := uint(5); log <= 9; log++ {
		size := 1 << log
		for range 200 {
			nsym := 1 + r.IntN(min(size, 64))
			norm := make([]int16, nsym)
			left := size
			lowAllowed := r.IntN(2) == 0
			for s := range norm {
				if s == nsym-1 {
					norm[s] = int16(left)
					break
				}
				switch {
				case lowAllowed && left > nsym-s && r.IntN(4) == 0:
					norm[s] = -1
					left--
				case r.IntN(5) == 0:
					norm[s] = 0
				default:
					c := 1 + r.IntN(max(1, left-(nsym-s)))
					c = min(c, left-(nsym-1-s))
					norm[s] = int16(c)
					left -= c
				}
			}
			if norm[nsym-1] <= 0 {
				continue
			}
			check("random", norm, log)
		}
	}
}
