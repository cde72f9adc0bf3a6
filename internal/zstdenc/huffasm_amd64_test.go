//go:build !purego && !noasm && gc

package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// huffStreamsBothWays codes src with a table built from its own counts
// (limited to limit bits) through the assembly (one stream, or four in
// pairs) and through the Go loops, and returns both.
func huffStreamsBothWays(t testing.TB, src []byte, limit uint8, four bool) (asm, gol []byte) {
	var count [256]uint32
	countBytes(&count, src)
	maxSym := 255
	for maxSym > 0 && count[maxSym] == 0 {
		maxSym--
	}
	present := 0
	for _, c := range count {
		if c != 0 {
			present++
		}
	}
	if present < 2 {
		return nil, nil
	}
	var hb huffBuilder
	var tab huffCTable
	hb.build(&tab, &count, maxSym, limit)
	if !haveSeqBitsAsm {
		t.Skip("SKIPPED: no BMI2 on this CPU")
	}
	defer func() { haveSeqBitsAsm = true }()
	room := 6 + 4*(2*len(src)+8) + 64
	a := make([]byte, room)
	g := make([]byte, room)
	haveSeqBitsAsm = true
	na := huffStreams(a, src, &tab, four)
	haveSeqBitsAsm = false
	ng := huffStreams(g, src, &tab, four)
	return a[:na], g[:ng]
}

// The Huffman streams in assembly (huffStreamAsm, and huffPairAsm two
// streams at a time, the last part up to 3 literals shorter than its
// pair) write the Go loops' bytes: every length from 12 to 300 and some
// around the plane sizes, codes of up to 11 bits and of up to 8, one
// stream and four, the literals flush against a guard page on either
// side so that an over-read faults.
func TestHuffStreamsAsmMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var lengths []int
	for n := 12; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 4093, 4094, 4095, 4096, 32<<10-1, 32<<10, 32<<10+1, 32<<10+2, 32<<10+3)
	for _, side := range []guard.Side{guard.Start, guard.End} {
		for _, n := range lengths {
			buf := guard.New(n, side)
			src := buf.Bytes
			for _, skew := range []int{0, 3, 9} {
				for i := range src {
					// skew 0: about uniform (8-bit codes and shorter);
					// larger: a few symbols common, many rare (11 bits).
					src[i] = byte(rng.IntN(256) >> uint(rng.IntN(skew+1)))
				}
				for _, limit := range []uint8{8, huffMaxLog} {
					for _, four := range []bool{false, true} {
						a, g := huffStreamsBothWays(t, src, limit, four)
						if !bytes.Equal(a, g) {
							t.Fatalf("side %v n=%d skew %d limit %d four %v: assembly %d bytes, Go %d, first difference at %d",
								side, n, skew, limit, four, len(a), len(g), golden.FirstDiff(a, g))
						}
					}
				}
			}
			buf.Free()
		}
	}
}

// FuzzHuffStreamsAsmMatchesGo: the same on any literals, with the table
// built from their own counts.
func FuzzHuffStreamsAsmMatchesGo(f *testing.F) {
	f.Add(golden.Shuffled(golden.MustPattern(f, "f32_noise", 3000), 4), uint8(11), true)
	f.Add([]byte("zstd codes literals in four streams behind a jump table"), uint8(8), true)
	f.Fuzz(func(t *testing.T, src []byte, limit uint8, four bool) {
		limit = 8 + limit%4
		a, g := huffStreamsBothWays(t, src, limit, four)
		if !bytes.Equal(a, g) {
			t.Fatalf("%d literals, limit %d, four %v: assembly %d bytes, Go %d, first difference at %d",
				len(src), limit, four, len(a), len(g), golden.FirstDiff(a, g))
		}
	})
}
