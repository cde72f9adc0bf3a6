package bitshuffle

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// shuffleByDefinition builds the bit shuffle bit by bit from the package
// definition, independent of the 8x8 transpose the kernel uses.
func shuffleByDefinition(src []byte, typesize int) []byte {
	body := Transposed(len(src), typesize)
	n := body / typesize
	rowLen := n / 8
	dst := make([]byte, len(src))
	for i := 0; i < n; i++ {
		for j := 0; j < typesize; j++ {
			for b := 0; b < 8; b++ {
				bit := (src[i*typesize+j] >> b) & 1
				dst[(8*j+b)*rowLen+i/8] |= bit << (i % 8)
			}
		}
	}
	copy(dst[body:], src[body:])
	return dst
}

func TestShuffleMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ts := range []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 32, 33, 255} {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 127, 128, 255, 1000, 4096, 4100, 8 * 255 * 3} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(rng.Uint32())
			}
			want := shuffleByDefinition(src, ts)
			got := make([]byte, n)
			Shuffle(got, src, ts)
			if !bytes.Equal(got, want) {
				t.Fatalf("Shuffle ts=%d n=%d differs from the definition", ts, n)
			}
			back := make([]byte, n)
			Unshuffle(back, got, ts)
			if !bytes.Equal(back, src) {
				t.Fatalf("Unshuffle ts=%d n=%d does not invert Shuffle", ts, n)
			}
		}
	}
}

// A known vector: eight 2-byte elements 0x0001, 0x0002, ... give bit rows in
// which row b of byte 0 has bit i set when element i has bit b set.
func TestShuffleKnownVector(t *testing.T) {
	src := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0}
	want := []byte{0x55, 0x66, 0x78, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	got := make([]byte, 16)
	Shuffle(got, src, 2)
	if !bytes.Equal(got, want) {
		t.Fatalf("got % x, want % x", got, want)
	}
}
