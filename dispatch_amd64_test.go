//go:build !purego && !noasm && gc

package blosc

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/testrand"
)

func TestAlign64(t *testing.T) {
	var buf [64 + 63 + 64]byte
	for off := range 64 {
		b := buf[off : off+64+63]
		a := align64(b)
		p := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
		if p%64 != 0 {
			t.Fatalf("offset %d: align64 gave an address %d bytes past a line", off, p%64)
		}
		if skip := len(b) - len(a); skip < 0 || skip > 63 || len(a) < 64 {
			t.Fatalf("offset %d: skipped %d bytes, %d left", off, skip, len(a))
		}
	}
}

// TestLargeShuffleDoesNotAllocate keeps the stack tables of the
// non-temporal and skewed kernels on the stack: aligning them must not
// make them escape.
func TestLargeShuffleDoesNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 16 MiB buffers")
	}
	if !cpu.Available(cpu.AVX512) || !hasShuffleKernel(cpu.AVX512) {
		t.Skip("SKIPPED: this CPU has no AVX-512 VBMI byte shuffle, the only kernel with these tables")
	}
	src := make([]byte, ntThreshold+7*64)
	dst := make([]byte, len(src))
	for _, ts := range []int{7, 12} {
		if a := testing.AllocsPerRun(2, func() { shuffleShiftedNT(dst, src, ts, len(src)/ts) }); a != 0 {
			t.Errorf("shuffleShiftedNT ts=%d: %v allocations per call", ts, a)
		}
	}
	n := 1 << 16
	if a := testing.AllocsPerRun(2, func() { shuffleSkewedAVX512(dst[:n*12], src[:n*12], 12, n, n/64) }); a != 0 {
		t.Errorf("shuffleSkewedAVX512: %v allocations per call", a)
	}
}

// TestShuffleSplitKernel calls the two-pass typesize-8 kernel directly for
// block counts around its chunk of 8 (Shuffle only hands it multiples of
// 64), and through Shuffle on buffers that end or start at a guard page.
func TestShuffleSplitKernel(t *testing.T) {
	if !cpu.Available(cpu.AVX512) || !hasShuffleKernel(cpu.AVX512) {
		t.Skip("SKIPPED: this CPU has no AVX-512 VBMI byte shuffle, the only one with a split kernel")
	}
	rng := rand.New(rand.NewPCG(21, 22))
	const ts = 8
	for blocks := 1; blocks <= 25; blocks++ {
		n := 64 * blocks
		src := make([]byte, n*ts)
		testrand.Fill(rng, src)
		want, got := make([]byte, n*ts), make([]byte, n*ts+64)
		shuffleGeneric(want, src, ts)
		shuffle8AVX512Split(&got[0], &src[0], n, blocks)
		if !bytes.Equal(got[:n*ts], want) || !bytes.Equal(got[n*ts:], make([]byte, 64)) {
			t.Fatalf("blocks=%d:\n%s", blocks, diffReport(got[:n*ts], want))
		}
	}
	restore := forceShuffleLevel(cpu.AVX512)
	defer restore()
	for _, side := range []guard.Side{guard.End, guard.Start} {
		for _, n := range []int{4096, 3 * 4096} {
			src, dst := guard.New(n*ts, side), guard.New(n*ts, side)
			testrand.Fill(rng, src.Bytes)
			want := make([]byte, n*ts)
			shuffleGeneric(want, src.Bytes, ts)
			Shuffle(dst.Bytes, src.Bytes, ts)
			if !bytes.Equal(dst.Bytes, want) {
				t.Errorf("side %v n=%d:\n%s", side, n, diffReport(dst.Bytes, want))
			}
			src.Free()
			dst.Free()
		}
	}
}
