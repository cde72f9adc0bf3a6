//go:build !purego && !noasm && gc

package zstdenc

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
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

// checkSeqCodes holds seqCodesAsm to the Go pass on sq from the repeat
// offsets r: the codes, their counts, the offsets' extra bits and the
// repeat offsets left.
func checkSeqCodes(t *testing.T, sq []seq, r [3]uint32) {
	t.Helper()
	var a, g Encoder
	for _, e := range []*Encoder{&a, &g} {
		e.seqs = append([]seq(nil), sq...)
		e.llCodes = make([]uint8, len(sq))
		e.ofCodes = make([]uint8, len(sq))
		e.mlCodes = make([]uint8, len(sq))
		e.rep = r
	}
	haveSeqBitsAsm = true
	a.seqCodes()
	haveSeqBitsAsm = false
	g.seqCodes()
	haveSeqBitsAsm = true
	if !slices.Equal(a.seqs, g.seqs) || !bytes.Equal(a.llCodes, g.llCodes) || !bytes.Equal(a.ofCodes, g.ofCodes) ||
		!bytes.Equal(a.mlCodes, g.mlCodes) || a.counts != g.counts || a.nextRep != g.nextRep {
		for i := range sq {
			if a.seqs[i] != g.seqs[i] || a.ofCodes[i] != g.ofCodes[i] || a.llCodes[i] != g.llCodes[i] || a.mlCodes[i] != g.mlCodes[i] {
				t.Fatalf("%d sequences from %v: sequence %d %+v: assembly %+v codes %d %d %d, Go %+v codes %d %d %d",
					len(sq), r, i, sq[i], a.seqs[i], a.llCodes[i], a.ofCodes[i], a.mlCodes[i],
					g.seqs[i], g.llCodes[i], g.ofCodes[i], g.mlCodes[i])
			}
		}
		t.Fatalf("%d sequences from %v: counts or repeat offsets differ (assembly %v, Go %v)", len(sq), r, a.nextRep, g.nextRep)
	}
}

// seqCodesAsm takes new offsets without the repeat choice until more
// than a 16th of the offsets so far were repeat candidates, then the
// choice alone: sequences with every rate of repeat candidates (none,
// a few, a block that turns repetitive halfway), of each kind (r0,
// r1, r2, r0-1, with and without literals), long and short lengths.
func TestSeqCodesAsmMatchesGo(t *testing.T) {
	if !haveSeqBitsAsm {
		t.Skip("SKIPPED: no BMI2 on this CPU")
	}
	defer func() { haveSeqBitsAsm = true }()
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(3000)
		rate := []int{0, 1, 4, 6, 10, 30, 100}[trial%7]
		half := trial%3 == 0
		r := [3]uint32{1, 4, 8}
		if trial%5 == 0 {
			r = [3]uint32{1 + uint32(rng.IntN(100)), 2 + uint32(rng.IntN(100)), 3 + uint32(rng.IntN(100))}
		}
		cur := r
		sq := make([]seq, n)
		for i := range sq {
			s := &sq[i]
			if rng.IntN(3) > 0 {
				s.ll = uint32(rng.IntN(40))
				if rng.IntN(20) == 0 {
					s.ll = uint32(rng.IntN(1 << 17))
				}
			}
			s.ml = 3 + uint32(rng.IntN(60))
			if rng.IntN(20) == 0 {
				s.ml = 3 + uint32(rng.IntN(1<<17))
			}
			s.offset = 1 + uint32(rng.IntN(1<<17))
			if r := rate; (!half || i > n/2) && rng.IntN(100) < r {
				switch rng.IntN(4) {
				case 0:
					s.offset = cur[0]
				case 1:
					s.offset = cur[1]
				case 2:
					s.offset = cur[2]
				default:
					s.offset = max(cur[0]-1, 1)
				}
			}
			// Follow the decoder's offsets as the Go pass does, so that
			// later candidates are the current ones.
			o := s.offset
			switch {
			case s.ll > 0 && o == cur[0]:
			case (s.ll > 0 && o == cur[1]) || (s.ll == 0 && o == cur[1]):
				cur[0], cur[1] = o, cur[0]
			default:
				cur[0], cur[1], cur[2] = o, cur[0], cur[1]
			}
		}
		checkSeqCodes(t, sq, r)
	}
}

// FuzzSeqCodesAsmMatchesGo: seqCodesAsm is the Go pass on any
// sequences (12 bytes each: literal and match lengths, and an offset
// that is a repeat candidate when its top bits say so).
func FuzzSeqCodesAsmMatchesGo(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0x80})
	f.Add(bytes.Repeat([]byte{0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0xC0}, 40))
	defer func() { haveSeqBitsAsm = true }()
	f.Fuzz(func(t *testing.T, data []byte) {
		if !haveSeqBitsAsm {
			t.Skip("SKIPPED: no BMI2 on this CPU")
		}
		n := len(data) / 12
		if n == 0 {
			return
		}
		r := [3]uint32{1, 4, 8}
		cur := r
		sq := make([]seq, n)
		for i := range sq {
			d := data[12*i:]
			s := &sq[i]
			s.ll = binary.LittleEndian.Uint32(d) & (1<<17 - 1)
			s.ml = 3 + binary.LittleEndian.Uint32(d[4:])&(1<<17-1)
			o := binary.LittleEndian.Uint32(d[8:])
			switch o >> 30 {
			case 0:
				s.offset = 1 + o&(1<<17-1)
			case 1:
				s.offset = cur[o&1]
			case 2:
				s.offset = cur[2]
			default:
				s.offset = max(cur[0]-1, 1)
			}
			o = s.offset
			switch {
			case s.ll > 0 && o == cur[0]:
			case o == cur[1]:
				cur[0], cur[1] = o, cur[0]
			default:
				cur[0], cur[1], cur[2] = o, cur[0], cur[1]
			}
		}
		checkSeqCodes(t, sq, r)
	})
}
