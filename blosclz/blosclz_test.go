package blosclz_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
	"github.com/goblosc/blosc/internal/golden"
)

// roundTrip compresses src at level with dst of len(src) (what c-blosc
// offers) and checks blosclz.Decompress gives src back. It returns the stream
// length, 0 when the encoder declined.
func roundTrip(t *testing.T, src []byte, level int, split bool) int {
	t.Helper()
	dst := make([]byte, len(src)+8)
	for i := range dst {
		dst[i] = 0xA5
	}
	n := blosclz.CompressBlock(dst[:len(src)], src, level, split)
	if n < 0 || n > len(src) {
		t.Fatalf("level %d: blosclz.Compress returned %d for %d bytes", level, n, len(src))
	}
	for i := len(src); i < len(dst); i++ {
		if dst[i] != 0xA5 {
			t.Fatalf("level %d: blosclz.Compress wrote past len(dst) at %d", level, i)
		}
	}
	if n == 0 {
		return 0
	}
	out := make([]byte, len(src))
	m, err := blosclz.Decompress(out, dst[:n])
	if err != nil || m != len(src) || !bytes.Equal(out, src) {
		t.Fatalf("level %d split %v: %d bytes: blosclz.Decompress gave %d, %v; first difference at %d",
			level, split, len(src), m, err, golden.FirstDiff(out, src))
	}
	return n
}

func roundTripBlosc2(t *testing.T, src []byte, level int) {
	t.Helper()
	dst := make([]byte, len(src))
	n := blosclz.CompressBlosc2(dst, src, level)
	if n == 0 {
		return
	}
	out := make([]byte, len(src))
	if m, err := blosclz.Decompress(out, dst[:n]); err != nil || m != len(src) || !bytes.Equal(out, src) {
		t.Fatalf("2.5.3 level %d: %d bytes: Decompress gave %d, %v", level, len(src), m, err)
	}
}

func TestRoundTripPatterns(t *testing.T) {
	for _, name := range golden.Names {
		for _, n := range []int{0, 1, 15, 16, 51, 52, 100, 1000, 4096, 65536, 300001} {
			src := blosclztest.Shuffled(t, name, n)
			for level := 1; level <= blosclz.MaxLevel; level++ {
				roundTrip(t, src, level, true)
				roundTrip(t, src, level, false)
				roundTripBlosc2(t, src, level)
			}
		}
	}
}

// Long runs and far matches exercise the length extension bytes and the
// 16-bit distance form.
func TestRoundTripStructured(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	// The filler compresses (a counter) but never matches the noise blocks,
	// which therefore come back from exactly far bytes away.
	filler := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i / 3)
		}
		return b
	}
	var src []byte
	for _, far := range []int{8000, 8191, 8192, 8193, 8200, 20000, 65535, 73723, 73724, 73725, 80000} {
		block := noise(300)
		src = append(src, block...)
		src = append(src, filler(far-300)...)
		src = append(src, block...)
		src = append(src, bytes.Repeat([]byte{7}, far%1000+3)...)
	}
	for level := 1; level <= blosclz.MaxLevel; level++ {
		if n := roundTrip(t, src, level, true); n == 0 || n >= len(src) {
			t.Fatalf("level %d: no compression (%d of %d)", level, n, len(src))
		}
		roundTrip(t, src, level, false)
	}
	// Every small size and alignment of a compressible input.
	base := blosclztest.Shuffled(t, "rec12", 3000)
	for n := 0; n < 600; n++ {
		roundTrip(t, base[n%7:n%7+n], 5, true)
		roundTrip(t, base[:n], 9, false)
	}
}

func TestCompressRefuses(t *testing.T) {
	src := blosclztest.Shuffled(t, "arange_i64", 4096)
	dst := make([]byte, 4096)
	if n := blosclz.Compress(dst, src, 0); n != 0 {
		t.Errorf("level 0 gave %d, want 0", n)
	}
	if n := blosclz.Compress(dst[:65], src, 5); n != 0 {
		t.Errorf("65-byte dst gave %d, want 0", n)
	}
	if n := blosclz.Compress(dst, src[:15], 5); n != 0 {
		t.Errorf("15-byte input gave %d, want 0", n)
	}
	if a, b := blosclz.Compress(dst, src, 99), blosclz.Compress(make([]byte, 4096), src, 9); a != b || a == 0 {
		t.Errorf("level 99 gave %d, level 9 %d", a, b)
	}
	// Random bytes fail every level's entropy threshold.
	noise := golden.MustPattern(t, "rand_s1", 65536)
	for level := 1; level <= blosclz.MaxLevel; level++ {
		if n := blosclz.Compress(make([]byte, len(noise)), noise, level); n != 0 {
			t.Errorf("level %d compressed random data to %d", level, n)
		}
	}
	// A compressible input whose stream does not fit returns 0 without
	// writing past dst, for every dst length.
	text := golden.MustPattern(t, "text", 8192)
	full := blosclz.Compress(make([]byte, len(text)), text, 5)
	if full == 0 {
		t.Fatal("text did not compress")
	}
	buf := make([]byte, full+16)
	if n := blosclz.Compress(buf[:full+2], text, 5); n != full {
		t.Fatalf("dst of %d: got %d, want %d", full+2, n, full)
	}
	for size := 66; size <= full+2; size++ {
		for i := range buf {
			buf[i] = 0x5A
		}
		n := blosclz.Compress(buf[:size], text, 5)
		// C wants room for a literal and a possible count byte, so the
		// stream may need a byte or two more room than its length.
		if (size < full && n != 0) || (size >= full && n != 0 && n != full) {
			t.Fatalf("dst of %d: got %d (full stream %d)", size, n, full)
		}
		for i := size; i < len(buf); i++ {
			if buf[i] != 0x5A {
				t.Fatalf("dst of %d: write at %d", size, i)
			}
		}
	}
}

func TestDecompressRejects(t *testing.T) {
	src := golden.MustPattern(t, "text", 20000)
	comp := make([]byte, len(src))
	n := blosclz.Compress(comp, src, 5)
	comp = comp[:n]
	out := make([]byte, len(src))

	if m, err := blosclz.Decompress(out[:len(src)-1], comp); !errors.Is(err, blosclz.ErrCorrupt) {
		t.Errorf("short dst: %d, %v", m, err)
	}
	cases := map[string][]byte{
		"match before output": {0x00, 'a', 0x20, 0x05, 0x00, 'b'},
		"literal past end":    {0x05, 'a', 'b'},
		"ends in length":      {0x00, 'a', 0xE0, 0xFF},
		"short match at end":  {0x00, 'a', 0x20, 0x00},
		"far distance cut":    {0x00, 'a', 0x3F, 0xFF, 0x00},
	}
	for name, s := range cases {
		if m, err := blosclz.Decompress(out, s); !errors.Is(err, blosclz.ErrCorrupt) {
			t.Errorf("%s: %d, %v", name, m, err)
		}
	}
	// Every truncation of a real stream either fails or decodes less.
	for cut := 1; cut < len(comp); cut++ {
		m, err := blosclz.Decompress(out, comp[:cut])
		if err == nil && m >= len(src) {
			t.Fatalf("cut at %d of %d decoded all %d bytes", cut, len(comp), m)
		}
	}
	if m, err := blosclz.Decompress(out, nil); m != 0 || err != nil {
		t.Errorf("empty stream: %d, %v", m, err)
	}
}

// A stream that ends with a match: C checks it but does not copy it.
func TestDecompressTrailingMatch(t *testing.T) {
	s := []byte{0x01, 'a', 'b', 0xE0, 0x00, 0x01}
	out := make([]byte, 20)
	if n, err := blosclz.Decompress(out, s); n != 2 || err != nil {
		t.Errorf("got %d, %v; want 2, nil", n, err)
	}
	// A short match needs a byte after its distance byte, or C rejects it.
	if _, err := blosclz.Decompress(out, []byte{0x01, 'a', 'b', 0x20, 0x01}); !errors.Is(err, blosclz.ErrCorrupt) {
		t.Errorf("short trailing match accepted: %v", err)
	}
	s[5] = 0x05 // now reaching before the output: rejected even though not copied
	if _, err := blosclz.Decompress(out, s); !errors.Is(err, blosclz.ErrCorrupt) {
		t.Errorf("bad trailing match accepted: %v", err)
	}
}

func TestOverlappingMatches(t *testing.T) {
	// Periods 1..20 repeated far beyond their length, decoded through every
	// copy path.
	for period := 1; period <= 20; period++ {
		var src []byte
		for i := 0; i < 3000; i++ {
			src = append(src, byte(i%period*37+period))
		}
		src = append(src, "tail of the input, not periodic at all"...)
		for level := 1; level <= blosclz.MaxLevel; level++ {
			if n := roundTrip(t, src, level, true); n == 0 {
				t.Fatalf("period %d level %d did not compress", period, level)
			}
		}
	}
	// Runs of one byte of every length from 30 to 300, which the decoder
	// writes a word at a time, ending at every offset within a word.
	var src []byte
	for n := 30; n <= 300; n++ {
		for i := 0; i < n; i++ {
			src = append(src, byte(n))
		}
	}
	for level := 1; level <= blosclz.MaxLevel; level++ {
		if n := roundTrip(t, src, level, true); n == 0 {
			t.Fatalf("runs, level %d did not compress", level)
		}
	}
}

func TestNoAllocations(t *testing.T) {
	src := blosclztest.Shuffled(t, "linspace_f64", 4096)
	dst := make([]byte, len(src))
	out := make([]byte, len(src))
	var n int
	if a := testing.AllocsPerRun(20, func() { n = blosclz.Compress(dst, src, 5) }); a != 0 {
		t.Errorf("blosclz.Compress: %v allocations", a)
	}
	if a := testing.AllocsPerRun(20, func() { blosclz.CompressBlosc2(out, src, 5) }); a != 0 {
		t.Errorf("CompressBlosc2: %v allocations", a)
	}
	if n == 0 {
		t.Fatal("did not compress")
	}
	if a := testing.AllocsPerRun(20, func() { _, _ = blosclz.Decompress(out, dst[:n]) }); a != 0 {
		t.Errorf("blosclz.Decompress: %v allocations", a)
	}
	bad := append([]byte(nil), dst[:n]...)
	bad[2] = 0xff
	if a := testing.AllocsPerRun(20, func() { _, _ = blosclz.Decompress(out[:100], bad) }); a != 0 {
		t.Errorf("blosclz.Decompress of a corrupt stream: %v allocations", a)
	}
}

func TestConcurrent(t *testing.T) {
	src := blosclztest.Shuffled(t, "f32_noise", 1<<16)
	want := make([]byte, len(src))
	wn := blosclz.Compress(want, src, 7)
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			dst := make([]byte, len(src))
			out := make([]byte, len(src))
			for i := 0; i < 20; i++ {
				n := blosclz.Compress(dst, src, 7)
				if n != wn || !bytes.Equal(dst[:n], want[:wn]) {
					done <- errors.New("different stream under concurrency")
					return
				}
				if m, err := blosclz.Decompress(out, dst[:n]); err != nil || m != len(src) || !bytes.Equal(out, src) {
					done <- errors.New("round trip failed under concurrency")
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestMatchShapes decodes hand-made streams, a literal run and then one
// match of every distance 1..40 (and a few far ones) and many lengths,
// into a dst of exactly the decoded size and into one with room to spare,
// against a byte-at-a-time copy: every path of the match copy, its word
// stores that run past the match and the runs that end at dst's end.
func TestMatchShapes(t *testing.T) {
	lit := make([]byte, 300)
	for i := range lit {
		lit[i] = byte(i*131 + i>>3)
	}
	dists := []int{}
	for d := 1; d <= 40; d++ {
		dists = append(dists, d)
	}
	dists = append(dists, 63, 64, 100, 255, 256, 257, 300)
	for _, d := range dists {
		for _, n := range []int{3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100, 127, 128, 200, 255, 256, 257, 300, 511, 600, 1000, 4100} {
			for _, zero := range []bool{false, true} {
				// The literals: at least d of them, in runs of at most 32.
				nl := max(d, 40)
				body := lit[:nl]
				if zero {
					body = make([]byte, nl)
				}
				var s []byte
				for i := 0; i < nl; i += 32 {
					k := min(32, nl-i)
					s = append(s, byte(k-1))
					s = append(s, body[i:i+k]...)
				}
				// The match: length n, distance d, both biased.
				dd := d - 1
				if n < 9 {
					s = append(s, byte((n-2)<<5|dd>>8), byte(dd))
				} else {
					s = append(s, byte(7<<5|dd>>8))
					for r := n - 9; ; r -= 255 {
						if r < 255 {
							s = append(s, byte(r))
							break
						}
						s = append(s, 255)
					}
					s = append(s, byte(dd))
				}
				// A literal ends the stream, as the encoders do.
				s = append(s, 0, 0x5A)
				want := append([]byte(nil), body...)
				for i := 0; i < n; i++ {
					want = append(want, want[len(want)-d])
				}
				want = append(want, 0x5A)
				for _, slack := range []int{0, 1, 7, 64} {
					out := make([]byte, len(want)+slack)
					m, err := blosclz.Decompress(out, s)
					if err != nil || m != len(want) || !bytes.Equal(out[:m], want) {
						t.Fatalf("dist %d len %d zero %v slack %d: got %d, %v", d, n, zero, slack, m, err)
					}
				}
			}
		}
	}
}
