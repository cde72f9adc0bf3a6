//go:build cblosc2 && cgo

package lz4_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/lz4"
)

// versusC decodes src into dst of size bytes with DecompressBlockDict and
// with LZ4_decompress_safe_usingDict (LZ4_decompress_safe for an empty
// dict), and fails unless both decode the same bytes or both reject the
// block. The one difference allowed is a match of offset 0, which C
// accepts, copying what dst held, and DecompressBlock rejects.
func versusC(t *testing.T, size int, src, dict []byte) {
	t.Helper()
	got, want := make([]byte, size), make([]byte, size)
	n, err := lz4.DecompressBlockDict(got, src, dict)
	var cn int
	if len(dict) == 0 {
		cn = cblosc2.LZ4DecompressSafe(want, src)
	} else {
		cn = cblosc2.LZ4DecompressSafeUsingDict(want, src, append([]byte(nil), dict...))
	}
	switch {
	case err != nil && cn < 0:
	case err == nil && cn == n && bytes.Equal(got[:n], want[:cn]):
	case errors.Is(err, lz4.ErrZeroOffset) && cn >= 0:
	default:
		t.Fatalf("dst=%d src=%d dict=%d: Go decoded %d bytes (%v), C %d, or other bytes\nsrc %x", size, len(src), len(dict), n, err, cn, src)
	}
}

// TestDecodeVersusC holds DecompressBlock to LZ4_decompress_safe on
// liblz4's blocks of the patterns, whole, cut, and into dst of other sizes.
func TestDecodeVersusC(t *testing.T) {
	for _, name := range golden.Names {
		for _, n := range []int{0, 1, 20, 100, 1000, 70000} {
			p := golden.MustPattern(t, name, n)
			block := make([]byte, lz4.CompressBlockBound(n))
			block = block[:cblosc2.LZ4CompressFast(block, p, 1)]
			for _, size := range []int{n, n + 1, n + 40, max(n-1, 0)} {
				versusC(t, size, block, nil)
				for _, cut := range []int{1, 2, 5, 8, 9} {
					if cut <= len(block) {
						versusC(t, size, block[:len(block)-cut], nil)
					}
				}
			}
		}
	}
}

// FuzzDecodeVersusC holds DecompressBlock and DecompressBlockDict to
// liblz4 on any block, dst size and dictionary (the input's first split
// bytes), and on liblz4's own block of the input.
func FuzzDecodeVersusC(f *testing.F) {
	f.Add([]byte{0x10, 'a'}, uint16(1), uint8(0))
	f.Add([]byte{0x50, 'a', 'b', 'c', 'd', 'e', 5, 0, 0x50, 'f', 'g', 'h', 'i', 'j'}, uint16(30), uint8(2))
	for _, name := range []string{"f32_noise", "linspace_f64", "text"} {
		p := golden.MustPattern(f, name, 600)
		block := make([]byte, lz4.CompressBlockBound(len(p)))
		f.Add(block[:cblosc2.LZ4CompressFast(block, p, 5)], uint16(len(p)), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16, split uint8) {
		versusC(t, int(size), data, nil)
		k := min(int(split), len(data))
		versusC(t, int(size), data[k:], data[:k])
		block := make([]byte, lz4.CompressBlockBound(len(data)))
		block = block[:cblosc2.LZ4CompressFast(block, data, 1+int(split)%10)]
		versusC(t, len(data), block, nil)
		versusC(t, len(data)+int(size)%64, block, nil)
	})
}
