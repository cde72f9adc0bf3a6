//go:build cblosc && cgo

// Package zlib_test holds the zlib codec's inflate (internal/codec, on
// klauspost/compress's zlib) to C zlib's uncompress, which c-blosc2 calls:
// a differential fuzz target and a timing of the Go inflaters beside C's
// on Blosc-like streams.
package zlib_test

import (
	"bytes"
	stdzlib "compress/zlib"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czlib"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdtest"
	kzlib "github.com/klauspost/compress/zlib"
)

// benchBlocks are 256 KiB blocks of the bench datasets, byte-shuffled as
// Blosc stores them, with the noisy temperature-like floats.
func benchBlocks(tb testing.TB) []struct {
	name string
	src  []byte
} {
	const n = 256 << 10
	var out []struct {
		name string
		src  []byte
	}
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"noisy_f32", 4}, {"linspace_f64", 8}, {"text", 1}, {"arange_i64", 8}, {"rec12", 4}} {
		var p []byte
		if s.name == "noisy_f32" {
			p = zstdtest.NoisyFloats(n)
		} else {
			p = golden.MustPattern(tb, s.name, n)
		}
		out = append(out, struct {
			name string
			src  []byte
		}{fmt.Sprintf("%s/ts=%d", s.name, s.ts), golden.Shuffled(p, s.ts)})
	}
	return out
}

// readAll inflates src with r, reset onto it, into exactly len(dst) bytes.
func readAll(r io.Reader, in *bytes.Reader, src, dst []byte) error {
	in.Reset(src)
	if err := r.(kzlib.Resetter).Reset(in, nil); err != nil {
		return err
	}
	_, err := io.ReadFull(r, dst)
	return err
}

// BenchmarkZlibInflateVersusC alternates the standard library's
// compress/zlib, klauspost's zlib, the codec (klauspost's, as chunks
// decode) and C zlib's uncompress on the same streams, written by C zlib
// at levels 1, 5 and 9, and reports each one's best GB/s and the ratios
// to C; run with -benchtime=50x or so.
func BenchmarkZlibInflateVersusC(b *testing.B) {
	for _, s := range benchBlocks(b) {
		n := len(s.src)
		for _, level := range []int{1, 5, 9} {
			stream, err := czlib.Compress(s.src, level)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/level=%d", s.name, level), func(b *testing.B) {
				dst := make([]byte, n)
				var in bytes.Reader
				in.Reset(stream)
				sr, err := stdzlib.NewReader(&in)
				if err != nil {
					b.Fatal(err)
				}
				in.Reset(stream)
				kr, err := kzlib.NewReader(&in)
				if err != nil {
					b.Fatal(err)
				}
				var st codec.State
				best := zstdtest.Alternate(b, n, []zstdtest.Side{
					{"std", func() error { return readAll(sr, &in, stream, dst) }},
					{"klauspost", func() error { return readAll(kr, &in, stream, dst) }},
					{"codec", func() error { return st.Decompress(codec.Zlib, dst, stream) }},
					{"c", func() error {
						m, err := czlib.Uncompress(dst, stream)
						if err == nil && m != n {
							err = fmt.Errorf("zlib gave %d bytes, want %d", m, n)
						}
						return err
					}},
				})
				b.ReportMetric(float64(best[3])/float64(best[0]), "std/c")
				b.ReportMetric(float64(best[3])/float64(best[1]), "klauspost/c")
				b.ReportMetric(float64(best[3])/float64(best[2]), "codec/c")
				b.ReportMetric(float64(n)/float64(len(stream)), "ratio")
			})
		}
	}
}

// FuzzZlibVersusC compares the codec's zlib inflate with C zlib's
// uncompress on any bytes, decoded into n bytes: where C makes exactly n
// bytes, the codec must make the same; where the codec succeeds, C must
// make the same n bytes.
func FuzzZlibVersusC(f *testing.F) {
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		for _, level := range []int{0, 1, 6, 9} {
			stream, err := czlib.Compress(src, level)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(stream, uint32(len(src)))
		}
	}
	var st codec.State
	f.Fuzz(func(t *testing.T, stream []byte, n uint32) {
		n %= 1 << 18
		ref := make([]byte, n)
		cn, cerr := czlib.Uncompress(ref, stream)
		got := make([]byte, n)
		err := st.Decompress(codec.Zlib, got, stream)
		cok := cerr == nil && cn == int(n)
		switch {
		case err != nil && !errors.Is(err, codec.ErrCorrupt):
			t.Fatalf("error wraps no sentinel: %v", err)
		case err == nil && !cok:
			t.Fatalf("the codec inflates a stream C gives %d of %d bytes for (%v)", cn, n, cerr)
		case err == nil && !bytes.Equal(got, ref):
			t.Fatalf("the codec and C differ from byte %d", golden.FirstDiff(got, ref))
		case err != nil && cok:
			t.Fatalf("the codec refuses a stream C inflates: %v", err)
		}
	})
}
