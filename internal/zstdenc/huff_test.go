package zstdenc

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortLeaves orders the leaves as a comparison sort of their keys does,
// for counts in every bucket: small, equal, and up to the top bit.
func TestSortLeaves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(256)
		leaves := make([]huffNode, 0, n)
		for s := 0; s < 256 && len(leaves) < n; s++ {
			if rng.IntN(256) < n {
				var c uint32
				switch rng.IntN(4) {
				case 0:
					c = 1 + uint32(rng.IntN(70))
				case 1:
					c = 1 + uint32(rng.IntN(1<<17))
				case 2:
					c = 1 + rng.Uint32()>>8
				default:
					c = 1 << uint(rng.IntN(24))
				}
				leaves = append(leaves, huffNode{count: c, sym: uint16(s)})
			}
		}
		want := make([]uint32, len(leaves))
		for i, l := range leaves {
			want[i] = l.count<<8 | uint32(l.sym)
		}
		slices.Sort(want)
		got := make([]uint32, len(leaves))
		sortLeaves(got, leaves)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: sortLeaves %v, want %v", trial, got, want)
		}
	}
}

// TestCountBytes holds countBytes (histAsm's sixteen bytes a turn on
// amd64, then the Go tail) to a count a byte at a time, at every length
// around the assembly's steps and at odd offsets.
func TestCountBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 600)
	for i := range buf {
		buf[i] = byte(r.IntN(256))
		if i%7 == 0 {
			buf[i] = 0xFF // runs of one byte count through every table
		}
	}
	for off := range 3 {
		for n := 0; n+off <= len(buf); n++ {
			b := buf[off : off+n]
			var got, want [256]uint32
			countBytes(&got, b)
			for _, x := range b {
				want[x]++
			}
			if got != want {
				t.Fatalf("offset %d length %d: histogram differs", off, n)
			}
		}
	}
}

// FuzzSortLeaves holds sortLeaves to a comparison sort on any counts:
// each pair of input bytes gives a symbol a count of up to 2^24, the
// first byte of the pair picking a scale so that every bucket width
// (the single counts below 512 and the 32nds of powers of two above)
// is reached.
func FuzzSortLeaves(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 0, 2})
	f.Add([]byte{3, 200, 3, 201, 9, 7, 17, 255, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var leaves []huffNode
		for s := 0; s < 256 && 2*s+1 < len(data); s++ {
			c := uint32(data[2*s+1]) << (data[2*s] % 17)
			if c == 0 {
				continue
			}
			leaves = append(leaves, huffNode{count: c, sym: uint16(s)})
		}
		want := make([]uint32, len(leaves))
		for i, l := range leaves {
			want[i] = l.count<<8 | uint32(l.sym)
		}
		slices.Sort(want)
		got := make([]uint32, len(leaves))
		sortLeaves(got, leaves)
		if !slices.Equal(got, want) {
			t.Fatalf("sortLeaves %v, want %v", got, want)
		}
	})
}

// lengthsRef is huffBuilder.lengths as it was before it read the leaves
// from the sorted keys: the reference the build is held to.
func lengthsRef(b *huffBuilder, bits *[maxHuffSymbols]uint8, maxSym int) uint8 {
	n := 0
	for s := 0; s <= maxSym; s++ {
		bits[s] = 0
		if b.lim[s] != 0 {
			b.nodes[n] = huffNode{count: b.lim[s], sym: uint16(s)}
			n++
		}
	}
	keys := b.keys[:n]
	sortLeaves(keys, b.nodes[:n])
	for i, k := range keys {
		b.nodes[i] = huffNode{count: k >> 8, sym: uint16(k & 0xFF)}
	}
	leaves := b.nodes[:n]
	li, ii, next := 0, n, n
	pick := func() int {
		if li < n && (ii >= next || leaves[li].count <= b.nodes[ii].count) {
			li++
			return li - 1
		}
		ii++
		return ii - 1
	}
	for next < 2*n-1 {
		x := pick()
		y := pick()
		b.nodes[next] = huffNode{count: b.nodes[x].count + b.nodes[y].count}
		b.nodes[x].parent = uint16(next)
		b.nodes[y].parent = uint16(next)
		next++
	}
	if n == 0 {
		return 0
	}
	root := 2*n - 2
	b.depth[root] = 0
	maxDepth := uint8(0)
	for i := root - 1; i >= 0; i-- {
		d := b.depth[b.nodes[i].parent] + 1
		b.depth[i] = d
		if i < n {
			bits[b.nodes[i].sym] = d
			maxDepth = max(maxDepth, d)
		}
	}
	return maxDepth
}

// checkLengths holds lengths to lengthsRef on the counts in lim.
func checkLengths(t *testing.T, lim []uint32) {
	t.Helper()
	var b, r huffBuilder
	var tab huffCTable
	var want [maxHuffSymbols]uint8
	maxSym := len(lim) - 1
	copy(b.lim[:], lim)
	copy(r.lim[:], lim)
	d := b.lengths(&tab, maxSym)
	wd := lengthsRef(&r, &want, maxSym)
	if d != wd || tab.log != wd || tab.bits != want {
		t.Fatalf("counts %v: depth %d (log %d), lengths %v; want %d, %v", lim, d, tab.log, tab.bits[:maxSym+1], wd, want[:maxSym+1])
	}
}

// The Huffman code lengths are the reference's on random counts: few
// and many symbols, equal counts (the ties), skewed ones (deep trees) and
// a single symbol.
func TestHuffLengthsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 3000; trial++ {
		maxSym := rng.IntN(256)
		lim := make([]uint32, maxSym+1)
		p := rng.IntN(257)
		for s := range lim {
			if rng.IntN(256) < p {
				switch trial % 4 {
				case 0:
					lim[s] = 1 + uint32(rng.IntN(8))
				case 1:
					lim[s] = 1 + uint32(rng.IntN(1<<17))
				case 2:
					lim[s] = 1 << uint(rng.IntN(17))
				default:
					lim[s] = 100
				}
			}
		}
		checkLengths(t, lim)
	}
	checkLengths(t, []uint32{0, 5})
	checkLengths(t, []uint32{3, 5})
}

// FuzzHuffLengthsMatchesReference: lengths is the reference's on any
// counts (two bytes a symbol, up to 256 symbols).
func FuzzHuffLengthsMatchesReference(f *testing.F) {
	f.Add([]byte{1, 0, 2, 0, 3, 0, 0, 0, 9, 1})
	f.Add([]byte{1, 0, 1, 0, 1, 0, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := min(len(data)/2, maxHuffSymbols)
		if n == 0 {
			return
		}
		lim := make([]uint32, n)
		for i := range lim {
			lim[i] = uint32(data[2*i]) | uint32(data[2*i+1])<<8
		}
		checkLengths(t, lim)
	})
}

// buildBitsRef is the build's code lengths as they were made before
// raise: the counts under a doubling floor raised to it and lengthsRef
// run again until the code fits limit. It reports how many times the
// floor was raised.
func buildBitsRef(count []uint32, limit uint8) (bits [maxHuffSymbols]uint8, depth uint8, raised int) {
	var r huffBuilder
	maxSym := len(count) - 1
	copy(r.lim[:], count)
	floor := uint32(1)
	for {
		if depth = lengthsRef(&r, &bits, maxSym); depth <= limit {
			return bits, depth, raised
		}
		floor *= 2
		raised++
		for s := 0; s <= maxSym; s++ {
			if count[s] != 0 && r.lim[s] < floor {
				r.lim[s] = floor
			}
		}
	}
}

// checkBuild holds the build's code lengths and depth to buildBitsRef's,
// and its codes to a canonical code of those lengths (each length's
// codes in order of symbol, the longest from zero).
func checkBuild(t *testing.T, count []uint32, limit uint8) int {
	t.Helper()
	var b huffBuilder
	var tab huffCTable
	var cnt [256]uint32
	copy(cnt[:], count)
	maxSym := len(count) - 1
	b.build(&tab, &cnt, maxSym, limit)
	want, depth, raised := buildBitsRef(count, limit)
	if tab.log != depth || !slices.Equal(tab.bits[:maxSym+1], want[:maxSym+1]) {
		t.Fatalf("counts %v limit %d: depth %d, lengths %v; want %d, %v", count, limit, tab.log, tab.bits[:maxSym+1], depth, want[:maxSym+1])
	}
	next := uint64(0)
	for l := tab.log; l > 0; l-- {
		for s := 0; s <= maxSym; s++ {
			if tab.bits[s] == l {
				if tab.ce[s] != next || tab.ce[maxHuffSymbols+s] != uint64(l) {
					t.Fatalf("counts %v: symbol %d code %d/%d, want %d/%d", count, s, tab.ce[s], tab.ce[maxHuffSymbols+s], next, l)
				}
				next++
			}
		}
		next >>= 1
	}
	return raised
}

// The build raises its floor (raise) exactly as the loop before it
// (lengths from scratch on the raised counts): skewed counts with many
// rare symbols, at limits from the least that holds them to 3 more
// (at most 11), so that most builds raise the floor once or more.
func TestHuffBuildMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	raised := 0
	for trial := 0; trial < 3000; trial++ {
		count := make([]uint32, 2+rng.IntN(255))
		for s := range count {
			switch rng.IntN(4) {
			case 0:
			case 1:
				count[s] = 1 + uint32(rng.IntN(3))
			case 2:
				count[s] = 1 << uint(rng.IntN(17))
			default:
				count[s] = 1 + uint32(rng.IntN(1<<12))
			}
		}
		count[0], count[len(count)-1] = max(count[0], 1), max(count[len(count)-1], 1)
		present := 0
		for _, c := range count {
			if c != 0 {
				present++
			}
		}
		// A limit that holds every symbol present, as the build's
		// callers give (optimalTableLog's at least).
		least := bits.Len(uint(present - 1))
		limit := min(least+rng.IntN(4), huffMaxLog)
		raised += checkBuild(t, count, uint8(max(limit, least)))
	}
	if raised < 1000 {
		t.Fatalf("the floor was raised %d times in 3000 builds: the test does not reach raise", raised)
	}
}

// FuzzHuffBuildMatchesReference: the build is the reference's on any
// counts (two bytes a symbol, at least two symbols present) and limits.
func FuzzHuffBuildMatchesReference(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 0, 1, 0, 0x80, 3, 0}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, lim uint8) {
		n := min(len(data)/2, maxHuffSymbols)
		if n < 2 {
			return
		}
		count := make([]uint32, n)
		present := 0
		for i := range count {
			count[i] = uint32(data[2*i]) | uint32(data[2*i+1])<<8
			if count[i] != 0 {
				present++
			}
		}
		// The build's callers: at least two symbols, and a limit that
		// holds them all (optimalTableLog's at least).
		if present < 2 || count[n-1] == 0 {
			return
		}
		limit := uint8(bits.Len(uint(present-1))) + lim%4
		checkBuild(t, count, min(limit, huffMaxLog))
	})
}
