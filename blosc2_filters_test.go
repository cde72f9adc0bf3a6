package blosc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		// Small values so that shuffles and deltas see structure.
		b[i] = byte(r.IntN(4))
		if i%5 == 0 {
			b[i] = byte(r.Uint32())
		}
	}
	return b
}

func TestDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for ts := 1; ts <= 33; ts++ {
		for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 1000, 1003} {
			ref := randBytes(r, n+16)
			in := randBytes(r, n)
			enc := make([]byte, n)
			// Block 0 refers to itself.
			deltaEncode(enc, in, nil, ts)
			dec := bytes.Clone(enc)
			deltaDecode(dec, nil, ts)
			if !bytes.Equal(dec, in) {
				t.Fatalf("ts=%d n=%d block 0: first difference at %d", ts, n, golden.FirstDiff(dec, in))
			}
			// Other blocks refer to block 0.
			deltaEncode(enc, in, ref[:n], ts)
			dec = bytes.Clone(enc)
			deltaDecode(dec, ref[:n], ts)
			if !bytes.Equal(dec, in) {
				t.Fatalf("ts=%d n=%d block k: first difference at %d", ts, n, golden.FirstDiff(dec, in))
			}
			// The bytes past the last whole word pass through.
			u := deltaUnit(ts)
			if tail := n / u * u; !bytes.Equal(enc[tail:], in[tail:]) {
				t.Fatalf("ts=%d n=%d: tail not copied", ts, n)
			}
		}
	}
}

// TestDeltaMatchesC checks the encoder against c-blosc2's delta_encoder
// written out element by element for the word sizes it switches on.
func TestDeltaMatchesC(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, ts := range []int{1, 2, 3, 4, 8, 12, 16, 24} {
		in := randBytes(r, 96)
		ref := randBytes(r, 96)
		u := map[int]int{1: 1, 2: 2, 3: 1, 4: 4, 8: 8, 12: 1, 16: 8, 24: 8}[ts]
		want0 := bytes.Clone(in)
		wantK := bytes.Clone(in)
		for e := 0; e < len(in)/u; e++ {
			for k := 0; k < u; k++ {
				i := e*u + k
				if e > 0 {
					want0[i] = in[i] ^ in[i-u]
				}
				wantK[i] = in[i] ^ ref[i]
			}
		}
		got := make([]byte, len(in))
		deltaEncode(got, in, nil, ts)
		if !bytes.Equal(got, want0) {
			t.Errorf("ts=%d block 0 differs at %d", ts, golden.FirstDiff(got, want0))
		}
		deltaEncode(got, in, ref, ts)
		if !bytes.Equal(got, wantK) {
			t.Errorf("ts=%d block k differs at %d", ts, golden.FirstDiff(got, wantK))
		}
	}
}

func TestTruncMask(t *testing.T) {
	for _, c := range []struct {
		meta int8
		ts   int
		want uint64
		ok   bool
	}{
		{-20, 8, ^uint64(1<<20 - 1), true},
		{10, 4, ^uint64(1<<13 - 1), true},
		{20, 8, ^uint64(1<<32 - 1), true},
		{-8, 8, ^uint64(0xff), true},
		{0, 4, 0, false},   // would clear the whole mantissa
		{-23, 4, 0, false}, // the same
		{24, 4, 0, false},
		{-53, 8, 0, false},
		{10, 2, 0, false},
		{10, 16, 0, false},
	} {
		got, err := truncMask(c.meta, c.ts)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("truncMask(%d, %d) = %#x, %v; want %#x ok=%v", c.meta, c.ts, got, err, c.want, c.ok)
		}
	}
}

// TestTruncPrecGolden: TRUNC_PREC alone applied to the raw input gives
// exactly what C decodes from its lossy vectors (the .out files).
func TestTruncPrecGolden(t *testing.T) {
	dir, es := golden.Rows(t, blosc2Kinds...)
	n := 0
	for _, e := range es {
		if !strings.HasPrefix(e.Filters, "trunc_prec") {
			continue
		}
		n++
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, ".b2chunk")+".out"))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := golden.Pattern(e.Pattern, int(e.Nbytes))
			if err != nil {
				t.Fatal(err)
			}
			var meta int8
			if _, err := fmt.Sscanf(e.Filters, "trunc_prec(%d)", &meta); err != nil {
				t.Fatal(err)
			}
			mask, err := truncMask(meta, e.Typesize)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(raw))
			truncPrec(got, raw, mask, e.Typesize)
			if !bytes.Equal(got, want) {
				t.Fatalf("first difference at %d", golden.FirstDiff(got, want))
			}
		})
	}
	if n == 0 {
		t.Fatal("no trunc_prec vectors")
	}
}

var testPipelines = [][]Filter{
	{}, {ByteShuffle}, {BitShuffle}, {Delta}, {Delta, ByteShuffle}, {Delta, BitShuffle},
	{ByteShuffle, BitShuffle}, {BitShuffle, ByteShuffle}, {ByteShuffle, Delta}, {Delta, Delta, ByteShuffle},
	{NoFilter, ByteShuffle, NoFilter, Delta},
}

// TestPipelineRoundTrip runs every lossless pipeline forward and backward
// over block 0 and a later block, in c-blosc2's buffer discipline.
func TestPipelineRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, fs := range testPipelines {
		for _, ts := range []int{1, 2, 3, 4, 7, 8, 16, 17} {
			for _, meta := range []uint8{0, 2} {
				for _, n := range []int{0, 1, 7, 64, 100, 1000, 4096} {
					var p pipeline2
					p.typesize = ts
					for i, f := range fs {
						p.filters[i] = uint8(f)
						if f == ByteShuffle {
							p.meta[i] = meta
						}
					}
					name := fmt.Sprintf("%v/ts=%d/meta=%d/n=%d", fs, ts, meta, n)
					block0 := randBytes(r, n)
					blockK := randBytes(r, n)
					a, b := make([]byte, n), make([]byte, n)
					for _, k := range []int{0, 1} {
						in, ref := block0, []byte(nil)
						if k == 1 {
							in, ref = blockK, block0
						}
						orig := bytes.Clone(in)
						enc, err := p.forward(in, a, b, ref)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(in, orig) {
							t.Fatalf("%s: forward modified its input", name)
						}
						codecOut := bytes.Clone(enc)
						out := make([]byte, n)
						p.backward(out, codecOut, make([]byte, n), ref)
						if !bytes.Equal(out, in) {
							t.Fatalf("%s block %d: first difference at %d", name, k, golden.FirstDiff(out, in))
						}
					}
				}
			}
		}
	}
}

func TestRunStreams(t *testing.T) {
	var cd testCodec
	for _, v := range []byte{0, 1, 0x5a, 255} {
		for _, n := range []int{1, 7, 8, 9, 1000} {
			in := bytes.Repeat([]byte{v}, n)
			if !isRun(in) {
				t.Fatalf("isRun(%d x %#x) = false", n, v)
			}
			var s [8]byte
			k := putRun(s[:], v)
			if k != runStreamLen(v) {
				t.Fatalf("putRun wrote %d bytes, runStreamLen says %d", k, runStreamLen(v))
			}
			out := make([]byte, n)
			fill(out, ^v)
			m, err := readStream(out, s[:k], Zstd, nil, &cd)
			if err != nil || m != k || !bytes.Equal(out, in) {
				t.Fatalf("run of %#x: read %d of %d, err %v", v, m, k, err)
			}
			if n > 1 {
				in[n-1] ^= 1
				if isRun(in) {
					t.Fatalf("isRun true for a broken run of %d", n)
				}
			}
		}
	}
	if isRun(nil) {
		t.Fatal("isRun(nil) = true")
	}
	// A negative size without the run token, or below -255, is refused.
	for _, s := range [][]byte{{0xff, 0xff, 0xff, 0xff, 0x00}, {0x00, 0xff, 0xff, 0xff, 0x01}, {0xff, 0xff, 0xff, 0xff}, {1, 0}} {
		if _, err := readStream(make([]byte, 10), s, Zstd, nil, &cd); err == nil {
			t.Errorf("stream %x accepted", s)
		}
	}
	// A raw stream is copied.
	raw := []byte{4, 0, 0, 0, 9, 8, 7, 6}
	out := make([]byte, 4)
	if n, err := readStream(out, raw, Zstd, nil, &cd); err != nil || n != 8 || !bytes.Equal(out, raw[4:]) {
		t.Fatalf("raw stream: %d %v %x", n, err, out)
	}
}
