package lz4

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	pierrec "github.com/pierrec/lz4/v4"
)

// Every level round-trips on every pattern, fits the bound, and with less
// room either fits or returns 0, never writing past dst.
func TestHCRoundTrip(t *testing.T) {
	var c HCCompressor
	for _, name := range golden.Names {
		for _, n := range []int{0, 5, 13, 1000, 70000} {
			src, err := golden.Pattern(name, n)
			if err != nil {
				t.Fatal(err)
			}
			for level := 0; level <= MaxHCLevel+1; level++ {
				for _, room := range []int{CompressBlockBound(n), n, n / 3} {
					buf := make([]byte, room+16)
					for i := range buf {
						buf[i] = 0xA5
					}
					k := c.CompressBlockHC(buf[:room], src, level)
					for i := room; i < len(buf); i++ {
						if buf[i] != 0xA5 {
							t.Fatalf("%s n=%d level %d room %d: wrote past dst at %d", name, n, level, room, i)
						}
					}
					if k == 0 {
						if room == CompressBlockBound(n) {
							t.Fatalf("%s n=%d level %d: nothing within the bound", name, n, level)
						}
						continue
					}
					back := make([]byte, n)
					m, err := pierrec.UncompressBlock(buf[:k], back)
					if err != nil || m != n || !bytes.Equal(back, src) {
						t.Fatalf("%s n=%d level %d room %d: round trip: %d, %v", name, n, level, room, m, err)
					}
				}
			}
		}
	}
}

// FuzzHCRoundTrip: any input at any level decodes back to itself.
func FuzzHCRoundTrip(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabcabcabcabcabc xyz"), uint8(9))
	f.Add(bytes.Repeat([]byte{7}, 300), uint8(9))
	var c HCCompressor
	f.Fuzz(func(t *testing.T, src []byte, level uint8) {
		dst := make([]byte, CompressBlockBound(len(src)))
		k := c.CompressBlockHC(dst, src, int(level%12))
		if k == 0 {
			t.Fatalf("%d bytes did not fit the bound", len(src))
		}
		back := make([]byte, len(src))
		if m, err := pierrec.UncompressBlock(dst[:k], back); err != nil || m != len(src) || !bytes.Equal(back, src) {
			t.Fatalf("round trip: %d, %v", m, err)
		}
	})
}

func ExampleHCCompressor() {
	var c HCCompressor
	src := bytes.Repeat([]byte("blosc "), 100)
	dst := make([]byte, CompressBlockBound(len(src)))
	n := c.CompressBlockHC(dst, src, 9)
	fmt.Println(len(src), "->", n)
	// Output: 600 -> 18
}

// insertRange (in assembly on amd64) fills the tables as the portable
// insertRangeGo does: from tables already holding earlier positions, for
// ranges of every length up to a few steps and long ones, ending at the
// last position that has 4 bytes, on runs (equal hashes in a row, the
// chain's cap) and on varied bytes.
func TestInsertRangeVersusGo(t *testing.T) {
	var asm, port HCCompressor
	rng := rand.New(rand.NewPCG(1, 2))
	for _, runs := range []bool{false, true} {
		src := make([]byte, 200000)
		for i := range src {
			if runs {
				src[i] = byte(i >> 9)
			} else {
				src[i] = byte(rng.IntN(5))
			}
		}
		clear(asm.hash[:])
		clear(port.hash[:])
		idx := uint32(hcStart)
		end := uint32(len(src)-3) + hcStart
		for idx < end {
			n := uint32(rng.IntN(9))
			if rng.IntN(8) == 0 {
				n = uint32(rng.IntN(70000))
			}
			target := min(idx+n, end)
			insertRange(src, &asm.hash, &asm.chain, idx, target)
			insertRangeGo(src, &port.hash, &port.chain, idx, target)
			if asm.hash != port.hash || asm.chain != port.chain {
				t.Fatalf("runs=%v: inserting %d..%d, the tables differ", runs, idx, target)
			}
			idx = target
		}
	}
}
