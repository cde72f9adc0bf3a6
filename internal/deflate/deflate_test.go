package deflate

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/testrand"
)

// inflate decodes a zlib stream with the standard library, checksum
// included.
func inflate(tb testing.TB, stream []byte) []byte {
	tb.Helper()
	r, err := zlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		tb.Fatalf("zlib header: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("inflate: %v", err)
	}
	return out
}

func testInputs(tb testing.TB) map[string][]byte {
	r := rand.New(rand.NewPCG(3, 4))
	in := map[string][]byte{
		"empty":       nil,
		"one":         {42},
		"three":       {1, 1, 1},
		"random/70k":  testrand.Bytes(r, 70000),
		"zeros/200k":  make([]byte, 200000),
		"text/100k":   golden.MustPattern(tb, "text", 100000),
		"noise/140k":  golden.Shuffled(golden.MustPattern(tb, "f32_noise", 140000), 4),
		"linspace/1M": golden.Shuffled(golden.MustPattern(tb, "linspace_f64", 1<<20), 8),
	}
	if testing.Short() {
		delete(in, "linspace/1M")
	}
	return in
}

// TestRoundTrip: every level's stream inflates to the input, and carries
// the header compress2 writes for the level.
func TestRoundTrip(t *testing.T) {
	var e Encoder
	header := [10]string{1: "7801", 2: "785e", 3: "785e", 4: "785e", 5: "785e", 6: "789c", 7: "78da", 8: "78da", 9: "78da"}
	for name, src := range testInputs(t) {
		for level := 1; level <= 9; level++ {
			stream := e.AppendCompress(nil, src, level)
			if len(stream) > Bound(len(src)) {
				t.Fatalf("%s level %d: %d bytes, above the bound %d", name, level, len(stream), Bound(len(src)))
			}
			if got := hex.EncodeToString(stream[:2]); got != header[level] {
				t.Errorf("%s level %d: header %s, want %s", name, level, got, header[level])
			}
			if got := inflate(t, stream); !bytes.Equal(got, src) {
				t.Fatalf("%s level %d: round trip differs at %d", name, level, golden.FirstDiff(got, src))
			}
		}
	}
}

// TestEmpty pins the stream of no input, which zlib writes as a fixed
// block holding only the end code.
func TestEmpty(t *testing.T) {
	var e Encoder
	if got := hex.EncodeToString(e.AppendCompress(nil, nil, 6)); got != "789c030000000001" {
		t.Fatalf("empty input: %s", got)
	}
	if got := hex.EncodeToString(e.AppendCompress(nil, nil, 1)); got != "7801030000000001" {
		t.Fatalf("empty input at level 1: %s", got)
	}
}

// TestCompress2Vectors compares our streams with the ones C zlib 1.2.13's
// compress2 wrote for the inputs named in testdata/compress2.tsv (made by
// bench/crosscheck/deflate's TestWriteVectors): length and SHA-256 per
// input and level. It runs without cgo, so the cross builds (big-endian,
// 32-bit) check byte identity too.
func TestCompress2Vectors(t *testing.T) {
	f, err := os.Open("testdata/compress2.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var e Encoder
	inputs := map[string][]byte{}
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		// pattern, typesize, size, level, stream length, sha256
		fs := strings.Split(line, "\t")
		if len(fs) != 6 {
			t.Fatalf("bad line %q", line)
		}
		ts, _ := strconv.Atoi(fs[1])
		n, _ := strconv.Atoi(fs[2])
		level, _ := strconv.Atoi(fs[3])
		want, _ := strconv.Atoi(fs[4])
		if testing.Short() && n > 100000 && level > 6 {
			continue
		}
		key := fs[0] + "/" + fs[1] + "/" + fs[2]
		src, ok := inputs[key]
		if !ok {
			src = golden.Shuffled(golden.MustPattern(t, fs[0], n), ts)
			inputs[key] = src
		}
		stream := e.AppendCompress(nil, src, level)
		sum := sha256.Sum256(stream)
		if len(stream) != want || hex.EncodeToString(sum[:]) != fs[5] {
			t.Errorf("%s level %d: %d bytes, compress2 wrote %d (or the same length with other bytes)", key, level, len(stream), want)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 100 {
		t.Fatalf("only %d vectors", rows)
	}
}

// TestShortDst: a destination one byte too small gets 0, as compress2
// fails then, and one of the exact size gets the same stream.
func TestShortDst(t *testing.T) {
	var e Encoder
	for name, src := range testInputs(t) {
		for _, level := range []int{1, 4, 9} {
			full := e.AppendCompress(nil, src, level)
			n := len(full)
			for _, size := range []int{0, 1, 2, n / 2, n - 5, n - 4, n - 1, n} {
				if size < 0 {
					continue
				}
				dst := make([]byte, size)
				got := e.Compress(dst, src, level)
				if size < n && got != 0 {
					t.Fatalf("%s level %d: %d bytes into %d", name, level, got, size)
				}
				if size == n && (got != n || !bytes.Equal(dst, full)) {
					t.Fatalf("%s level %d: exact fit wrote %d bytes, want the %d of the stream", name, level, got, n)
				}
			}
		}
	}
}

func TestBadLevel(t *testing.T) {
	var e Encoder
	dst := make([]byte, 100)
	for _, level := range []int{-2, 0, 10} {
		if n := e.Compress(dst, []byte("abc"), level); n != 0 {
			t.Errorf("level %d: %d bytes", level, n)
		}
	}
	if n := e.Compress(dst, []byte("abc"), -1); n == 0 || !bytes.Equal(inflate(t, dst[:n]), []byte("abc")) {
		t.Errorf("level -1 (default): %d bytes", n)
	}
}

// TestZeroAlloc: a reused encoder does not allocate.
func TestZeroAlloc(t *testing.T) {
	e := new(Encoder)
	src := golden.Shuffled(golden.MustPattern(t, "f32_noise", 64<<10), 4)
	dst := make([]byte, Bound(len(src)))
	for _, level := range []int{1, 6, 9} {
		if a := testing.AllocsPerRun(5, func() { e.Compress(dst, src, level) }); a != 0 {
			t.Errorf("level %d: %v allocations", level, a)
		}
	}
}

// FuzzRoundTrip: any input at any level inflates back through the
// standard library's decoder; a one-byte-short destination gets 0.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("hello, hello, hello world"), byte(1))
	f.Add(bytes.Repeat([]byte{0, 1, 2}, 400), byte(6))
	f.Add([]byte{}, byte(9))
	var e Encoder
	f.Fuzz(func(t *testing.T, src []byte, lv byte) {
		level := int(lv)%9 + 1
		stream := e.AppendCompress(nil, src, level)
		if got := inflate(t, stream); !bytes.Equal(got, src) {
			t.Fatalf("level %d: round trip differs at %d", level, golden.FirstDiff(got, src))
		}
		if n := e.Compress(make([]byte, len(stream)-1), src, level); n != 0 {
			t.Fatalf("level %d: %d bytes into %d", level, n, len(stream)-1)
		}
	})
}

func BenchmarkCompress(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"text", 1}, {"linspace_f64", 8}, {"rand_s1", 8}, {"runs", 4}, {"sparse_f64", 8}} {
		src := golden.Shuffled(golden.MustPattern(b, s.name, 256<<10), s.ts)
		dst := make([]byte, Bound(len(src)))
		for _, level := range []int{1, 3, 5, 6, 8, 9} {
			b.Run(s.name+"/level="+strconv.Itoa(level), func(b *testing.B) {
				var e Encoder
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					e.Compress(dst, src, level)
				}
			})
		}
	}
}

// runsAtLimit returns text (compressible, so that the stream shows the
// matches, and without zero bytes) holding three runs of 20 zeros: the
// last, the scan's, ends maxDist+shift after the first, so that at shift
// 0 the first run's one candidate as long as the scan's run lies exactly
// at the walk's limit (zlib stops there without looking at it); the
// middle one, a shorter match, lets the walk step over the first run.
func runsAtLimit(t *testing.T, shift int) []byte {
	const first = 1000
	src := golden.MustPattern(t, "text", first+maxDist+2000)
	if bytes.IndexByte(src, 0) >= 0 {
		t.Fatal("text holds a zero byte")
	}
	put := func(end int, tail ...byte) {
		clear(src[end-20 : end])
		copy(src[end:], tail)
	}
	put(first, 0x11, 0x22, 0x33, 0x44)
	put(first+maxDist/2, 0x11, 0x55)
	put(first+maxDist+shift, 0x11, 0x22, 0x33, 0x66)
	return src
}

// TestRunSkipMatchesWalk: the streams with skipRun are the ones of the
// walk over every position, at every level, on runs of random bytes and
// lengths, on runs placed around the walk's limit, and on the bench
// datasets with runs.
func TestRunSkipMatchesWalk(t *testing.T) {
	defer func() { runSkip = true }()
	r := rand.New(rand.NewPCG(8, 9))
	var srcs [][]byte
	for shift := -3; shift <= 3; shift++ {
		srcs = append(srcs, runsAtLimit(t, shift))
	}
	for _, n := range []int{3000, 70000, 200000} {
		srcs = append(srcs, testrand.Runs(r, n))
	}
	for _, name := range []string{"sparse_f64", "runs", "zeros", "timestamps_i64"} {
		srcs = append(srcs, golden.Shuffled(golden.MustPattern(t, name, 150000), 8))
	}
	var e Encoder
	for i, src := range srcs {
		for level := 1; level <= 9; level++ {
			runSkip = false
			want := e.AppendCompress(nil, src, level)
			runSkip = true
			if got := e.AppendCompress(nil, src, level); !bytes.Equal(got, want) {
				t.Errorf("input %d (%d bytes) level %d: %d bytes with the run skip, %d without", i, len(src), level, len(got), len(want))
			}
		}
	}
}

// FuzzRunSkipMatchesWalk: at levels 8 and 9, any input compresses to the
// same stream with skipRun as with the walk over every position.
func FuzzRunSkipMatchesWalk(f *testing.F) {
	f.Add(testrand.Runs(rand.New(rand.NewPCG(5, 6)), 5000), false)
	f.Add(golden.Shuffled(golden.MustPattern(f, "sparse_f64", 8000), 8), true)
	var e Encoder
	f.Fuzz(func(t *testing.T, src []byte, nine bool) {
		level := 8
		if nine {
			level = 9
		}
		defer func() { runSkip = true }()
		runSkip = false
		want := e.AppendCompress(nil, src, level)
		runSkip = true
		if got := e.AppendCompress(nil, src, level); !bytes.Equal(got, want) {
			t.Fatalf("level %d, %d bytes: %d bytes with the run skip, %d without", level, len(src), len(got), len(want))
		}
	})
}
