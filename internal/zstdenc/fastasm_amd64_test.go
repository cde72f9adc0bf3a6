//go:build !purego && !noasm && gc

package zstdenc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// The fast and double fast strategies in assembly, with the entropy
// stage's loops in assembly, write the frames the Go loops write:
// every test input, with libzstd's tables and with small ones (many
// collisions, candidates from earlier frames), with and without a
// dictionary, one reused encoder each.
func TestFastAsmMatchesGo(t *testing.T) {
	skipUnderRace(t)
	seqAsm := haveSeqBitsAsm
	defer func() { useFastAsm, haveSeqBitsAsm = true, seqAsm }()
	dict := golden.MustPattern(t, "text", 4<<10)
	inputs := testInputs(t)
	// Noise with copies of earlier stretches after gaps of every length:
	// the search's step grows through the gaps, and matches meet it at
	// every step and at both positions of a turn.
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3000, 70 << 10} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		for i := 600; i+64 < n; i += 64 + rng.IntN(2000) {
			from := rng.IntN(i - 32)
			copy(src[i:i+4+rng.IntN(60)], src[from:])
		}
		inputs[fmt.Sprintf("gaps/%d", n)] = src
	}
	// A literal run of 70000 bytes, then a 40000-byte match at offset
	// 69000 (16, 15 and 16 extra bits, with the states' 17 more than
	// the accumulator holds), then a short one: the sequence bit stream
	// must flush before the match length's extra bits.
	far := make([]byte, 128<<10)
	for i := range far {
		far[i] = byte(rng.Uint32())
	}
	copy(far[70000:110000], far[1000:])
	copy(far[120000:120064], far[200:])
	inputs["far"] = far
	var asm, gol Encoder
	ran := false
	defer func() { dfastFree = 0 }()
	for name, src := range inputs {
		for _, lvl := range []int{1, 2, 3, 4} {
			for _, small := range []bool{false, true} {
				for k, d := range [][]byte{nil, dict} {
					// The double fast search with and without branches
					// on the table entries.
					dfastFree = int8(2*k - 1)
					var po *cparams
					if small {
						p := paramsFor(lvl, len(src), len(d))
						p.hlog, p.clog = 8, 7
						po = &p
					}
					asm.override, gol.override = po, po
					useFastAsm = true
					a := asm.EncodeDict(nil, src, d, lvl)
					// The Go loops of the finders and of the entropy
					// stage.
					useFastAsm, haveSeqBitsAsm = false, false
					g := gol.EncodeDict(nil, src, d, lvl)
					haveSeqBitsAsm = seqAsm
					if !bytes.Equal(a, g) {
						t.Errorf("%s level %d small %v dict %v: assembly frame %d bytes, Go %d, first difference at %d",
							name, lvl, small, d != nil, len(a), len(g), golden.FirstDiff(a, g))
					}
					ran = ran || len(src) >= 64<<10
				}
			}
		}
	}
	// The assembly must have run: a source it takes writes the same
	// frame through fastAsm as through fast.
	useFastAsm = true
	var e Encoder
	src := golden.Shuffled(golden.MustPattern(t, "f32_noise", 64<<10), 4)
	e.p = paramsFor(1, len(src), 0)
	e.strategy = int(e.p.strat)
	e.reset(len(src))
	e.seqs, e.lits = e.seqs[:0], e.lits[:0]
	if !e.fastAsm(src, e.hashT, newHasher(min(max(e.p.minMatch, 4), 8), e.p.hlog), 0, len(src)) || !ran {
		t.Fatal("fastAsm declined a 64 KiB source")
	}
	e.p = paramsFor(3, len(src), 0)
	e.strategy = int(e.p.strat)
	e.reset(len(src))
	e.seqs, e.lits = e.seqs[:0], e.lits[:0]
	hL, hS := newHasher(8, e.p.hlog), newHasher(min(max(e.p.minMatch, 4), 8), e.p.clog)
	if e.strategy != stratDfast || !e.dfastAsm(src, e.hashT, e.hashL, hL, hS, 0, len(src)) {
		t.Fatal("dfastAsm declined a 64 KiB source at level 3")
	}
}

// The double fast loop in assembly after btlazy2 on the same encoder:
// the tree leaves its unsorted mark (all ones) in the tables, which the
// Go loop takes for an earlier frame's entry (int32(entry-base) below
// 0), and so must the assembly, whose test of an entry is not a branch.
func TestDfastAsmAfterTree(t *testing.T) {
	skipUnderRace(t)
	seqAsm := haveSeqBitsAsm
	defer func() { useFastAsm, haveSeqBitsAsm = true, seqAsm }()
	defer func() { dfastFree = 0 }()
	tree := golden.Shuffled(golden.MustPattern(t, "sensor_f64", 256<<10), 8)
	var asm, gol Encoder
	for k, name := range []string{"text", "sensor_f32", "runs"} {
		dfastFree = int8(k%2*2 - 1)
		src := golden.Shuffled(golden.MustPattern(t, name, 64<<10), 4)
		for _, lvl := range []int{13, 11} {
			asm.Encode(nil, tree, lvl)
			gol.Encode(nil, tree, lvl)
			for _, p := range []int{0, 32 << 10} {
				dfastFree = -dfastFree
				useFastAsm = true
				a := asm.Encode(nil, src[p:p+32<<10], 3)
				useFastAsm, haveSeqBitsAsm = false, false
				g := gol.Encode(nil, src[p:p+32<<10], 3)
				useFastAsm, haveSeqBitsAsm = true, seqAsm
				if !bytes.Equal(a, g) {
					t.Errorf("%s after level %d, plane at %d: assembly frame %d bytes, Go %d, first difference at %d",
						name, lvl, p, len(a), len(g), golden.FirstDiff(a, g))
				}
			}
		}
	}
	marks := 0
	for _, v := range asm.hashL[:cap(asm.hashL)] {
		if v == btUnsorted {
			marks++
		}
	}
	if marks == 0 {
		t.Fatal("no unsorted marks left in the tables: the test tests nothing")
	}
}

// FuzzAsmMatchesGo: the assembly loops (the fast and double fast
// finders, the sequence codes and bit stream, the Huffman streams) write
// the frames the Go loops write, for any input and dictionary at levels
// 1-5 (level 5 for the entropy loops after another finder); level's bit
// 0x40 runs the double fast search with branches on the table entries,
// else without.
func FuzzAsmMatchesGo(f *testing.F) {
	for _, name := range []string{"text", "f32_noise", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		f.Add(src, uint8(1), uint16(0))
		f.Add(src, uint8(3), uint16(700))
		f.Add(src, uint8(0x80|2), uint16(0))
		f.Add(src, uint8(0x40|2), uint16(0))
	}
	seqAsm := haveSeqBitsAsm
	defer func() { useFastAsm, haveSeqBitsAsm = true, seqAsm }()
	defer func() { dfastFree = 0 }()
	var asm, gol Encoder
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data))
		dict, src := data[:dl], data[dl:]
		lvl := int(level&0x3F)%5 + 1
		dfastFree = 1
		if level&0x40 != 0 {
			dfastFree = -1
		}
		var po *cparams
		if level&0x80 != 0 {
			// Tiny tables: collisions and candidates from earlier frames.
			p := paramsFor(lvl, len(src), len(dict))
			p.hlog, p.clog = 6, 6
			po = &p
		}
		asm.override, gol.override = po, po
		useFastAsm, haveSeqBitsAsm = true, seqAsm
		a = asm.EncodeDict(a[:0], src, dict, lvl)
		useFastAsm, haveSeqBitsAsm = false, false
		g = gol.EncodeDict(g[:0], src, dict, lvl)
		useFastAsm, haveSeqBitsAsm = true, seqAsm
		if !bytes.Equal(a, g) {
			t.Fatalf("level %d, %d bytes, dictionary %d: assembly frame %d bytes, Go %d, first difference at %d",
				lvl, len(src), len(dict), len(a), len(g), golden.FirstDiff(a, g))
		}
	})
}

// The double fast loop in assembly, both searches, on sources that end
// or start at a guard page: it reads nothing outside them (a read past
// faults) and writes the Go loop's frames.
func TestDfastAsmAgainstGuardPages(t *testing.T) {
	skipUnderRace(t)
	seqAsm := haveSeqBitsAsm
	defer func() { useFastAsm, haveSeqBitsAsm, dfastFree = true, seqAsm, 0 }()
	rng := rand.New(rand.NewPCG(13, 14))
	var asm, gol Encoder
	for _, side := range []guard.Side{guard.Start, guard.End} {
		for _, n := range []int{32, 33, 63, 64, 65, 1000, 4097, 32 << 10, 70 << 10} {
			buf := guard.New(n, side)
			src := buf.Bytes
			for i := range src {
				if i%97 < 60 {
					src[i] = byte(i % 7)
				} else {
					src[i] = byte(rng.Uint32())
				}
			}
			for k, free := range []int8{-1, 1, -1, 1} {
				if k == 2 {
					// Runs of hundreds of bytes up to the end: the
					// extension's 32-byte steps meet the guard page.
					for i := range src {
						src[i] = byte(i / 300 % 3)
					}
				}
				for _, lvl := range []int{2, 3} {
					dfastFree, useFastAsm, haveSeqBitsAsm = free, true, seqAsm
					a := asm.Encode(nil, src, lvl)
					useFastAsm, haveSeqBitsAsm = false, false
					g := gol.Encode(nil, src, lvl)
					if !bytes.Equal(a, g) {
						t.Errorf("side %v n=%d level %d free %d: assembly frame %d bytes, Go %d, first difference at %d",
							side, n, lvl, free, len(a), len(g), golden.FirstDiff(a, g))
					}
				}
			}
			buf.Free()
		}
	}
}

// fastBlockAsm reads fastDummy's bytes for a stale candidate and checks
// the candidate again where they equal the position's: a frame whose
// positions start with those bytes, after a frame that filled the table,
// meets stale candidates there (the first of each fifth byte's bucket)
// as well as real ones; the frames must be the Go loop's.
func TestFastAsmStaleDummy(t *testing.T) {
	skipUnderRace(t)
	seqAsm := haveSeqBitsAsm
	defer func() { useFastAsm, haveSeqBitsAsm = true, seqAsm }()
	rng := rand.New(rand.NewPCG(7, 8))
	noise := make([]byte, 32<<10)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	src := make([]byte, 32<<10)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	dummy := []byte{0x78, 0x56, 0x34, 0x12}
	for i := 0; i+8 <= len(src); i += 5 + rng.IntN(24) {
		copy(src[i:], dummy)
		src[i+4] = byte(rng.Uint32())
	}
	for _, small := range []bool{false, true} {
		var asm, gol Encoder
		var po *cparams
		if small {
			p := paramsFor(1, len(src), 0)
			p.hlog = 8
			po = &p
		}
		asm.override, gol.override = po, po
		for i, in := range [][]byte{noise, src, noise, src} {
			useFastAsm, haveSeqBitsAsm = true, seqAsm
			a := asm.Encode(nil, in, 1)
			useFastAsm, haveSeqBitsAsm = false, false
			g := gol.Encode(nil, in, 1)
			if !bytes.Equal(a, g) {
				t.Errorf("small %v frame %d: assembly frame %d bytes, Go %d, first difference at %d",
					small, i, len(a), len(g), golden.FirstDiff(a, g))
			}
		}
	}
}
