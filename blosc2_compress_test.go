package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// optionsFor rebuilds the options C was given for a vector.
func optionsFor(t *testing.T, e golden.Entry, src []byte) Options {
	t.Helper()
	c, err := ParseCodec(e.Codec)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Format: FormatBlosc2, Codec: c, Level: e.Clevel, Typesize: e.Typesize, Threads: 1}
	h := decodeHeader2(src)
	for i := range o.Filters {
		o.Filters[i] = Filter(h.filters[i])
		o.FilterMeta[i] = h.filterMeta[i]
	}
	o.SplitMode = map[string]SplitMode{"default": SplitDefault, "always": SplitAlways, "never": SplitNever,
		"auto": SplitAuto, "forward_compat": SplitForwardCompat}[e.SplitMode]
	o.Blocksize, _ = strconv.Atoi(note(e, "forced_blocksize"))
	if m := bsInName.FindStringSubmatch(e.File); o.Blocksize == 0 && m != nil {
		o.Blocksize, _ = strconv.Atoi(m[1])
	}
	return o
}

// TestCompress2Golden compresses each vector's input with the options C
// was given. Where the bytes depend only on the layout (copies, runs,
// zero-special chunks) or on a codec whose Go port writes C's bytes (LZ4,
// BloscLZ 2.5.3, zlib as zlib 1.2.13 writes it), the chunk must be C's
// byte for byte; otherwise it must
// have C's header layout and round-trip. Every chunk is decoded back.
func TestCompress2Golden(t *testing.T) {
	dir, es := golden.Rows(t, blosc2Kinds...)
	exact := 0
	for _, e := range es {
		if e.Kind != "blosc2-chunk" || strings.Contains(e.Notes, "use_dict") || strings.HasSuffix(e.File, "_mt2.b2chunk") {
			continue
		}
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			want := golden.Read(t, dir, e)
			raw, err := golden.Pattern(e.Pattern, int(e.Nbytes))
			if err != nil {
				t.Skipf("SKIPPED: pattern %s cannot be regenerated: %v", e.Pattern, err)
			}
			o := optionsFor(t, e, want)
			got, err := Compress(nil, raw, o)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decompress(nil, got)
			if err != nil {
				t.Fatalf("decoding our chunk: %v", err)
			}
			wantOut, err := Decompress(nil, want)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(e.Notes, "lossy") {
				if !bytes.Equal(back, wantOut) {
					t.Fatalf("lossy round trip differs from C's decode at %d", golden.FirstDiff(back, wantOut))
				}
			} else if !bytes.Equal(back, raw) {
				// Including the C-bug vectors: our block tails are the input's.
				t.Fatalf("round trip differs at %d", golden.FirstDiff(back, raw))
			}
			gh, wh := decodeHeader2(got), decodeHeader2(want)
			if int(e.Cbytes) > int(e.Nbytes)+header2Len {
				// C was given more room than nbytes+32; with that room it
				// stored raw streams, we store a copy.
				checkEq(t, "memcpyed", gh.memcpyed(), true)
				return
			}
			gh.cbytes, wh.cbytes = 0, 0
			if gh != wh {
				t.Fatalf("header\n got %+v\nwant %+v", gh, wh)
			}
			layoutOnly := wh.memcpyed() || wh.special() != specialNone
			if strings.Contains(e.Notes, "C_BUG") {
				// C stored uninitialised bytes for the block tail; we store
				// the input's, so only the layout can match.
				t.Logf("C-bug vector: %d bytes, C %d", len(got), len(want))
				return
			}
			if e.Codec == "lz4" || e.Codec == "blosclz" || e.Codec == "zlib" || layoutOnly {
				if !bytes.Equal(got, want) {
					t.Fatalf("chunk differs from C's at %d (%d vs %d bytes)", golden.FirstDiff(got, want), len(got), len(want))
				}
				exact++
			} else {
				t.Logf("cbytes %d, C %d (%+.1f%%)", len(got), len(want), 100*float64(len(got)-len(want))/float64(len(want)))
			}
		})
	}
	t.Logf("%d chunks byte-identical to C's", exact)
}

// TestCompress2RoundTrip covers codec x pipeline x typesize x sizes
// around block boundaries, serial and parallel.
func TestCompress2RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sizes := []int{0, 1, 7, 31, 32, 33, 100, 4096, 65535, 65536, 65537, 300001}
	codecs := []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	for _, fs := range testPipelines {
		for _, ts := range []int{1, 2, 4, 8, 3, 16} {
			for _, c := range codecs {
				for _, n := range sizes {
					if r.IntN(4) != 0 && n > 4096 {
						continue // a random quarter of the large cases
					}
					src := randBytes(r, n)
					for i := 0; i+8 <= n; i += 64 {
						copy(src[i:], []byte{0, 0, 0, 0, 0, 0, 0, 0})
					}
					o := Options{Format: FormatBlosc2, Codec: c, Level: 1 + r.IntN(9), Typesize: ts}
					copy(o.Filters[:], fs)
					o.SplitMode = SplitMode(r.IntN(5))
					if r.IntN(3) == 0 {
						o.Blocksize = 1 + r.IntN(40000)
					}
					for _, th := range []int{1, 2} {
						o.Threads = th
						name := fmt.Sprintf("%v/%v/ts=%d/n=%d/l=%d/bs=%d/split=%v/th=%d", fs, c, ts, n, o.Level, o.Blocksize, o.SplitMode, th)
						chunk, err := Compress(nil, src, o)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if len(chunk) > CompressBound(n) {
							t.Fatalf("%s: %d bytes, bound %d", name, len(chunk), CompressBound(n))
						}
						got, err := Decompress(nil, chunk)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !bytes.Equal(got, src) {
							t.Fatalf("%s: differs at %d", name, golden.FirstDiff(got, src))
						}
						if items := n / ts; items > 2 {
							a, k := 1+r.IntN(items-1), 0
							k = r.IntN(items - a + 1)
							part, err := GetItems(nil, chunk, int64(a), int64(k))
							if err != nil || !bytes.Equal(part, src[a*ts:(a+k)*ts]) {
								t.Fatalf("%s: GetItems(%d, %d): %v", name, a, k, err)
							}
						}
					}
				}
			}
		}
	}
}

func TestCompress2Special(t *testing.T) {
	for _, n := range []int{32, 1000, 1 << 20} {
		chunk, err := Compress(nil, make([]byte, n), Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4, Filters: [MaxFilters]Filter{5: ByteShuffle}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := ReadHeader(chunk)
		if err != nil || h.Special != SpecialZeros || len(chunk) != header2Len {
			t.Fatalf("%d zeros: special %v, %d bytes, %v", n, h.Special, len(chunk), err)
		}
	}
	// A repeated non-zero byte is run streams, not a special chunk.
	src := bytes.Repeat([]byte{0x5a}, 1<<20)
	chunk, _ := Compress(nil, src, Options{Format: FormatBlosc2, Codec: Zstd, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}})
	if h, _ := ReadHeader(chunk); h.Special != SpecialNone || len(chunk) != 32+4*2+5*2*8 {
		t.Fatalf("0x5a runs: special %v, %d bytes", h.Special, len(chunk))
	}
	// trunc_prec then delta: later blocks are coded against the truncated
	// block 0, which is what decoders see.
	f := make([]byte, 1<<20)
	for i := 0; i < len(f); i += 8 {
		copy(f[i:], fmt.Appendf(nil, "%08d", i*7919)[:8])
	}
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 1 << 16,
		Filters: [MaxFilters]Filter{TruncPrec, Delta, ByteShuffle}, FilterMeta: [MaxFilters]uint8{uint8(0xf8)}}
	chunk, err := Compress(nil, f, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decompress(nil, chunk)
	if err != nil {
		t.Fatal(err)
	}
	mask, _ := truncMask(-8, 8)
	want := make([]byte, len(f))
	truncPrec(want, f, mask, 8)
	if !bytes.Equal(got, want) {
		t.Fatalf("trunc_prec+delta differs at %d", golden.FirstDiff(got, want))
	}
}

// With a reused destination and a Compressor/Decompressor, Blosc2 chunks
// are written and read without allocating.
func TestBlosc2ZeroAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED under -race: the race runtime allocates")
	}
	src, _ := golden.Pattern("linspace_f64", 1<<20)
	for _, fs := range [][MaxFilters]Filter{{5: ByteShuffle}, {Delta, ByteShuffle}, {BitShuffle}} {
		for _, c := range []Codec{LZ4, Zstd, BloscLZ} {
			for _, th := range []int{1, 2} {
				o := Options{Format: FormatBlosc2, Codec: c, Level: 5, Typesize: 8, Filters: fs, Threads: th}
				comp, err := NewCompressor(o)
				if err != nil {
					t.Fatal(err)
				}
				d := &Decompressor{threads: th}
				staged := &Decompressor{threads: th}
				staged.e.stageMin = 1
				chunk := make([]byte, 0, CompressBound(len(src)))
				out := make([]byte, 0, len(src))
				// Warm every pool worker that may pick up a block: each
				// builds its codec state on first use.
				warmWorkers(t, o, src)
				// And the caller's own state: with two threads the caller
				// decodes whichever blocks it wins, so a block kind it has
				// not met (one whose literals need a bigger buffer, say)
				// could first arrive inside a measured call. One
				// single-threaded pass meets them all.
				chunk, _ = comp.Compress(chunk[:0], src)
				d.threads, staged.threads = 1, 1
				out, _ = d.Decompress(out[:0], chunk)
				out, _ = staged.Decompress(out[:0], chunk)
				d.threads, staged.threads = th, th
				for range 3 {
					chunk, _ = comp.Compress(chunk[:0], src)
					out, _ = d.Decompress(out[:0], chunk)
					out, _ = staged.Decompress(out[:0], chunk)
				}
				// Nothing here may draw from a sync.Pool: a pool is per P,
				// so with two threads a goroutine that moved to another P
				// would miss and allocate now and then (huff0's scratch
				// did, under qemu-s390x). A collection first, so that
				// one inside the measured calls would have little to do.
				runtime.GC()
				ca := testing.AllocsPerRun(5, func() { chunk, _ = comp.Compress(chunk[:0], src) })
				da := testing.AllocsPerRun(5, func() { out, _ = d.Decompress(out[:0], chunk) })
				sa := testing.AllocsPerRun(5, func() { out, _ = staged.Decompress(out[:0], chunk) })
				ga := testing.AllocsPerRun(5, func() { out, _ = d.GetItems(out[:0], chunk, 1000, 50000) })
				if ca != 0 || da != 0 || sa != 0 || ga != 0 {
					t.Errorf("%v %v threads=%d: allocs compress %.1f decompress %.1f (staged %.1f) getitem %.1f", fs, c, th, ca, da, sa, ga)
				}
			}
		}
	}
}

// TestCompress2Dict: zstd dictionary chunks have C's layout (flag, dict
// size and dictionary after the offsets), decode, and come out near the
// size C's did for the same input.
func TestCompress2Dict(t *testing.T) {
	dir, es := golden.Rows(t, blosc2Kinds...)
	n := 0
	for _, e := range es {
		if !strings.Contains(e.Notes, "use_dict=1") || e.Codec != "zstd" {
			continue
		}
		n++
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			want := golden.Read(t, dir, e)
			raw, err := golden.Pattern(e.Pattern, int(e.Nbytes))
			if err != nil {
				t.Fatal(err)
			}
			o := optionsFor(t, e, want)
			o.Dict = true
			var prev []byte
			for _, th := range []int{1, 2} {
				o.Threads = th
				got, err := Compress(nil, raw, o)
				if err != nil {
					t.Fatal(err)
				}
				c, err := openChunk2(got)
				if err != nil {
					t.Fatal(err)
				}
				if !c.h.useDict() || len(c.dict) == 0 || len(c.dict) > maxDictSize2 {
					t.Fatalf("no dictionary: flag %v, %d bytes", c.h.useDict(), len(c.dict))
				}
				gh, wh := decodeHeader2(got), decodeHeader2(want)
				gh.cbytes, wh.cbytes = 0, 0
				if gh != wh {
					t.Fatalf("header\n got %+v\nwant %+v", gh, wh)
				}
				back, err := Decompress(nil, got)
				if err != nil || !bytes.Equal(back, raw) {
					t.Fatalf("round trip: %v", err)
				}
				t.Logf("threads=%d: %d bytes with a %d-byte dictionary; C %d", th, len(got), len(c.dict), len(want))
				if prev != nil && !bytes.Equal(prev, got) {
					t.Fatal("the chunk depends on the thread count")
				}
				prev = got
			}
		})
	}
	if n == 0 {
		t.Fatal("no zstd dictionary vectors")
	}
	// Inputs too small to train on are compressed without a dictionary,
	// as in C; LZ4 dictionaries are read but not written.
	small, err := Compress(nil, bytes.Repeat([]byte("abcdefgh"), 500), Options{Format: FormatBlosc2, Codec: Zstd, Level: 5, Typesize: 1, Dict: true})
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := ReadHeader(small); h.Dict {
		t.Error("4000-byte input got a dictionary")
	}
	if _, err := Compress(nil, small, Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Dict: true}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("LZ4 dictionary writing: %v", err)
	}
	if _, err := Compress(nil, small, Options{Codec: Zstd, Level: 5, Dict: true}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Blosc1 dictionary: %v", err)
	}
}

// A forced block size that is not a whole number of elements is rounded
// down and recorded rounded (c-blosc2 records the unrounded value, which
// its own reader then misplaces).
func TestCompress2ForcedBlocksizeRounded(t *testing.T) {
	src, _ := golden.Pattern("arange_i64", 100000)
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 1001, Filters: [MaxFilters]Filter{5: ByteShuffle}}
	chunk, err := Compress(nil, src, o)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(chunk)
	if err != nil || h.Blocksize != 1000 {
		t.Fatalf("blocksize %d, %v", h.Blocksize, err)
	}
	if got, err := Decompress(nil, chunk); err != nil || !bytes.Equal(got, src) {
		t.Fatalf("round trip: %v", err)
	}
}
