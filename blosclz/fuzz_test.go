package blosclz_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
)

func FuzzDecompress(f *testing.F) {
	blosclztest.SeedStreams(f)
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		dst := make([]byte, int(size)+16)
		for i := range dst {
			dst[i] = 0xEE
		}
		n, err := blosclz.Decompress(dst[:size], src)
		if n < 0 || n > int(size) {
			t.Fatalf("returned %d for a %d-byte dst", n, size)
		}
		if err != nil && !errors.Is(err, blosclz.ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
		for i := int(size); i < len(dst); i++ {
			if dst[i] != 0xEE {
				t.Fatalf("wrote past dst at %d", i)
			}
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	for _, name := range []string{"arange_i64", "linspace_f64", "f32_noise", "text", "runs", "rec12", "zeros"} {
		f.Add(blosclztest.Shuffled(f, name, 3000), false)
	}
	f.Add(bytes.Repeat([]byte("abcabcabd"), 200), true)
	f.Fuzz(func(t *testing.T, src []byte, unsplit bool) {
		dst := make([]byte, len(src)+4)
		out := make([]byte, len(src))
		for level := 1; level <= blosclz.MaxLevel; level++ {
			n := blosclz.CompressBlock(dst[:len(src)], src, level, !unsplit)
			if n == 0 {
				continue
			}
			if n > len(src) {
				t.Fatalf("level %d: %d bytes for %d", level, n, len(src))
			}
			m, err := blosclz.Decompress(out, dst[:n])
			if err != nil || m != len(src) || !bytes.Equal(out, src) {
				t.Fatalf("level %d: got %d, %v", level, m, err)
			}
		}
		for level := 1; level <= blosclz.MaxLevel; level++ {
			n := blosclz.CompressBlosc2(dst[:len(src)], src, level)
			if n == 0 {
				continue
			}
			m, err := blosclz.Decompress(out, dst[:n])
			if err != nil || m != len(src) || !bytes.Equal(out, src) {
				t.Fatalf("2.5.3 level %d: got %d, %v", level, m, err)
			}
		}
	})
}
