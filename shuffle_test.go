package blosc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func TestShuffleMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ts := range []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31, 32, 33, 64, 255, 256, 1000} {
		for _, n := range []int{0, 1, 2, 7, 8, 15, 16, 63, 64, 65, 255, 256, 257, 1000, 4096, 4099, 65537} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(rng.Uint32())
			}
			want := golden.Shuffled(src, ts)
			got := make([]byte, n+3)
			Shuffle(got, src, ts)
			if !bytes.Equal(got[:n], want) {
				t.Fatalf("Shuffle ts=%d n=%d: first difference at %d", ts, n, golden.FirstDiff(got, want))
			}
			back := make([]byte, n)
			Unshuffle(back, got[:n], ts)
			if !bytes.Equal(back, src) {
				t.Fatalf("Unshuffle ts=%d n=%d: first difference at %d", ts, n, golden.FirstDiff(back, src))
			}
		}
	}
}

func TestShufflePanicsOnMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"typesize 0": func() { Shuffle(make([]byte, 4), make([]byte, 4), 0) },
		"short dst":  func() { Unshuffle(make([]byte, 3), make([]byte, 4), 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
