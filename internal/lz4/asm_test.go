package lz4

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// againstPortable compresses src into dst of length size with the assembly
// loop and the portable one, each with its own Compressor whose state
// (the table and base) matches the other's, and fails on any difference in
// the result, in dst, or in the bytes after dst.
func againstPortable(t *testing.T, asm, port *Compressor, src []byte, accel, size int) {
	t.Helper()
	const slack = 24
	a := make([]byte, size+slack)
	p := make([]byte, size+slack)
	for i := range a {
		a[i], p[i] = 0x5A, 0x5A
	}
	n := asm.compressBlock(a[:size:size], src, accel, true)
	m := port.compressBlock(p[:size:size], src, accel, false)
	if n != m {
		t.Fatalf("n=%d accel=%d dst=%d: assembly wrote %d bytes, portable %d", len(src), accel, size, n, m)
	}
	if !bytes.Equal(a[:n], p[:n]) {
		i := golden.FirstDiff(a[:n], p[:n])
		t.Fatalf("n=%d accel=%d dst=%d: first difference at %d\nassembly:\n%s\nportable:\n%s", len(src), accel, size, i,
			hex.Dump(a[max(i-16, 0):min(i+32, n)]), hex.Dump(p[max(i-16, 0):min(i+32, n)]))
	}
	for i := size; i < len(a); i++ {
		if a[i] != 0x5A {
			t.Fatalf("n=%d accel=%d dst=%d: assembly wrote byte %d past dst", len(src), accel, size, i)
		}
	}
	if asm.base != port.base {
		t.Fatalf("n=%d: bases %d and %d differ", len(src), asm.base, port.base)
	}
}

// TestAssemblyMatchesPortable runs both loops over the patterns, random and
// compressible data, both tables, every acceleration in turn, and dst
// lengths from empty to the bound with every length near the block's own,
// where the limited-output checks decide.
func TestAssemblyMatchesPortable(t *testing.T) {
	if !haveAsm {
		t.Skip("no assembly loop on this platform or with these tags: CompressBlock is the portable loop")
	}
	var asm, port Compressor
	sizes := []int{13, 14, 15, 16, 17, 20, 31, 64, 100, 255, 256, 511, 1024, 1500, 4096, 10000,
		limit64K - 1, limit64K, limit64K + 1, 100_000, 300_000}
	for i, n := range sizes {
		for _, in := range inputs(t, n, 11) {
			accel := 1 + (i+len(in.name))%10
			want := port.compressBlock(make([]byte, CompressBlockBound(n)), in.data, accel, false)
			asm.compressBlock(make([]byte, CompressBlockBound(n)), in.data, accel, true)
			dsts := []int{0, 1, 2, 15, n / 2, n, CompressBlockBound(n) - 1, CompressBlockBound(n)}
			for k := want - 24; k <= want+24; k++ {
				if k >= 0 && (n < 20_000 || k%5 == 0) {
					dsts = append(dsts, k)
				}
			}
			for _, size := range dsts {
				againstPortable(t, &asm, &port, in.data, accel, size)
			}
		}
	}
	// Matches at the largest offsets, one in reach and one just beyond.
	rng := rand.New(rand.NewPCG(13, 14))
	src := make([]byte, 200_000)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	for _, at := range []int{70_000, 90_000, 120_000, 150_000} {
		for _, d := range []int{distanceMax, distanceMax + 1} {
			copy(src[at:at+300], src[at-d:])
			at += 400
		}
	}
	for _, accel := range []int{1, 2} {
		againstPortable(t, &asm, &port, src, accel, CompressBlockBound(len(src)))
	}
}

// TestAssemblyRunsAndRematches holds the assembly loop to the portable
// one where its own shortcuts decide: random bytes of two values make
// mostly short matches found by the rematch (whose bytes come from the
// words that measured the match, for each length past the minimum, and
// whose position often hashes as the one two bytes before), and random
// bytes of 256 values check the search's step for small and huge
// accelerations, each after calls that leave stale entries of every age
// in the table, and random runs with copies between them check the
// step's growth over many runs of equal steps.
func TestAssemblyRunsAndRematches(t *testing.T) {
	if !haveAsm {
		t.Skip("no assembly loop on this platform or with these tags: CompressBlock is the portable loop")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var asm, port Compressor
	for _, n := range []int{13, 16, 100, 1024, 5000, limit64K - 1, limit64K, 200_000} {
		for _, values := range []int{2, 3, 256} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(rng.IntN(values) * 0x80 / max(values-1, 1))
			}
			for _, accel := range []int{1, 2, 5, 63, 64, 65, 1000, MaxAcceleration} {
				againstPortable(t, &asm, &port, src, accel, CompressBlockBound(n))
				againstPortable(t, &asm, &port, src, accel, n*3/4)
			}
		}
		// Long random runs, each followed by a short copy of earlier
		// bytes: which copies the search lands in, and where, depends
		// on every step it took through the run before.
		src := make([]byte, 0, n)
		for len(src) < n {
			for k := rng.IntN(8000); k > 0 && len(src) < n; k-- {
				src = append(src, byte(rng.Uint32()))
			}
			if len(src) > 64 {
				from := rng.IntN(len(src) - 64)
				src = append(src, src[from:from+16+rng.IntN(48)]...)
			}
		}
		src = src[:n]
		for _, accel := range []int{1, 2, 3, 5, 9} {
			againstPortable(t, &asm, &port, src, accel, CompressBlockBound(n))
		}
	}
}

// TestAssemblyMatchLengths holds the assembly loop to the portable one for
// a match of every length up to 80 bytes, ending at every distance up to
// 40 bytes from the input's end: each way of measuring a match (within
// the first 8 bytes past the minimum, the next 8, 16-byte steps, the last
// bytes before mlim) meets each of the others' bounds.
func TestAssemblyMatchLengths(t *testing.T) {
	if !haveAsm {
		t.Skip("no assembly loop on this platform or with these tags: CompressBlock is the portable loop")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	var asm, port Compressor
	head := make([]byte, 100)
	for i := range head {
		head[i] = byte(rng.Uint32())
	}
	for length := 0; length <= 80; length++ {
		for tail := 0; tail <= 40; tail++ {
			src := append([]byte(nil), head...)
			src = append(src, head[7:7+length]...)
			for range tail {
				src = append(src, byte(rng.Uint32()))
			}
			againstPortable(t, &asm, &port, src, 1, CompressBlockBound(len(src)))
		}
	}
}

// FuzzAssemblyMatchesPortable compares the assembly loop with the portable
// one on any input and dst length; the input is repeated with a twist so
// that the fuzzer's short inputs also make long matches, and its length
// may cross to the byU32 table. Where there is no assembly it compares
// CompressBlock with the reference.
func FuzzAssemblyMatchesPortable(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabc0123456789"), uint8(1), uint32(0), uint16(1))
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3}, uint8(5), uint32(7), uint16(6000))
	f.Add([]byte("x"), uint8(3), uint32(1), uint16(65000))
	var asm, port Compressor
	f.Fuzz(func(t *testing.T, seed []byte, accel uint8, cut uint32, repeat uint16) {
		src := seed
		if len(seed) > 0 && repeat > 1 {
			src = make([]byte, 0, len(seed)*int(repeat))
			for r := range int(repeat) {
				for _, b := range seed {
					src = append(src, b^byte(r&int(accel)&3))
				}
			}
		}
		a := int(accel%12) + 1
		bound := CompressBlockBound(len(src))
		size := bound - int(cut%uint32(bound+1))
		if !haveAsm {
			dst, ref := make([]byte, size), make([]byte, size)
			n, rn := asm.CompressBlock(dst, src, a), reference(t, ref, src, a)
			if n != rn || !bytes.Equal(dst[:n], ref[:rn]) {
				t.Fatalf("n=%d accel=%d dst=%d: got %d bytes, want %d", len(src), a, size, n, rn)
			}
			return
		}
		againstPortable(t, &asm, &port, src, a, size)
	})
}

// The assembly loop writes dst with whole words: with dst flush against an
// inaccessible page, any write past it faults. Every dst length near the
// block's own and the bound is tried, so each limited-output check stops
// the loop at the edge at least once.
func TestDstAgainstGuardPage(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var c, port Compressor
	for _, n := range []int{13, 20, 64, 300, 1024, 4096, limit64K + 5, 100_000} {
		for _, in := range inputs(t, n, 12) {
			bound := CompressBlockBound(n)
			want := port.CompressBlock(make([]byte, bound), in.data, 5)
			sizes := []int{0, 1, n, bound - 1, bound}
			for k := max(want-20, 0); k <= want+20; k++ {
				sizes = append(sizes, k)
			}
			for range 8 {
				sizes = append(sizes, rng.IntN(bound+1))
			}
			for _, size := range sizes {
				if size > bound {
					continue
				}
				buf := guard.New(size, guard.End)
				got := c.CompressBlock(buf.Bytes, in.data, 5)
				ref := make([]byte, size)
				if wantN := port.compressBlock(ref, in.data, 5, false); got != wantN || !bytes.Equal(buf.Bytes[:got], ref[:wantN]) {
					t.Fatalf("%s n=%d dst=%d: got %d bytes, want %d, or other bytes", in.name, n, size, got, wantN)
				}
				buf.Free()
			}
		}
	}
}
