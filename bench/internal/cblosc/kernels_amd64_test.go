//go:build cblosc && cgo

package cblosc_test

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/bitshuffle"
	"github.com/klauspost/cpuid/v2"
)

// TestKernelsMatchOurs checks the C kernels the benchmark rows time write
// what our shuffles write, so a C row measures the same work.
func TestKernelsMatchOurs(t *testing.T) {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		t.Skip("SKIPPED: c-blosc's AVX2 kernels need AVX2, which this CPU lacks")
	}
	for _, ts := range []int{1, 2, 3, 4, 7, 8, 12, 16, 24} {
		n := 8 * ts * 517
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*131 + i>>7)
		}
		want, got, back, tmp := make([]byte, n), make([]byte, n), make([]byte, n), make([]byte, n)

		blosc.Shuffle(want, src, ts)
		cblosc.ShuffleAVX2(got, src, ts)
		if !bytes.Equal(got, want) {
			t.Errorf("ts=%d: C byte shuffle differs from ours", ts)
		}
		cblosc.UnshuffleAVX2(back, got, ts)
		if !bytes.Equal(back, src) {
			t.Errorf("ts=%d: C byte unshuffle does not invert", ts)
		}

		bitshuffle.Shuffle(want, src, ts)
		if err := cblosc.BitShuffleAVX2(got, src, tmp, ts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("ts=%d: C bit shuffle differs from ours", ts)
		}
		if err := cblosc.BitUnshuffleAVX2(back, got, tmp, ts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, src) {
			t.Errorf("ts=%d: C bit unshuffle does not invert", ts)
		}
	}
	if err := cblosc.BitShuffleAVX2(make([]byte, 12), make([]byte, 12), make([]byte, 12), 4); err == nil {
		t.Error("a bit shuffle of 3 elements was accepted")
	}
}
