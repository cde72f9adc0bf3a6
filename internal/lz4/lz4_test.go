package lz4

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	pierrec "github.com/pierrec/lz4/v4"
)

// reference is pierrec/lz4's port of LZ4_compress_fast, checked against the
// C library by the root package's golden tests and bench/crosscheck's cgo
// ones.
func reference(t testing.TB, dst, src []byte, accel int) int {
	t.Helper()
	c := pierrec.CompressorCCompat{Acceleration: accel}
	n, err := c.CompressBlock(src, dst)
	if err != nil {
		t.Fatalf("pierrec: %v", err)
	}
	return n
}

// compressible returns n bytes of random literals and copies of earlier
// bytes at random distances, some beyond 64 KiB, with long and short runs.
func compressible(rng *rand.Rand, n int) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		k := 1 + rng.IntN(300)
		if rng.IntN(3) == 0 || len(b) < 4 {
			for i := 0; i < k && len(b) < n; i++ {
				b = append(b, byte(rng.IntN(1+rng.IntN(256))))
			}
			continue
		}
		from := len(b) - 1 - rng.IntN(min(len(b), 80000))
		for i := 0; i < k && len(b) < n; i++ {
			b = append(b, b[from+i])
		}
	}
	return b
}

type input struct {
	name string
	data []byte
}

// inputs returns the golden vectors' patterns (docs/benchmarks.md#datasets)
// and random data of size n.
func inputs(t testing.TB, n int, seed uint64) []input {
	var in []input
	for _, name := range golden.Names {
		p, err := golden.Pattern(name, n)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, input{name, p})
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	random := make([]byte, n)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	in = append(in, input{"random", random}, input{"compressible", compressible(rng, n)})
	return in
}

// check compresses src with c into dst sizes from empty to the bound and
// compares every result with the reference. The dst given to c has no
// capacity beyond its length, and the bytes after it in the buffer must
// keep their value.
func check(t *testing.T, c *Compressor, name string, src []byte, accel int, full bool) {
	t.Helper()
	bound := CompressBlockBound(len(src))
	want := make([]byte, bound)
	wantN := reference(t, want, src, accel)
	if wantN == 0 {
		t.Fatalf("%s n=%d accel=%d: reference does not fit the bound", name, len(src), accel)
	}
	sizes := []int{bound, bound - 1, wantN, wantN - 1, wantN + 1, wantN + 8, wantN / 2, 0, 1, 15}
	if full {
		// Every size down from the exact length: each limit check of the
		// limited mode gets its turn.
		for k := wantN + 16; k >= 0 && k >= wantN-40; k-- {
			sizes = append(sizes, k)
		}
	}
	const guard = 32
	buf := make([]byte, bound+guard)
	ref := make([]byte, bound)
	for _, size := range sizes {
		if size < 0 || size > bound {
			continue
		}
		for i := range buf {
			buf[i] = 0xA5
		}
		n := c.CompressBlock(buf[:size:size], src, accel)
		rn := reference(t, ref[:size], src, accel)
		if n != rn {
			t.Fatalf("%s n=%d accel=%d dst=%d: got length %d, want %d", name, len(src), accel, size, n, rn)
		}
		if !bytes.Equal(buf[:n], ref[:n]) {
			i := golden.FirstDiff(buf[:n], ref[:n])
			t.Fatalf("%s n=%d accel=%d dst=%d: first difference at %d\ngot:\n%s\nwant:\n%s", name, len(src), accel, size, i,
				hex.Dump(buf[max(i-16, 0):min(i+32, n)]), hex.Dump(ref[max(i-16, 0):min(i+32, n)]))
		}
		for i := size; i < len(buf); i++ {
			if buf[i] != 0xA5 {
				t.Fatalf("%s n=%d accel=%d dst=%d: byte %d past dst written", name, len(src), accel, size, i)
			}
		}
	}
}

var accels = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// TestMatchesReferenceSmall covers every size up to a few hundred bytes, all
// accelerations and every dst length near the block's.
func TestMatchesReferenceSmall(t *testing.T) {
	var c Compressor // one for all: stale entries must not show
	for n := 0; n <= 600; n++ {
		for _, in := range inputs(t, n, 1) {
			for _, a := range accels {
				check(t, &c, in.name, in.data, a, n%7 == 0)
			}
		}
	}
}

// TestMatchesReferenceSizes covers sizes up to 70000 with both tables: the
// byU16 one below 64 KiB + 11, the byU32 one from there.
func TestMatchesReferenceSizes(t *testing.T) {
	var sizes []int
	for n := 601; n < 70000; n += 997 {
		sizes = append(sizes, n)
	}
	for n := limit64K - 24; n <= limit64K+24; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 4096, 65535, 65536, 70000)
	if testing.Short() {
		sizes = sizes[:20]
	}
	var c Compressor
	for i, n := range sizes {
		for _, in := range inputs(t, n, 2) {
			// A third of the accelerations per size, rotating, and the
			// full dst sweep on a few sizes keep the run short.
			for _, a := range accels {
				if (a+i)%3 == 0 {
					check(t, &c, in.name, in.data, a, i%16 == 0)
				}
			}
		}
	}
}

// TestMatchesReferenceLarge covers inputs of a few MiB, where matches
// beyond 64 KiB are out of reach.
func TestMatchesReferenceLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs take a few seconds")
	}
	var c Compressor
	for _, n := range []int{1 << 20, 3<<20 + 17} {
		for _, in := range inputs(t, n, 3) {
			for _, a := range []int{1, 4, 9} {
				check(t, &c, in.name, in.data, a, false)
			}
		}
	}
}

// TestBaseWrap runs calls across the reset of the biased positions, with
// the base placed just below its limit.
func TestBaseWrap(t *testing.T) {
	var c Compressor
	rng := rand.New(rand.NewPCG(4, 4))
	for _, start := range []int{baseLimit - 70000, baseLimit - 5000, baseLimit - 600, baseLimit - 13} {
		c.base = start
		for range 40 {
			n := rng.IntN(3000)
			if rng.IntN(8) == 0 {
				n = limit64K + rng.IntN(10000)
			}
			src := compressible(rng, n)
			check(t, &c, fmt.Sprintf("base=%d", c.base), src, 1+rng.IntN(10), false)
		}
	}
}

// TestStaleEntries alternates inputs whose hashes collide with positions
// written by the previous call, which must read as position 0.
func TestStaleEntries(t *testing.T) {
	var c Compressor
	rng := rand.New(rand.NewPCG(5, 5))
	big := compressible(rng, 200000)
	for range 300 {
		n := rng.IntN(80000)
		off := rng.IntN(len(big) - n)
		check(t, &c, "stale", big[off:off+n], 1+rng.IntN(10), false)
	}
}

func TestDecodes(t *testing.T) {
	var c Compressor
	for _, n := range []int{0, 1, 12, 13, 100, 4096, 65546, 65547, 300000} {
		for _, in := range inputs(t, n, 6) {
			for _, a := range []int{1, 5, 10} {
				dst := make([]byte, CompressBlockBound(n))
				k := c.CompressBlock(dst, in.data, a)
				out := make([]byte, n)
				m, err := pierrec.UncompressBlock(dst[:k], out)
				if err != nil || m != n || !bytes.Equal(out, in.data) {
					t.Fatalf("%s n=%d accel=%d: decoded %d bytes, err %v, equal %v", in.name, n, a, m, err, bytes.Equal(out[:m], in.data))
				}
			}
		}
	}
}

func TestAccelerationClamp(t *testing.T) {
	src, _ := golden.Pattern("text", 5000)
	var c Compressor
	for _, a := range []int{-5, 0, MaxAcceleration + 1, 1 << 30} {
		check(t, &c, "clamp", src, a, false)
	}
}

func TestNoAllocs(t *testing.T) {
	var c Compressor
	src, _ := golden.Pattern("linspace_f64", 512)
	dst := make([]byte, CompressBlockBound(len(src)))
	if a := testing.AllocsPerRun(100, func() { c.CompressBlock(dst, src, 5) }); a != 0 {
		t.Fatalf("%v allocations per call", a)
	}
}

func FuzzMatchesReference(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabc0123456789"), uint8(1), uint32(0))
	text, _ := golden.Pattern("text", 3000)
	f.Add(text, uint8(9), uint32(100))
	var c Compressor
	f.Fuzz(func(t *testing.T, src []byte, accel uint8, cut uint32) {
		a := int(accel%12) + 1
		bound := CompressBlockBound(len(src))
		size := bound - int(cut%uint32(bound+1))
		dst := make([]byte, size)
		ref := make([]byte, size)
		n := c.CompressBlock(dst, src, a)
		rn := reference(t, ref, src, a)
		if n != rn || !bytes.Equal(dst[:n], ref[:rn]) {
			t.Fatalf("n=%d accel=%d dst=%d: got %d bytes, want %d, equal %v", len(src), a, size, n, rn, bytes.Equal(dst[:n], ref[:rn]))
		}
	})
}
