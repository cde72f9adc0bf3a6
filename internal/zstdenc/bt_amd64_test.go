//go:build !purego && !noasm && gc

package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// btlazy2's sort and search walks and update loop in assembly write the
// frames the Go loops write: every test input, shuffled float series
// and noise with copies, at the btlazy2 levels, with libzstd's tables
// and with tiny ones (a tree of 64 positions, so that walks meet btLow,
// and search budgets of 2 and 64), with and without a dictionary, one
// reused encoder each. The walks against guard pages are
// TestSrcAgainstGuardPages (levels 11, 13, 15).
func TestBtAsmMatchesGo(t *testing.T) {
	skipUnderRace(t)
	defer func() { useBtAsm = true }()
	dict := golden.MustPattern(t, "text", 4<<10)
	inputs := testInputs(t)
	for _, name := range []string{"sensor_f64", "sparse_f64", "text", "linspace_f64"} {
		inputs["shuffled/"+name] = golden.Shuffled(golden.MustPattern(t, name, 96<<10), 8)
	}
	// Noise with copies of earlier stretches, some ending at the very
	// end of the input (the compare's tail) and some equal to it.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1000, 40 << 10} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(4))
		}
		for i := 300; i+64 < n; i += 64 + rng.IntN(700) {
			from := rng.IntN(i - 32)
			copy(src[i:i+4+rng.IntN(60)], src[from:])
		}
		copy(src[n-40:], src[n-200:])
		inputs["copies/"+string(rune('a'+n%26))] = src
	}
	ran := btAsmAgainstGo(t, inputs, dict, []int{11, 13, 15}, 32<<10, func(strat uint8) bool { return strat == stratBtlazy2 })
	if ran < 50 {
		t.Fatalf("only %d frames of 32 KiB or more at btlazy2", ran)
	}
}

// FuzzBtAsmMatchesGo: btlazy2's sort and search walks and update loop
// in assembly against the Go loops on any input and dictionary with the tables of levels 11, 13
// and 15 (btlazy2 whatever the input's size), small trees and budgets.
func FuzzBtAsmMatchesGo(f *testing.F) {
	addTreeSeeds(f)
	defer func() { useBtAsm = true }()
	var asm, gol Encoder
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data))
		dict, src := data[:dl], data[dl:]
		lvl := []int{11, 13, 15}[int(level&3)%3]
		// The level's tables with btlazy2 (libzstd runs it at these
		// levels only on larger sources than a fuzz input).
		p := paramsFor(lvl, len(src), len(dict))
		p.strat = stratBtlazy2
		// Small trees (64 to 512 positions) and budgets (2 to 64):
		// walks that meet btLow and the budget, and quick runs.
		p.clog, p.hlog = 7+(level>>2)&3, 6
		p.slog = 1 + (level>>4)%6
		asm.override, gol.override = &p, &p
		useBtAsm = true
		a = asm.EncodeDict(a[:0], src, dict, lvl)
		useBtAsm = false
		g = gol.EncodeDict(g[:0], src, dict, lvl)
		useBtAsm = true
		if !bytes.Equal(a, g) {
			t.Fatalf("level %d, %d bytes, dictionary %d: assembly frame %d bytes, Go %d, first difference at %d",
				lvl, len(src), len(dict), len(a), len(g), golden.FirstDiff(a, g))
		}
	})
}

// The optimal parser's tree walk in assembly (optWalkAsm) writes the
// frames the Go walk writes: every test input, shuffled series and
// noise with copies, at the btopt, btultra and btultra2 levels, with
// libzstd's tables and with tiny ones (a tree of 64 positions, so that
// walks meet btLow, and budgets of 2 and 64), with and without a
// dictionary. The walk against guard pages is TestSrcAgainstGuardPages
// (levels 16, 19, 22).
func TestOptWalkAsmMatchesGo(t *testing.T) {
	skipUnderRace(t)
	defer func() { useBtAsm = true }()
	dict := golden.MustPattern(t, "text", 4<<10)
	inputs := testInputs(t)
	for _, name := range []string{"sensor_f64", "text", "linspace_f64"} {
		inputs["shuffled/"+name] = golden.Shuffled(golden.MustPattern(t, name, 48<<10), 8)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1000, 20 << 10} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(4))
		}
		for i := 300; i+64 < n; i += 64 + rng.IntN(700) {
			from := rng.IntN(i - 32)
			copy(src[i:i+4+rng.IntN(60)], src[from:])
		}
		copy(src[n-40:], src[n-200:])
		inputs["copies/"+string(rune('a'+n%26))] = src
	}
	// A long repetition: matches past the parser's window of optNum.
	long := make([]byte, 3*optNum)
	for i := range long {
		long[i] = byte(i % 251)
	}
	inputs["long"] = long
	for name, src := range inputs {
		if len(src) > 64<<10 {
			delete(inputs, name) // the deep levels' large inputs cost the most here
		}
	}
	ran := btAsmAgainstGo(t, inputs, dict, []int{16, 19, 22}, 16<<10, func(strat uint8) bool { return strat >= stratBtopt })
	if ran < 30 {
		t.Fatalf("only %d frames of 16 KiB or more at the optimal parser's levels", ran)
	}
}

// FuzzOptWalkAsmMatchesGo: the optimal parser's tree walk in assembly
// against the Go walk on any input and dictionary at levels 16, 19 and
// 22 (btopt, btultra, btultra2 whatever the input's size), small trees
// and budgets.
func FuzzOptWalkAsmMatchesGo(f *testing.F) {
	addTreeSeeds(f)
	defer func() { useBtAsm = true }()
	var asm, gol Encoder
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data))
		dict, src := data[:dl], data[dl:]
		lvl := []int{16, 19, 22}[int(level&3)%3]
		strat := []uint8{stratBtopt, stratBtultra, stratBtultra2}[int(level&3)%3]
		p := paramsFor(lvl, len(src), len(dict))
		p.strat = strat
		p.clog, p.hlog = 7+(level>>2)&3, 6
		p.slog = 1 + (level>>4)%6
		asm.override, gol.override = &p, &p
		useBtAsm = true
		a = asm.EncodeDict(a[:0], src, dict, lvl)
		useBtAsm = false
		g = gol.EncodeDict(g[:0], src, dict, lvl)
		useBtAsm = true
		if !bytes.Equal(a, g) {
			t.Fatalf("level %d, %d bytes, dictionary %d: assembly frame %d bytes, Go %d, first difference at %d",
				lvl, len(src), len(dict), len(a), len(g), golden.FirstDiff(a, g))
		}
	})
}

// btAsmAgainstGo encodes every input at every level whose strategy keep
// accepts, with libzstd's tables and with tiny ones (a tree of 64
// positions and search budgets of 2 and 64), with and without dict, the
// tree walks in assembly and in Go, one reused encoder each, and fails
// the test where the frames differ. It returns how many of those frames
// were of at least big bytes.
func btAsmAgainstGo(t *testing.T, inputs map[string][]byte, dict []byte, levels []int, big int, keep func(strat uint8) bool) int {
	t.Helper()
	defer func() { useBtAsm = true }()
	var asm, gol Encoder
	ran := 0
	for name, src := range inputs {
		for _, lvl := range levels {
			for _, small := range []int{0, 2, 64} {
				for _, d := range [][]byte{nil, dict} {
					p := paramsFor(lvl, len(src), len(d))
					if !keep(p.strat) {
						continue
					}
					var po *cparams
					if small > 0 {
						p.clog, p.hlog = 7, 6
						p.slog = uint8(highbit(uint32(small)))
						po = &p
					}
					asm.override, gol.override = po, po
					if len(src) >= big {
						ran++
					}
					useBtAsm = true
					a := asm.EncodeDict(nil, src, d, lvl)
					useBtAsm = false
					g := gol.EncodeDict(nil, src, d, lvl)
					if !bytes.Equal(a, g) {
						t.Errorf("%s level %d small %d dict %v: assembly frame %d bytes, Go %d, first difference at %d",
							name, lvl, small, d != nil, len(a), len(g), golden.FirstDiff(a, g))
					}
				}
			}
		}
	}
	return ran
}

// addTreeSeeds gives the tree walks' fuzz targets their seeds: shuffled
// patterns with levels picking each strategy, tiny tables and budgets,
// and dictionaries.
func addTreeSeeds(f *testing.F) {
	for _, name := range []string{"text", "sensor_f64", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 8)
		f.Add(src, uint8(0), uint16(0))
		f.Add(src, uint8(1), uint16(700))
		f.Add(src, uint8(0x80|2), uint16(0))
		f.Add(src, uint8(0xF0|1), uint16(100))
	}
}
