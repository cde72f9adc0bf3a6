package zstdenc

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refFSEBuild is fseCTable.build as it was before its spread went
// through the symbols laid out in order: one symbol's slot a step, each
// symbol's count a loop. The tests hold the build to its tables.
func refFSEBuild(t *fseCTable, norm []int16, log uint8) {
	size := 1 << log
	mask := size - 1
	high := size - 1
	var start [65]int
	var symbols [1 << 9]uint8
	maxSym := len(norm) - 1
	for s := 0; s <= maxSym; s++ {
		if norm[s] == -1 {
			start[s+1] = start[s] + 1
			symbols[high] = uint8(s)
			high--
		} else {
			start[s+1] = start[s] + int(norm[s])
		}
	}
	step := size>>1 + size>>3 + 3
	pos := 0
	if high == mask {
		// No low-probability symbol: every step lands in the table.
		// (Indexes masked to the arrays' sizes: no bounds checks.)
		for s := 0; s <= maxSym; s++ {
			for n := norm[s]; n > 0; n-- {
				symbols[pos&(len(symbols)-1)] = uint8(s)
				pos = (pos + step) & mask
			}
		}
	} else {
		for s := 0; s <= maxSym; s++ {
			for n := norm[s]; n > 0; n-- {
				symbols[pos&(len(symbols)-1)] = uint8(s)
				pos = (pos + step) & mask
				for pos > high {
					pos = (pos + step) & mask
				}
			}
		}
	}
	// Each symbol's states in order of u, its counter in start. Two a
	// turn, both counters read before either is stored: when one
	// symbol holds most of the table, consecutive slots are often its
	// own, and each read of its counter waited on the store before it.
	// The second read is one short when both slots are the symbol's.
	// (size is at least 32.)
	for u := 0; u < size; u += 2 {
		s0 := symbols[u&(len(symbols)-1)] & 63
		s1 := symbols[(u+1)&(len(symbols)-1)] & 63
		i0, i1 := start[s0], start[s1]
		same := 0
		if s0 == s1 {
			same = 1
		}
		i1 += same
		t.states[i0&(len(t.states)-1)] = uint16(size + u)
		t.states[i1&(len(t.states)-1)] = uint16(size + u + 1)
		start[s0] = i0 + 1
		start[s1] = i1 + 1
	}
	total := int32(0)
	for s := 0; s <= maxSym; s++ {
		n := norm[s]
		switch n {
		case 0:
			t.tt[s] = symTT{deltaNbBits: uint32(log+1)<<16 - uint32(size)}
		case -1, 1:
			t.tt[s] = symTT{deltaNbBits: uint32(log)<<16 - uint32(size), deltaFind: total - 1}
			total++
		default:
			maxOut := uint32(log) - uint32(highbit(uint32(n-1)))
			minStatePlus := uint32(n) << maxOut
			t.tt[s] = symTT{deltaNbBits: maxOut<<16 - minStatePlus, deltaFind: total - int32(n)}
			total += int32(n)
		}
	}
	t.log = log
	t.maxSym = uint8(maxSym)
	copy(t.norm[:], norm)
	for s := maxSym + 1; s < len(t.norm); s++ {
		t.norm[s] = 0
	}
}

// checkFSEBuild builds norm both ways and fails on any difference in the
// tables the encoder reads.
func checkFSEBuild(t *testing.T, norm []int16, log uint8) {
	t.Helper()
	var got, want fseCTable
	// Stale contents from another table must not show through.
	for i := range got.states {
		got.states[i] = 0xBEEF
	}
	got.build(norm, log)
	refFSEBuild(&want, norm, log)
	size := 1 << log
	if got.log != want.log || got.maxSym != want.maxSym || got.norm != want.norm ||
		!slices.Equal(got.states[:size], want.states[:size]) || got.tt != want.tt {
		t.Fatalf("norm %v log %d: build differs from the reference", norm, log)
	}
}

// fseNormOf normalises the counts drawn from data as the encoder does
// (the symbols up to the last present, at least two present) at the
// accuracy optimalTableLog gives with a maximum of maxLog, or returns
// false when there is no table to build.
func fseNormOf(data []byte, maxLog uint, lowProb bool) ([]int16, uint8, bool) {
	var count [64]uint32
	total, maxSym, present := 0, 0, 0
	for i, b := range data {
		s := i % 64
		if i >= 64 {
			s = int(b) % 64
			b = 1
		}
		count[s] += uint32(b)
		total += int(b)
	}
	for s, c := range count {
		if c != 0 {
			maxSym = s
			present++
		}
	}
	if present < 2 {
		return nil, 0, false
	}
	log := optimalTableLog(maxLog, total, maxSym, 2)
	// The encoder marks low-probability symbols in blocks of 2048
	// sequences and more only: on fewer, more symbols than the table
	// has slots can fall below a slot each.
	lowProb = lowProb && total >= 2048
	norm := make([]int16, maxSym+1)
	normalizeCount(norm, log, count[:], total, maxSym, lowProb)
	return norm, uint8(log), true
}

// The build's tables equal the reference's on many distributions: every
// log from 5 to 9, few and many symbols, skewed and flat, with and
// without low-probability symbols, and the predefined ones.
func TestFSEBuildMatchesReference(t *testing.T) {
	checkFSEBuild(t, llPredefNorm, 6)
	checkFSEBuild(t, mlPredefNorm, 6)
	checkFSEBuild(t, ofPredefNorm, 5)
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 3000; trial++ {
		data := make([]byte, 64+rng.IntN(3000))
		skew := 1 + rng.IntN(8)
		for i := range data[:64] {
			if rng.IntN(4) != 0 {
				data[i] = byte(rng.IntN(256) >> uint(rng.IntN(skew)))
			}
		}
		for i := range data[64:] {
			data[64+i] = byte(rng.IntN(1+rng.IntN(64)) * (1 + rng.IntN(2)))
		}
		for _, maxLog := range []uint{5, 6, 8, 9} {
			for _, low := range []bool{false, true} {
				if norm, log, ok := fseNormOf(data, maxLog, low); ok {
					checkFSEBuild(t, norm, log)
				}
			}
		}
	}
}

func FuzzFSEBuildMatchesReference(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 0, 0, 9}, uint8(9), false)
	f.Add([]byte{200, 1, 0, 0, 1, 1}, uint8(6), true)
	f.Fuzz(func(t *testing.T, data []byte, maxLog uint8, low bool) {
		if len(data) > 4096 {
			return
		}
		if norm, log, ok := fseNormOf(data, uint(5+maxLog%5), low); ok {
			checkFSEBuild(t, norm, log)
		}
	})
}
