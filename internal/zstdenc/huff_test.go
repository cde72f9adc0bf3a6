package zstdenc

import (
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
