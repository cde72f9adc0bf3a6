//go:build !purego && !noasm && gc

package zstdenc

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/goblosc/blosc/internal/golden"
)

// The assembly sequence loop writes the bit streams the Go loop writes:
// every test input at levels with each strategy, one reused encoder
// each (tables repeated across blocks and frames), and a seq laid out as
// the assembly reads it (16 bytes, which it steps by a shift).
func TestSeqBitsAsmMatchesGo(t *testing.T) {
	skipUnderRace(t)
	if unsafe.Sizeof(seq{}) != 16 {
		t.Fatalf("seq is %d bytes; encodeSeqsAsm steps by 16", unsafe.Sizeof(seq{}))
	}
	if !haveSeqBitsAsm {
		t.Skip("SKIPPED: no BMI2 on this CPU")
	}
	defer func() { haveSeqBitsAsm = true }()
	var asm, gol Encoder
	for name, src := range testInputs(t) {
		for _, lvl := range []int{1, 3, 5, 9, 13} {
			if lvl >= 13 && len(src) > 64<<10 {
				continue
			}
			haveSeqBitsAsm = true
			a := asm.Encode(nil, src, lvl)
			haveSeqBitsAsm = false
			g := gol.Encode(nil, src, lvl)
			if !bytes.Equal(a, g) {
				t.Errorf("%s level %d: assembly frame %d bytes, Go %d, first difference at %d",
					name, lvl, len(a), len(g), golden.FirstDiff(a, g))
			}
		}
	}
}
