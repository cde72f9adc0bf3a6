//go:build cblosc && cgo

// Package deflate_test checks internal/deflate against the system's C
// zlib (Debian's 1.2.13, which c-blosc2 links here): the same input at
// the same level must give compress2's bytes exactly.
package deflate_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czlib"
	"github.com/goblosc/blosc/internal/deflate"
	"github.com/goblosc/blosc/internal/golden"
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
