package b2nd

import (
	"slices"
	"testing"
)

// TestDefaultShapes checks python-blosc2's compute_chunks_blocks on
// machines of known caches, worked by hand from its code.
func TestDefaultShapes(t *testing.T) {
	cases := []struct {
		shape          []int64
		itemsize       int
		caches         CacheSizes
		goos, goarch   string
		chunks, blocks []int32
	}{
		// L2 of 2 MiB: blocks of 4 L1D (196608 bytes, 24576 items): 200
		// items of the last axis, then 122 of the first, snapped down to
		// 100, a divisor of 300; chunks of L3/4 take the whole array.
		{[]int64{300, 200}, 8, CacheSizes{49152, 2 << 20, 480 << 20}, "linux", "amd64", []int32{300, 200}, []int32{100, 200}},
		// L2 of 1 MiB: blocks of L2/4 (32768 items): 1000, then 32,
		// snapped down to 25; chunks of L3/4 = 8 MiB, cut to whole
		// blocks (8200000 bytes), take the whole array.
		{[]int64{1000, 1000}, 8, CacheSizes{32 << 10, 1 << 20, 32 << 20}, "linux", "amd64", []int32{1000, 1000}, []int32{25, 1000}},
		// arm64 Linux: blocks of L1D (16384 items of 4 bytes); no L3:
		// chunks of 4 MiB at least.
		{[]int64{40, 50, 60}, 4, CacheSizes{64 << 10, 1 << 20, 0}, "linux", "arm64", []int32{40, 50, 60}, []int32{5, 50, 60}},
		// A large 1-D array: blocks of L2/4 (131072 items) snapped down
		// to 125000, a divisor of 10^7; chunks of 4 MiB (L3/4 is below
		// the floor), cut to whole blocks (4125000) and snapped down to
		// the divisor 2500000.
		{[]int64{10_000_000}, 1, CacheSizes{32 << 10, 512 << 10, 8 << 20}, "linux", "amd64", []int32{2500000}, []int32{125000}},
		// Empty dimensions: the shape itself.
		{[]int64{0, 10}, 4, CacheSizes{}, "linux", "amd64", []int32{0, 10}, []int32{0, 10}},
	}
	for _, c := range cases {
		ch, bl, err := defaultShapes(c.shape, nil, nil, c.itemsize, c.caches, c.goos, c.goarch)
		if err != nil {
			t.Fatalf("%v: %v", c.shape, err)
		}
		if !slices.Equal(ch, c.chunks) || !slices.Equal(bl, c.blocks) {
			t.Errorf("%v of %d bytes: chunks %v blocks %v, want %v %v", c.shape, c.itemsize, ch, bl, c.chunks, c.blocks)
		}
	}
	if d := nearestDivisor(300, 163, false); d != 150 {
		t.Errorf("nearestDivisor(300, 163) = %d, want 150", d)
	}
	if d := nearestDivisor(1000, 32, true); d != 25 {
		t.Errorf("nearestDivisor(1000, 32, strict) = %d, want 25", d)
	}
}
