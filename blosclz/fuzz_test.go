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
		want := make([]byte, size)
		m, ok := referenceDecompress(want, src)
		if ok != (err == nil) || (ok && (m != n || !bytes.Equal(dst[:n], want[:m]))) {
			t.Fatalf("decoded %d bytes (%v), the byte-at-a-time decoder %d (ok %v)", n, err, m, ok)
		}
	})
}

// referenceDecompress decodes as Decompress does, with C's checks, one
// byte at a time: what the fuzz target holds the word copies and pattern
// fills to. It reports whether the stream was valid.
func referenceDecompress(dst, src []byte) (int, bool) {
	if len(src) == 0 {
		return 0, true
	}
	ip, op := 1, 0
	ctrl := int(src[0] & 31)
	for {
		if ctrl < 32 {
			n := ctrl + 1
			if n > len(dst)-op || n > len(src)-ip {
				return op, false
			}
			copy(dst[op:op+n], src[ip:ip+n])
			op, ip = op+n, ip+n
			if ip >= len(src) {
				return op, true
			}
			ctrl = int(src[ip])
			ip++
			continue
		}
		n := ctrl>>5 - 1
		dist := (ctrl & 31) << 8
		if n == 6 {
			for {
				if ip+1 >= len(src) || n > len(dst) {
					return op, false
				}
				code := int(src[ip])
				ip++
				n += code
				if code != 255 {
					break
				}
			}
		} else if ip+1 >= len(src) {
			return op, false
		}
		code := int(src[ip])
		ip++
		n += 3
		dist += code
		if code == 255 && dist == 31<<8+255 {
			if ip+1 >= len(src) {
				return op, false
			}
			dist = int(src[ip])<<8 | int(src[ip+1]) + 8191
			ip += 2
		}
		dist++
		if n > len(dst)-op || dist > op {
			return op, false
		}
		if ip >= len(src) {
			return op, true // a final match is checked, not copied, as in C
		}
		ctrl = int(src[ip])
		ip++
		for k := 0; k < n; k++ {
			dst[op+k] = dst[op-dist+k]
		}
		op += n
	}
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
