//go:build cblosc && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/golden"
)

// randomInput mixes a pattern with random runs so every codec sees both
// compressible and incompressible stretches.
func randomInput(rng *rand.Rand, n int) []byte {
	names := []string{"linspace_f64", "arange_i32", "text", "runs", "f32_noise", "zeros", "rec12"}
	b, _ := golden.Pattern(names[rng.IntN(len(names))], n)
	for k := rng.IntN(4); k > 0 && n > 0; k-- {
		at := rng.IntN(n)
		end := min(n, at+rng.IntN(4096))
		for i := at; i < end; i++ {
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

func shuffleCode(f blosc.Filter) int {
	switch f {
	case blosc.ByteShuffle:
		return 1
	case blosc.BitShuffle:
		return 2
	}
	return 0
}

// Both directions against c-blosc 1.21: every codec x shuffle x typesize x
// size class, with random levels and data.
func TestCrossCBlosc(t *testing.T) {
	t.Logf("c-blosc %s", cblosc.Version())
	rng := rand.New(rand.NewPCG(7, 11))
	typesizes := []int{1, 2, 3, 4, 7, 8, 16, 255}
	for _, c := range allCodecs {
		if !cblosc.HasCodec(c.String()) {
			t.Errorf("the C library lacks %s", c)
			continue
		}
		for _, f := range []blosc.Filter{blosc.NoFilter, blosc.ByteShuffle, blosc.BitShuffle} {
			for _, ts := range typesizes {
				level := 1 + rng.IntN(9)
				o := withFilter(blosc.Options{Codec: c, Level: level, Typesize: ts, Threads: 1}, f)
				bs := autoBlocksize(t, o) // the block size of a 1 MiB input
				sizes := []int{0, 1, 127, 128, bs - 1, bs, bs + 1, 2*bs + ts - 1, 1<<20 + 13}
				for _, n := range sizes {
					if n < 0 {
						continue
					}
					in := randomInput(rng, n)
					name := fmt.Sprintf("%s/%s/ts%d/l%d/n%d", c, f, ts, level, n)
					crossOne(t, name, in, o)
				}
			}
		}
	}
}

func crossOne(t *testing.T, name string, in []byte, o blosc.Options) {
	t.Helper()
	n := len(in)
	ours, err := blosc.Compress(nil, in, o)
	if err != nil {
		t.Fatalf("%s: Compress: %v", name, err)
	}
	back := make([]byte, n+1)
	k, err := cblosc.Decompress(back, ours, 1)
	if err != nil || k != n || !bytes.Equal(back[:n], in) {
		t.Fatalf("%s: C cannot read our chunk: n=%d err=%v", name, k, err)
	}
	cbuf := make([]byte, n+16)
	cn, err := cblosc.Compress(cbuf, in, o.Codec.String(), o.Level, shuffleCode(o.Filters[blosc.MaxFilters-1]), o.Typesize, 0, 1)
	if err != nil {
		t.Fatalf("%s: C Compress: %v", name, err)
	}
	theirs := cbuf[:cn]
	out, err := blosc.Decompress(nil, theirs)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("%s: we cannot read C's chunk: %v", name, err)
	}
	// Same header but cbytes; same bytes for the codecs that allow it.
	if !bytes.Equal(ours[:12], theirs[:12]) {
		wh, _ := blosc.ReadHeader(theirs)
		gh, _ := blosc.ReadHeader(ours)
		// A codec with another ratio may fall back to a copy where C did
		// not, or the reverse; nothing else may differ.
		if gh.Memcpyed == wh.Memcpyed || ours[2]&^flagMemcpyed != theirs[2]&^flagMemcpyed || !bytes.Equal(ours[3:12], theirs[3:12]) {
			t.Fatalf("%s: header % x, C's % x", name, ours[:12], theirs[:12])
		}
	}
	if (o.Codec == blosc.LZ4 || o.Codec == blosc.BloscLZ) && !bytes.Equal(ours, theirs) {
		t.Fatalf("%s: chunk differs from C's: %s", name, golden.ChunkDiff(ours, theirs))
	}
	// GetItem on C's chunk against C's blosc_getitem.
	if items := n / o.Typesize; items > 0 {
		start := items / 3
		cnt := min(items-start, 1+items/2)
		want := make([]byte, cnt*o.Typesize)
		if _, err := cblosc.GetItem(want, theirs, start, cnt); err != nil {
			t.Fatalf("%s: C getitem: %v", name, err)
		}
		got, err := blosc.GetItems(nil, theirs, int64(start), int64(cnt))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: GetItem(%d, %d) differs from C's: %v", name, start, cnt, err)
		}
	}
}

// Forced block sizes and multi-threaded C output read back.
func TestCrossCBloscForcedAndThreaded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, c := range allCodecs {
		for _, bs := range []int{1, 777, 4096, 10000, 1 << 20} {
			in := randomInput(rng, 300000+rng.IntN(1000))
			ts := []int{1, 4, 8, 3}[rng.IntN(4)]
			o := withFilter(blosc.Options{Codec: c, Level: 5, Typesize: ts, Blocksize: bs, Threads: 1}, blosc.ByteShuffle)
			ours, err := blosc.Compress(nil, in, o)
			if err != nil {
				t.Fatal(err)
			}
			cbuf := make([]byte, len(in)+16)
			cn, err := cblosc.Compress(cbuf, in, c.String(), 5, 1, ts, bs, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ours[:12], cbuf[:12]) {
				t.Errorf("%s bs=%d ts=%d: header % x, C's % x", c, bs, ts, ours[:12], cbuf[:12])
			}
			cn2, err := cblosc.Compress(cbuf, in, c.String(), 5, 1, ts, bs, 2)
			if err != nil {
				t.Fatal(err)
			}
			_ = cn
			if out, err := blosc.Decompress(nil, cbuf[:cn2]); err != nil || !bytes.Equal(out, in) {
				t.Fatalf("%s bs=%d: C's 2-thread chunk: %v", c, bs, err)
			}
		}
	}
}
