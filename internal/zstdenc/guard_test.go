package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/zstddec"
)

// The finders and the entropy stage load words without bounds checks (and,
// on amd64, in assembly): they must never touch a byte outside src. With
// src flush against an inaccessible page on either side, an over-read
// faults. Repetitive data with noise drives the match loops, the repeat
// offsets and the literal runs to the very end of the input.
func TestSrcAgainstGuardPages(t *testing.T) {
	skipUnderRace(t)
	sizes := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
		1000, 4095, 4096, 4097, 32 << 10, 64<<10 + 3, 128<<10 + 1, 200 << 10}
	levels := []int{1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 16, 19, 22}
	rng := rand.New(rand.NewPCG(11, 12))
	var e Encoder
	var d zstddec.Decoder
	for _, side := range []guard.Side{guard.Start, guard.End} {
		for _, n := range sizes {
			buf := guard.New(n, side)
			src := buf.Bytes
			for i := range src {
				if i%113 < 100 {
					src[i] = byte(i % 11) // matches up to the very end
				} else {
					src[i] = byte(rng.Uint32())
				}
			}
			for _, lvl := range levels {
				if lvl >= 16 && n > 64<<10 {
					continue // the deep levels' large inputs: see TestRoundTrip
				}
				frame := e.Encode(nil, src, lvl)
				got := make([]byte, n)
				if err := d.Decode(got, frame); err != nil {
					t.Fatalf("side %v n=%d level %d: %v", side, n, lvl, err)
				}
				if !bytes.Equal(got, src) {
					t.Fatalf("side %v n=%d level %d: differs at %d", side, n, lvl, golden.FirstDiff(got, src))
				}
			}
			buf.Free()
		}
	}
}
