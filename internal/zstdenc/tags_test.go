package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
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

// TestRowSearch64AsmAgainstGo encodes with rows of 64 (levels 7-12 give
// search logs of 6 at some sizes, rows from any window) through rowSearch64's assembly and through its
// Go code, which must write the same bytes, on sources ending at a guard
// page (the search reads up to the end of the block and the prefetch
// looks 16 bytes on) and matching up to their last byte. Where the
// assembly is not built both runs take the Go code.
func TestRowSearch64AsmAgainstGo(t *testing.T) {
	skipUnderRace(t)
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	rng := rand.New(rand.NewPCG(5, 6))
	var a, g Encoder
	a.rowsFrom, g.rowsFrom = 10, 10
	for _, n := range []int{9, 16, 17, 100, 4095, 70000, 300 << 10} {
		buf := guard.New(n, guard.End)
		src := buf.Bytes
		for i := range src {
			switch {
			case i%4000 < 1500:
				src[i] = byte(i % 13)
			case i%4000 < 3000:
				src[i] = byte(rng.Uint32() & 15)
			default:
				src[i] = byte(rng.Uint32())
			}
		}
		hits := 0
		for _, lvl := range []int{7, 8, 10, 11, 12} {
			useRowAsm = asm
			fa := a.Encode(nil, src, lvl)
			useRowAsm = false
			fg := g.Encode(nil, src, lvl)
			if a.rows && a.rowLg == 6 {
				hits++
			}
			if !bytes.Equal(fa, fg) {
				t.Fatalf("n=%d level %d: assembly %d bytes, Go %d, differ at %d", n, lvl, len(fa), len(fg), golden.FirstDiff(fa, fg))
			}
		}
		if n >= 4095 && hits == 0 {
			t.Fatalf("n=%d: no level searched rows of 64", n)
		}
		buf.Free()
	}
}
