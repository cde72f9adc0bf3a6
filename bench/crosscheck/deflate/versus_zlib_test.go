//go:build cblosc && cgo

// Package deflate_test checks internal/deflate against the system's C
// zlib (Debian's 1.2.13, which c-blosc2 links here): the same input at
// the same level must give compress2's bytes exactly.
package deflate_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czlib"
	"github.com/goblosc/blosc/internal/deflate"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/testrand"
	"github.com/goblosc/blosc/internal/zstdtest"
)

// inputs are streams of the shapes Blosc hands zlib, plus edge cases:
// empty, tiny, incompressible, long runs, and sizes around the window
// and the block symbol limit.
func inputs(tb testing.TB) []struct {
	name string
	src  []byte
} {
	var out []struct {
		name string
		src  []byte
	}
	add := func(name string, src []byte) {
		out = append(out, struct {
			name string
			src  []byte
		}{name, src})
	}
	add("empty", nil)
	add("one", []byte{7})
	add("two", []byte{7, 7})
	add("three", []byte{7, 7, 7})
	r := rand.New(rand.NewPCG(1, 2))
	rnd := make([]byte, 200<<10)
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	add("random/200k", rnd)
	add("random/100", rnd[:100])
	add("zeros/300k", make([]byte, 300<<10))
	small := make([]byte, 150<<10)
	for i := range small {
		small[i] = "abcd"[r.IntN(4)]
	}
	add("alphabet4/150k", small)
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"arange_i64", 8}, {"rec12", 4}} {
		for _, n := range []int{1000, 32<<10 + 17, 65536, 65536 + 300, 256 << 10, 1 << 20} {
			add(fmt.Sprintf("%s/%d", s.name, n), golden.Shuffled(golden.MustPattern(tb, s.name, n), s.ts))
		}
	}
	add("noisy_f32/256k", golden.Shuffled(zstdtest.NoisyFloats(256<<10), 4))
	// Runs of one byte between other bytes, whose chains the match
	// search steps over a run at a time: Blosc's sparse and run-length
	// datasets, and runs of random bytes and lengths (the run a match
	// ends in as long as the scan's, shorter and longer).
	for _, s := range []struct {
		name string
		ts   int
	}{{"sparse_f64", 8}, {"runs", 4}, {"mixed_rec13", 13}, {"timestamps_i64", 8}} {
		for _, n := range []int{65536 + 300, 256 << 10, 1 << 20} {
			add(fmt.Sprintf("%s/%d", s.name, n), golden.Shuffled(golden.MustPattern(tb, s.name, n), s.ts))
		}
	}
	add("randruns/300k", testrand.Runs(r, 300<<10))
	return out
}

// TestBytesEqualCompress2: at every level 1-9, our stream is compress2's.
func TestBytesEqualCompress2(t *testing.T) {
	var e deflate.Encoder
	for _, in := range inputs(t) {
		for level := 1; level <= 9; level++ {
			want, err := czlib.Compress(in.src, level)
			if err != nil {
				t.Fatal(err)
			}
			got := e.AppendCompress(nil, in.src, level)
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s level %d: %d bytes, compress2 %d; first difference at %d", in.name, level, len(got), len(want), i)
			}
		}
	}
}

func TestZlibVersion(t *testing.T) {
	t.Logf("C zlib %s", czlib.Version())
	var e deflate.Encoder
	src := golden.Shuffled(golden.MustPattern(t, "text", 100000), 1)
	got := e.AppendCompress(nil, src, 6)
	want, _ := czlib.Compress(src, 6)
	t.Logf("ours %d bytes, C %d bytes, equal %v, head % x", len(got), len(want), bytes.Equal(got, want), got[:8])
}

// TestWriteVectors writes internal/deflate/testdata/compress2.tsv, the
// length and SHA-256 of compress2's stream for inputs that pure-Go tests
// regenerate from internal/golden. DEFLATE_WRITE_VECTORS=1 runs it.
func TestWriteVectors(t *testing.T) {
	if os.Getenv("DEFLATE_WRITE_VECTORS") == "" {
		t.Skip("set DEFLATE_WRITE_VECTORS=1 to rewrite internal/deflate/testdata/compress2.tsv")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# compress2 of C zlib %s on internal/golden patterns, byte-shuffled at the typesize\n", czlib.Version())
	b.WriteString("# pattern\ttypesize\tsize\tlevel\tstream length\tsha256\n")
	for _, s := range []struct {
		name string
		ts   int
	}{{"text", 1}, {"f32_noise", 4}, {"linspace_f64", 8}, {"arange_i64", 8}, {"rand_s1", 8}, {"runs", 4},
		{"sensor_f32", 4}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"mixed_rec13", 13}, {"zeros", 1}} {
		for _, n := range []int{5, 300, 40000, 70000, 300000} {
			src := golden.Shuffled(golden.MustPattern(t, s.name, n), s.ts)
			for level := 1; level <= 9; level++ {
				stream, err := czlib.Compress(src, level)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(stream)
				fmt.Fprintf(&b, "%s\t%d\t%d\t%d\t%d\t%s\n", s.name, s.ts, n, level, len(stream), hex.EncodeToString(sum[:]))
			}
		}
	}
	if err := os.WriteFile("../../../internal/deflate/testdata/compress2.tsv", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzDeflateVersusZlib: for any input and level, our stream is the one
// compress2 writes.
func FuzzDeflateVersusZlib(f *testing.F) {
	f.Add([]byte("hello, hello, hello world"), byte(1))
	f.Add(bytes.Repeat([]byte{0, 1, 2, 3, 0, 1}, 2000), byte(5))
	f.Add([]byte{}, byte(9))
	f.Add(testrand.Runs(rand.New(rand.NewPCG(3, 4)), 20000), byte(8))
	f.Add(golden.Shuffled(golden.MustPattern(f, "sparse_f64", 16000), 8), byte(9))
	var e deflate.Encoder
	f.Fuzz(func(t *testing.T, src []byte, lv byte) {
		level := int(lv)%9 + 1
		want, err := czlib.Compress(src, level)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.AppendCompress(nil, src, level); !bytes.Equal(got, want) {
			t.Fatalf("level %d: %d bytes, compress2 %d, first difference at %d", level, len(got), len(want), golden.FirstDiff(got, want))
		}
	})
}

// TestBytesEqualAtWindowEdges: inputs ending just before, at and after
// the points where zlib slides its window (the data then ends inside the
// window, and the match scan reads the bytes past it that zlib zeroed or
// left from before the slide), with periodic data whose matches run into
// the end.
func TestBytesEqualAtWindowEdges(t *testing.T) {
	var e deflate.Encoder
	text := golden.MustPattern(t, "text", 200<<10)
	period := bytes.Repeat([]byte("0123456789abcdefghij"), 10<<10)
	runs := golden.Shuffled(golden.MustPattern(t, "runs", 200<<10), 4)
	for _, base := range []int{65536, 98304, 131072} {
		for n := base - 600; n <= base+300; n += 13 {
			for _, src := range [][]byte{text[:n], period[:n], runs[:n]} {
				for _, level := range []int{1, 3, 4, 6, 9} {
					want, err := czlib.Compress(src, level)
					if err != nil {
						t.Fatal(err)
					}
					if got := e.AppendCompress(nil, src, level); !bytes.Equal(got, want) {
						t.Fatalf("%d bytes level %d: differs from compress2 at %d", n, level, golden.FirstDiff(got, want))
					}
				}
			}
		}
	}
}
