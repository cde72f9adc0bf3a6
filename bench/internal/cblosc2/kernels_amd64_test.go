//go:build cblosc2 && cgo

package cblosc2_test

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/bitshuffle"
	"github.com/klauspost/cpuid/v2"
)

// TestKernelsMatchOurs checks the C kernels the benchmark rows time write
// what our shuffles write, so a C row measures the same work.
func TestKernelsMatchOurs(t *testing.T) {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		t.Skip("SKIPPED: c-blosc2's AVX2 kernels need AVX2, which this CPU lacks")
	}
	bits := []cblosc2.BitKernel{cblosc2.BitAVX2}
	if cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW) {
		bits = append(bits, cblosc2.BitAVX512)
	} else {
		t.Log("c-blosc2's AVX-512 bit shuffle not checked: this CPU lacks AVX512F/BW")
	}
	for _, ts := range []int{1, 2, 3, 4, 7, 8, 12, 16, 24} {
		n := 8 * ts * 517
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*131 + i>>7)
		}
		want, got, back := make([]byte, n), make([]byte, n), make([]byte, n)

		blosc.Shuffle(want, src, ts)
		cblosc2.ShuffleAVX2(got, src, ts)
		if !bytes.Equal(got, want) {
			t.Errorf("ts=%d: C byte shuffle differs from ours", ts)
		}
		cblosc2.UnshuffleAVX2(back, got, ts)
		if !bytes.Equal(back, src) {
			t.Errorf("ts=%d: C byte unshuffle does not invert", ts)
		}

		bitshuffle.Shuffle(want, src, ts)
		for _, k := range bits {
			clear(got)
			if err := cblosc2.BitShuffle(k, got, src, ts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("ts=%d: C %v bit shuffle differs from ours", ts, k)
			}
			clear(back)
			if err := cblosc2.BitUnshuffle(k, back, got, ts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, src) {
				t.Errorf("ts=%d: C %v bit unshuffle does not invert", ts, k)
			}
		}
	}
	if err := cblosc2.BitShuffle(cblosc2.BitAVX2, make([]byte, 12), make([]byte, 12), 4); err == nil {
		t.Error("a bit shuffle of 3 elements was accepted")
	}
}
