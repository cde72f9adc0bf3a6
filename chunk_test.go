package blosc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
)

var allCodecs = []Codec{BloscLZ, LZ4, LZ4HC, Snappy, Zlib, Zstd}

func withFilter(o Options, f Filter) Options {
	o.Filters = [MaxFilters]Filter{}
	o.Filters[MaxFilters-1] = f
	return o
}

// Every codec, filter, typesize and a spread of sizes round-trips, and the
// header reads back what was asked for.
func TestRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 7, 127, 128, 129, 1000, 4095, 32768, 65536 + 3, 300001}
	typesizes := []int{1, 2, 3, 4, 7, 8, 16, 17, 255}
	for _, c := range allCodecs {
		for _, f := range []Filter{NoFilter, ByteShuffle, BitShuffle} {
			for _, ts := range typesizes {
				for _, n := range sizes {
					pat := []string{"linspace_f64", "text", "rand_s3", "runs"}[(n+ts)%4]
					in := golden.MustPattern(t, pat, n)
					level := 1 + (n+ts+int(c))%9
					o := withFilter(Options{Codec: c, Level: level, Typesize: ts, Threads: 1 + n%3}, f)
					name := fmt.Sprintf("%s/%s/ts%d/n%d/l%d", c, f, ts, n, level)
					chunk, err := Compress(nil, in, o)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(chunk) > CompressBound(n) || len(chunk) > n+16 {
						t.Fatalf("%s: chunk of %d bytes for %d", name, len(chunk), n)
					}
					h, err := ReadHeader(chunk)
					if err != nil {
						t.Fatalf("%s: ReadHeader: %v", name, err)
					}
					if h.Nbytes != n || h.Cbytes != len(chunk) || h.Typesize != ts || h.Filters[MaxFilters-1] != f {
						t.Fatalf("%s: header %+v", name, h)
					}
					if wantCode := codecCode(c); h.CodecCode != wantCode {
						t.Fatalf("%s: codec code %d", name, h.CodecCode)
					}
					out, err := Decompress(nil, chunk)
					if err != nil {
						t.Fatalf("%s: Decompress: %v", name, err)
					}
					if !bytes.Equal(out, in) {
						t.Fatalf("%s: round trip differs at %d", name, golden.FirstDiff(out, in))
					}
				}
			}
		}
	}
}

func TestLevelZeroAndSmallAreMemcpyed(t *testing.T) {
	in := golden.MustPattern(t, "arange_i32", 100000)
	for _, c := range []struct {
		n, level int
	}{{100000, 0}, {127, 5}, {0, 5}} {
		chunk, err := Compress(nil, in[:c.n], Options{Codec: LZ4, Level: c.level, Typesize: 4})
		if err != nil {
			t.Fatal(err)
		}
		h, _ := ReadHeader(chunk)
		if !h.Memcpyed || len(chunk) != c.n+16 {
			t.Errorf("n=%d level=%d: memcpyed=%v len=%d", c.n, c.level, h.Memcpyed, len(chunk))
		}
	}
	// Incompressible input falls back to a copy.
	rnd := golden.MustPattern(t, "rand_s42", 1<<16)
	chunk, _ := Compress(nil, rnd, withFilter(Options{Codec: BloscLZ, Level: 5, Typesize: 8}, ByteShuffle))
	if h, _ := ReadHeader(chunk); !h.Memcpyed || h.Flags != 0x03 {
		t.Errorf("random data: flags %#x, want 0x03 (shuffle|memcpyed)", h.Flags)
	}
	// The empty chunk is C's: flags 0x13 for lz4 would be 0x33.
	chunk, _ = Compress(nil, nil, withFilter(Options{Codec: LZ4, Level: 5, Typesize: 4}, ByteShuffle))
	if want := []byte{2, 1, 0x33, 4, 0, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0}; !bytes.Equal(chunk, want) {
		t.Errorf("empty chunk % x, want % x", chunk, want)
	}
}

func TestInvalidOptions(t *testing.T) {
	bad := []Options{
		{Level: -1}, {Level: 10}, {Typesize: 256}, {Typesize: -1}, {Codec: 6, Level: 5},
		{Blocksize: -1}, {Threads: -1}, {SplitMode: 9},
		{Filters: [MaxFilters]Filter{ByteShuffle, 0, 0, 0, 0, BitShuffle}},
		{Filters: [MaxFilters]Filter{Delta}},
		{FilterMeta: [MaxFilters]uint8{1}},
	}
	for _, o := range bad {
		if _, err := Compress(nil, []byte("x"), o); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%+v: err = %v", o, err)
		}
		if _, err := NewCompressor(o); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("NewCompressor(%+v): err = %v", o, err)
		}
	}
	// c-blosc2 has no Snappy.
	if _, err := Compress(nil, nil, Options{Format: FormatBlosc2, Codec: Snappy, Level: 5}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Blosc2 with Snappy: err = %v", err)
	}
}

// The chunk is the same whatever the thread count, and worker goroutines
// are started once, not per call.
func TestThreadsIdenticalAndNoGoroutineLeak(t *testing.T) {
	inputs := map[string][]byte{
		"linspace": golden.MustPattern(t, "linspace_f64", 3<<20+5),
		"f32noise": golden.MustPattern(t, "f32_noise", 2<<20),
		// Nearly incompressible: later blocks hit the room-left budgets
		// that parallel work must redo serially.
		"mostlyrandom": append(golden.MustPattern(t, "rand_s9", 1<<20), golden.MustPattern(t, "zeros", 40000)...),
	}
	for _, c := range allCodecs {
		for name, in := range inputs {
			o := withFilter(Options{Codec: c, Level: 4, Typesize: 4, Blocksize: 64 << 10}, ByteShuffle)
			o.Threads = 1
			want, err := Compress(nil, in, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, th := range []int{2, 3, 8} {
				o.Threads = th
				got, err := Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s/%s: threads=%d chunk differs from threads=1 (%s)", c, name, th, golden.ChunkDiff(got, want))
				}
				d := &Decompressor{threads: th}
				out, err := d.Decompress(nil, got)
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("%s/%s: threads=%d decode: %v", c, name, th, err)
				}
			}
		}
	}
	// Now the pool exists; more calls must not add goroutines.
	before := runtime.NumGoroutine()
	workers := pool.size()
	in := inputs["linspace"]
	for i := 0; i < 20; i++ {
		chunk, _ := Compress(nil, in, withFilter(Options{Codec: LZ4, Level: 5, Typesize: 8, Threads: 4}, ByteShuffle))
		if _, err := (&Decompressor{threads: 4}).Decompress(nil, chunk); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before || pool.size() != workers {
		t.Errorf("goroutines %d -> %d, pool %d -> %d", before, after, workers, pool.size())
	}
	if workers == 0 || workers > maxWorkers {
		t.Errorf("pool size %d after parallel calls", workers)
	}
}

// A corrupt block found by a worker is reported, not lost.
func TestParallelDecodeReportsErrors(t *testing.T) {
	in := golden.MustPattern(t, "linspace_f64", 2<<20)
	chunk, _ := Compress(nil, in, withFilter(Options{Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 64 << 10, Threads: 1}, ByteShuffle))
	h, _ := ReadHeader(chunk)
	bad := bytes.Clone(chunk)
	// Break the last block's first stream.
	off := le32(bad[16+4*(h.Nblocks-1):])
	bad[off+4] ^= 0xff
	bad[off+5] ^= 0xff
	d := &Decompressor{threads: 4}
	if _, err := d.Decompress(nil, bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrCorrupt", err)
	}
	// And the Decompressor is still good afterwards.
	if out, err := d.Decompress(nil, chunk); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("after an error: %v", err)
	}
}

func TestDstReuse(t *testing.T) {
	in := golden.MustPattern(t, "arange_i64", 100000)
	buf := make([]byte, 0, CompressBound(len(in)))
	chunk, err := Compress(buf, in, withFilter(Options{Codec: Zstd, Level: 3, Typesize: 8}, ByteShuffle))
	if err != nil {
		t.Fatal(err)
	}
	if &chunk[0] != &buf[:1][0] {
		t.Error("Compress did not write into dst")
	}
	obuf := make([]byte, 0, len(in))
	out, _ := Decompress(obuf, chunk)
	if &out[0] != &obuf[:1][0] || !bytes.Equal(out, in) {
		t.Error("Decompress did not write into dst")
	}
	small := make([]byte, 10)
	out, _ = Decompress(small, chunk)
	if &out[0] == &small[0] || !bytes.Equal(out, in) {
		t.Error("Decompress wrote into a dst too small")
	}
}

func TestHeaderJSON(t *testing.T) {
	chunk, _ := Compress(nil, golden.MustPattern(t, "arange_i32", 1<<20), withFilter(Options{Codec: Zstd, Level: 5, Typesize: 4}, BitShuffle))
	h, err := ReadHeader(chunk)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"codec":"zstd"`, `"bitshuffle":true`, `"filters":["none","none","none","none","none","bitshuffle"]`, `"nblocks":`, `"format":"blosc1"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}

// GetItem returns exactly the slice of the decoded data, for random ranges
// and ranges at block boundaries, and rejects out-of-range requests.
func TestGetItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range allCodecs {
		for _, ts := range []int{1, 3, 4, 8, 255} {
			for _, n := range []int{0, 100, 12345, 300003} {
				in := golden.MustPattern(t, "runs", n)
				o := withFilter(Options{Codec: c, Level: 5, Typesize: ts, Blocksize: 16 << 10}, []Filter{ByteShuffle, BitShuffle, NoFilter}[n%3])
				chunk, err := Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				h, _ := ReadHeader(chunk)
				items := n / ts
				check := func(start, cnt int) {
					t.Helper()
					got, err := GetItems(nil, chunk, int64(start), int64(cnt))
					if err != nil {
						t.Fatalf("%s ts%d n%d: GetItems(%d, %d): %v", c, ts, n, start, cnt, err)
					}
					if want := in[start*ts : (start+cnt)*ts]; !bytes.Equal(got, want) {
						t.Fatalf("%s ts%d n%d: GetItems(%d, %d) differs at %d", c, ts, n, start, cnt, golden.FirstDiff(got, want))
					}
				}
				check(0, items)
				check(items, 0)
				if items > 0 {
					check(items-1, 1)
					for b := h.Blocksize / ts; b < items; b += h.Blocksize / ts {
						check(b-1, min(2, items-b+1)) // across a block boundary
						check(b, min(items-b, 1))
					}
					for i := 0; i < 30; i++ {
						s := rng.IntN(items)
						check(s, rng.IntN(items-s+1))
					}
				}
				for _, r := range [][2]int{{-1, 1}, {0, items + 1}, {items + 1, 0}, {1, -1}, {items, 1}} {
					if _, err := GetItems(nil, chunk, int64(r[0]), int64(r[1])); !errors.Is(err, ErrRange) {
						t.Fatalf("%s ts%d n%d: GetItems(%d, %d): err = %v, want ErrRange", c, ts, n, r[0], r[1], err)
					}
				}
			}
		}
	}
}

// The hot path allocates nothing once buffers and codec state exist.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED: allocation counts are meaningless under -race")
	}
	for _, n := range []int{4 << 10, 256 << 10} {
		in := golden.MustPattern(t, "linspace_f64", n)
		for _, c := range allCodecs {
			for _, threads := range []int{1, 2} {
				o := withFilter(Options{Codec: c, Level: 5, Typesize: 8, Threads: threads}, ByteShuffle)
				comp, err := NewCompressor(o)
				if err != nil {
					t.Fatal(err)
				}
				dec := &Decompressor{threads: threads}
				cbuf := make([]byte, CompressBound(n))
				dbuf := make([]byte, n)
				warmWorkers(t, o, in)
				chunk, _ := comp.Compress(cbuf, in)
				dec.Decompress(dbuf, chunk)
				dec.GetItems(dbuf, chunk, 3, int64(n/16))
				if a := testing.AllocsPerRun(20, func() { comp.Compress(cbuf, in) }); a != 0 {
					t.Errorf("n=%d %s threads=%d: Compressor.Compress: %v allocs", n, c, threads, a)
				}
				if a := testing.AllocsPerRun(20, func() { dec.Decompress(dbuf, chunk) }); a != 0 {
					t.Errorf("n=%d %s threads=%d: Decompressor.Decompress: %v allocs", n, c, threads, a)
				}
				if a := testing.AllocsPerRun(20, func() { dec.GetItems(dbuf, chunk, 3, int64(n/16)) }); a != 0 {
					t.Errorf("n=%d %s threads=%d: GetItem: %v allocs", n, c, threads, a)
				}
				// The package-level functions draw engines from a pool,
				// which the GC may empty, so allow a rare allocation.
				if a := testing.AllocsPerRun(20, func() { Compress(cbuf, in, o) }); a > 1 {
					t.Errorf("n=%d %s threads=%d: Compress: %v allocs", n, c, threads, a)
				}
			}
		}
	}
}

func TestSplitModes(t *testing.T) {
	in := golden.MustPattern(t, "f32_noise", 1<<18)
	for _, m := range []SplitMode{SplitDefault, SplitAlways, SplitNever, SplitAuto, SplitForwardCompat} {
		for _, c := range allCodecs {
			o := withFilter(Options{Codec: c, Level: 5, Typesize: 4, SplitMode: m}, ByteShuffle)
			chunk, err := Compress(nil, in, o)
			if err != nil {
				t.Fatal(err)
			}
			h, _ := ReadHeader(chunk)
			want := splitBlock(m, c, 4, h.Blocksize)
			if h.DontSplit == want {
				t.Errorf("%s %s: dont_split %v", m, c, h.DontSplit)
			}
			out, err := Decompress(nil, chunk)
			if err != nil || !bytes.Equal(out, in) {
				t.Fatalf("%s %s: %v", m, c, err)
			}
		}
	}
	// Forced splitting of a type too large for C's reader still writes
	// what a reader expects.
	in = golden.MustPattern(t, "rec32", 1<<16)
	chunk, _ := Compress(nil, in, withFilter(Options{Codec: LZ4, Level: 5, Typesize: 32, SplitMode: SplitAlways}, ByteShuffle))
	if out, err := Decompress(nil, chunk); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("always-split ts32: %v", err)
	}
}

func TestComputeBlocksizeForced(t *testing.T) {
	// docs/formats.md: a forced 4096 at typesize 8 becomes 65536 for split
	// codecs; 777 at typesize 4 becomes 65536 too.
	cases := []struct {
		c          Codec
		ts, forced int
		n, want    int
	}{
		{BloscLZ, 8, 4096, 300000, 65536},
		{BloscLZ, 8, 10000, 300000, 80000},
		{Zstd, 8, 12000, 300000, 12000},
		{LZ4, 4, 777, 100000, 65536},
		{Zstd, 8, 50, 300000, 128},
	}
	for _, c := range cases {
		if got := computeBlocksize(SplitDefault, c.c, 5, c.ts, c.n, c.forced); got != c.want {
			t.Errorf("%+v: got %d", c, got)
		}
	}
}
