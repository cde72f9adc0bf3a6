//go:build cblosc && cgo

// Package zlib_test holds the zlib codec's inflate (internal/codec, on
// internal/inflate) to C zlib's uncompress, which c-blosc2 calls: C's
// streams of every strategy and mutations of them, a differential fuzz
// target, and a timing of the Go inflaters beside C's on Blosc-like
// streams.
package zlib_test

import (
	"bytes"
	stdzlib "compress/zlib"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czlib"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/inflate"
	"github.com/goblosc/blosc/internal/testrand"
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
// compress/zlib, klauspost's zlib, the codec (internal/inflate, as chunks
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

// agree decodes stream into n bytes with internal/inflate and C zlib's
// uncompress: both fail, or both give the same n bytes.
func agree(t *testing.T, d *inflate.Decoder, stream []byte, n int) bool {
	t.Helper()
	ref := make([]byte, n)
	cn, cerr := czlib.Uncompress(ref, stream)
	cok := cerr == nil && cn == n
	got := make([]byte, n)
	err := d.Decode(got, stream)
	switch {
	case err != nil && !errors.Is(err, inflate.ErrCorrupt):
		t.Fatalf("error wraps no sentinel: %v", err)
	case err == nil && !cok:
		t.Fatalf("inflate accepts a stream C gives %d of %d bytes for (%v)", cn, n, cerr)
	case err == nil && !bytes.Equal(got, ref):
		t.Fatalf("inflate and C differ from byte %d", golden.FirstDiff(got, ref))
	case err != nil && cok:
		t.Fatalf("inflate refuses a stream C inflates: %v", err)
	}
	return cok
}

// TestInflateVersusC decodes C zlib's streams of every level, strategy
// (fixed blocks, literals only, distance-1 runs) and window size, and
// mutations of them (truncations, bit flips, bytes overwritten), with
// internal/inflate and C: they agree on every one.
func TestInflateVersusC(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var d inflate.Decoder
	inputs := map[string][]byte{"random": testrand.Bytes(r, 5000), "zeros": make([]byte, 70000)}
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs", "sensor_f32", "mixed_rec13"} {
		inputs[name] = golden.Shuffled(golden.MustPattern(t, name, 70000), 4)
	}
	strategies := []int{czlib.DefaultStrategy, czlib.Filtered, czlib.HuffmanOnly, czlib.RLE, czlib.Fixed}
	streams, mutated, accepted := 0, 0, 0
	for name, src := range inputs {
		for _, level := range []int{0, 1, 4, 6, 9} {
			for _, strategy := range strategies {
				for _, wbits := range []int{9, 12, 15} {
					stream, err := czlib.CompressStrategy(src, level, wbits, strategy)
					if err != nil {
						t.Fatal(err)
					}
					streams++
					if !agree(t, &d, stream, len(src)) {
						t.Fatalf("%s level %d strategy %d window %d: C refuses its own stream", name, level, strategy, wbits)
					}
					// Mutations, a few per stream so the test stays quick.
					for range 12 {
						m := append([]byte{}, stream...)
						switch r.IntN(4) {
						case 0:
							m = m[:r.IntN(len(m))]
						case 1:
							i := r.IntN(len(m) * 8)
							m[i/8] ^= 1 << (i % 8)
						case 2:
							i := r.IntN(len(m))
							m[i] = byte(r.Uint32())
						default:
							i := r.IntN(min(len(m), 200))
							m[i] ^= byte(1 + r.IntN(255))
						}
						mutated++
						if agree(t, &d, m, len(src)) {
							accepted++
						}
					}
				}
			}
		}
	}
	// Random bytes behind a valid header.
	for range 2000 {
		m := append([]byte{0x78, 0x9c}, testrand.Bytes(r, 1+r.IntN(100))...)
		mutated++
		if agree(t, &d, m, r.IntN(300)) {
			accepted++
		}
	}
	t.Logf("%d streams of C's, %d mutations (%d of which both accept)", streams, mutated, accepted)
}
