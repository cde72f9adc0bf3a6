package zstdenc

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/klauspost/compress/zstd"
)

// testLevels covers each strategy written and the level rows around it.
var testLevels = []int{1, 2, 3, 4, 5, 9, 13, 16, 19, 22}

// skipUnderRace skips a test that only computes frames: an Encoder runs
// on one goroutine, so the race detector has nothing to find in it and
// only makes the deep levels ten times slower. These tests run in every
// build without -race (and under QEMU).
func skipUnderRace(t *testing.T) {
	if raceEnabled {
		t.Skip("single-goroutine frame computation, checked without -race")
	}
}

// testInputs are Blosc-like blocks: shuffled patterns of the sizes
// c-blosc2 hands the codec, and edge cases.
func testInputs(tb testing.TB) map[string][]byte {
	in := map[string][]byte{
		"empty":  {},
		"one":    {7},
		"short":  []byte("abcabcabcabcabcab"),
		"zeros":  make([]byte, 300<<10),
		"rle257": bytes.Repeat([]byte{9}, 257),
	}
	for _, name := range []string{"text", "arange_i16", "arange_i64", "linspace_f64", "f32_noise", "rand_s1", "runs", "rec12"} {
		for _, n := range []int{100, 5000, 64 << 10, 200 << 10, 300 << 10} {
			src := golden.MustPattern(tb, name, n)
			in[fmt.Sprintf("%s/%d", name, n)] = src
			in[fmt.Sprintf("%s/%d/shuf8", name, n)] = golden.Shuffled(src, 8)
		}
	}
	return in
}

func checkFrame(t *testing.T, frame, src, dict []byte, kd *zstd.Decoder) {
	t.Helper()
	if dict == nil {
		var d zstddec.Decoder
		got := make([]byte, len(src))
		if err := d.Decode(got, frame); err != nil {
			t.Fatalf("zstddec: %v", err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("zstddec: differs at %d", golden.FirstDiff(got, src))
		}
	}
	got, err := kd.DecodeAll(frame, nil)
	if err != nil {
		t.Fatalf("klauspost: %v", err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("klauspost: differs at %d of %d", golden.FirstDiff(got, src), len(src))
	}
}

func TestRoundTrip(t *testing.T) {
	kd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer kd.Close()
	var e Encoder
	for name, src := range testInputs(t) {
		for _, lvl := range testLevels {
			if lvl >= 16 && len(src) > 64<<10 && name != "zeros" {
				// The optimal levels search deep (up to 8192 tree nodes
				// a position at level 22): their large inputs are left
				// to TestSameBytesEverywhere, TestSplitBlocks and the
				// libzstd crosscheck, which keeps this test quick under
				// QEMU.
				continue
			}
			frame := e.Encode(nil, src, lvl)
			t.Run(fmt.Sprintf("%s/l%d", name, lvl), func(t *testing.T) {
				checkFrame(t, frame, src, nil, kd)
			})
		}
	}
}

func klauspostDict(tb testing.TB, dict []byte) *zstd.Decoder {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
	if dict != nil {
		opts = append(opts, zstd.WithDecoderDictRaw(0, dict))
	}
	d, err := zstd.NewReader(nil, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func TestRoundTripDict(t *testing.T) {
	dict := golden.MustPattern(t, "text", 16<<10)
	kd := klauspostDict(t, dict)
	defer kd.Close()
	var e Encoder
	for _, name := range []string{"text", "rec12", "f32_noise"} {
		for _, n := range []int{0, 10, 3000, 200 << 10} {
			src := golden.MustPattern(t, name, n)
			for _, lvl := range testLevels {
				frame := e.EncodeDict(nil, src, dict, lvl)
				t.Run(fmt.Sprintf("%s/%d/l%d", name, n, lvl), func(t *testing.T) {
					checkFrame(t, frame, src, dict, kd)
				})
				if name == "text" && n > 1000 && len(frame) >= len(e.Encode(nil, src, lvl)) {
					t.Errorf("text/%d level %d: the dictionary does not help: %d bytes", n, lvl, len(frame))
				}
			}
		}
	}
}

// TestDeterministic: the same input gives the same frame from a fresh
// encoder and from one that wrote other frames, with other levels and a
// dictionary, before.
func TestDeterministic(t *testing.T) {
	skipUnderRace(t)
	in := testInputs(t)
	dict := golden.MustPattern(t, "text", 4<<10)
	var used Encoder
	for _, name := range []string{"text/64/shuf8", "linspace_f64/307200/shuf8", "rec12/204800", "f32_noise/5000"} {
		if name == "text/64/shuf8" {
			name = "text/5000/shuf8"
		}
		src, ok := in[name]
		if !ok {
			t.Fatalf("no input %s", name)
		}
		for _, lvl := range testLevels {
			var fresh Encoder
			want := fresh.Encode(nil, src, lvl)
			used.EncodeDict(nil, in["runs/65536"], dict, 3)
			used.Encode(nil, in["rand_s1/307200"], 1)
			if got := used.Encode(nil, src, lvl); !bytes.Equal(got, want) {
				t.Errorf("%s level %d: a reused encoder writes another frame", name, lvl)
			}
		}
	}
}

// TestReusedAcrossLevels: one encoder writes frames of every level,
// with and without a dictionary, in an order where the tables grow,
// shrink and are cleared between strategies; every frame decodes. (The
// 3-byte hash table of the optimal levels once kept entries over a
// clear made at a level without it, which a later frame took for its
// own positions.)
func TestReusedAcrossLevels(t *testing.T) {
	skipUnderRace(t)
	dict := golden.MustPattern(t, "text", 16<<10)
	kd, plain := klauspostDict(t, dict), klauspostDict(t, nil)
	defer kd.Close()
	defer plain.Close()
	var e Encoder
	for _, n := range []int{3000, 40 << 10} {
		src := golden.MustPattern(t, "text", n)
		for lvl := 1; lvl <= MaxLevel; lvl++ {
			for _, l := range []int{lvl, MaxLevel + 1 - lvl} {
				checkFrame(t, e.Encode(nil, src, l), src, nil, plain)
				checkFrame(t, e.EncodeDict(nil, src, dict, l), src, dict, kd)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	skipUnderRace(t)
	src := golden.Shuffled(golden.MustPattern(t, "linspace_f64", 300<<10), 8)
	dict := golden.MustPattern(t, "text", 4<<10)
	for _, lvl := range []int{1, 3, 9, 13, 16, 19} {
		var e Encoder
		dst := e.EncodeDict(e.Encode(nil, src, lvl), src, dict, lvl)
		if n := testing.AllocsPerRun(5, func() {
			e.Encode(dst[:0], src, lvl)
			e.EncodeDict(dst[:0], src, dict, lvl)
		}); n != 0 {
			t.Errorf("level %d: %.1f allocations per frame", lvl, n)
		}
	}
}

// TestCompresses: the encoder finds what there is to find (a guard
// against a finder that silently stores everything raw).
func TestCompresses(t *testing.T) {
	var e Encoder
	for _, c := range []struct {
		name string
		ts   int
		max  float64 // the largest acceptable compressed fraction
	}{{"arange_i64", 8, 0.01}, {"linspace_f64", 8, 0.15}, {"text", 1, 0.4}, {"f32_noise", 4, 0.5}} {
		src := golden.Shuffled(golden.MustPattern(t, c.name, 256<<10), c.ts)
		for _, lvl := range []int{1, 3} {
			if n := len(e.Encode(nil, src, lvl)); float64(n) > c.max*float64(len(src)) {
				t.Errorf("%s level %d: %d of %d bytes", c.name, lvl, n, len(src))
			}
		}
	}
}

// FuzzRoundTrip: any input at any level, with any prefix of it as a
// raw-content dictionary, decodes to itself with zstddec (no
// dictionary) or klauspost; the lazy levels also with the row finder,
// which they use by themselves only over 256 KiB (level bytes with the
// high bit set).
func FuzzRoundTrip(f *testing.F) {
	for _, name := range []string{"text", "linspace_f64", "f32_noise", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		f.Add(src, uint8(1), uint16(0))
		f.Add(src, uint8(3), uint16(1000))
		f.Add(src, uint8(0x80|8), uint16(0))
		f.Add(src, uint8(0x80|6), uint16(500))
		// The tree levels: btlazy2, btopt, btultra2.
		f.Add(src, uint8(12), uint16(0))
		f.Add(src, uint8(15), uint16(800))
		f.Add(src, uint8(21), uint16(0))
	}
	f.Add([]byte{}, uint8(2), uint16(0))
	var e Encoder
	var d zstddec.Decoder
	var scratch []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data))
		dict, src := data[:dl], data[dl:]
		lvl := int(level)%MaxLevel + 1
		e.rowsFrom = 0
		if level&0x80 != 0 {
			e.rowsFrom = 10
		}
		if dl == 0 {
			scratch = e.Encode(scratch[:0], src, lvl)
			got := make([]byte, len(src))
			if err := d.Decode(got, scratch); err != nil || !bytes.Equal(got, src) {
				t.Fatalf("level %d, %d bytes: zstddec: %v", lvl, len(src), err)
			}
			return
		}
		scratch = e.EncodeDict(scratch[:0], src, dict, lvl)
		kd := klauspostDict(t, dict)
		defer kd.Close()
		got, err := kd.DecodeAll(scratch, nil)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("level %d, %d bytes, dictionary %d: klauspost: %v", lvl, len(src), dl, err)
		}
	})
}

// TestSameBytesEverywhere pins a digest of frames at several levels so
// that the CI runs on 386 and s390x (QEMU) prove the encoder writes the
// same bytes on every architecture (its only floating point, the cost
// table, must round alike). A deliberate change of the encoder's output
// updates the digest.
func TestSameBytesEverywhere(t *testing.T) {
	skipUnderRace(t)
	h := sha256.New()
	var e Encoder
	for _, name := range []string{"text", "linspace_f64", "f32_noise", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 200<<10), 4)
		for _, lvl := range []int{1, 3, 5, 9, 19} {
			h.Write(e.Encode(nil, src, lvl))
		}
	}
	const want = "1ce7ed31f9a38d87c780b044cf9bf1ceea118ea4e96dcae785418c7b1cdf9e2f"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("frames digest %s, want %s", got, want)
	}
}

// TestSameBytesEverywhereTrees is TestSameBytesEverywhere for the tree
// strategies on the blocks c-blosc2 hands them: btlazy2 (levels 13 and
// 15) on 512 KiB, btultra2 (level 22) with its block splitter on 300
// KiB.
func TestSameBytesEverywhereTrees(t *testing.T) {
	skipUnderRace(t)
	h := sha256.New()
	var e Encoder
	for _, name := range []string{"text", "linspace_f64", "f32_noise"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 512<<10), 8)
		for _, lvl := range []int{13, 15} {
			h.Write(e.Encode(nil, src, lvl))
		}
		h.Write(e.Encode(nil, src[:300<<10], 22))
	}
	const want = "83071a07af1557aa6bb0d765f7460845c450d418952498ffe27aed1d9d210ee9"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("frames digest %s, want %s", got, want)
	}
}

// TestSameBytesEverywhereRows is TestSameBytesEverywhere for the row
// finder, which the lazy levels use on sources over 256 KiB. It also
// checks that they do use it and that it finds about what the hash
// chains find (a frame at most 10% larger; on linspace_f64 at level 5
// the chains, searching every link, save 7% more, and libzstd's rows
// find what ours do): a row finder that lost its candidates would still
// round-trip.
func TestSameBytesEverywhereRows(t *testing.T) {
	skipUnderRace(t)
	h := sha256.New()
	var e, chains Encoder
	for _, name := range []string{"text", "linspace_f64", "f32_noise"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 512<<10), 8)
		for _, lvl := range []int{5, 7, 11} {
			f := e.Encode(nil, src, lvl)
			if !e.rows {
				t.Fatalf("%s level %d: hash chains, not rows", name, lvl)
			}
			h.Write(f)
			p := paramsFor(lvl, len(src), 0)
			p.wlog = 18 // the same tables, searched by hash chains
			chains.override = &p
			c := chains.Encode(nil, src, lvl)
			if chains.rows || len(f) > len(c)+len(c)/10 {
				t.Errorf("%s level %d: rows %d bytes, chains %d (rows %v)", name, lvl, len(f), len(c), chains.rows)
			}
		}
	}
	const want = "7549431b6d4e30a5ba4394f6253f82ac26e71c10ebd7d52564c0844c51083fc3"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("frames digest %s, want %s", got, want)
	}
}

// TestBeyondMaxHistory: a source too large for the biased positions is
// stored in raw blocks, a frame every decoder reads.
func TestBeyondMaxHistory(t *testing.T) {
	defer func(m int) { maxHistory = m }(maxHistory)
	maxHistory = 200 << 10
	kd := klauspostDict(t, nil)
	defer kd.Close()
	var e Encoder
	src := golden.MustPattern(t, "text", 300<<10)
	frame := e.Encode(nil, src, 3)
	if len(frame) < len(src) {
		t.Fatalf("%d bytes compressed to %d past the limit", len(src), len(frame))
	}
	checkFrame(t, frame, src, nil, kd)
}

// TestTablesAcrossLiteralOnlyBlock: a compressed block without sequences
// leaves the decoder's FSE tables as they were, so a later block that
// repeats a table must repeat the last one written, not an older one.
// Blocks: text, other text, skewed noise without matches, text.
func TestTablesAcrossLiteralOnlyBlock(t *testing.T) {
	text := golden.MustPattern(t, "text", 3*maxBlockSize)
	noise := make([]byte, maxBlockSize)
	s := uint64(7)
	for i := range noise {
		s = s*6364136223846793005 + 1442695040888963407
		// 64 symbols: Huffman-compressible, and 4-byte repeats too rare
		// for the finders to meet one (the block has no sequences).
		noise[i] = byte(s >> 58)
	}
	src := append(append(append([]byte{}, text[:2*maxBlockSize]...), noise...), text[2*maxBlockSize:]...)
	kd := klauspostDict(t, nil)
	defer kd.Close()
	var e Encoder
	for _, lvl := range []int{1, 2, 3, 5} {
		frame := e.Encode(nil, src, lvl)
		checkFrame(t, frame, src, nil, kd)

		// The blocks one by one: the literal-only block must leave the
		// tables the decoder holds, the previous block's.
		e.p = paramsFor(lvl, len(src), 0)
		e.strategy = int(e.p.strat)
		e.reset(len(src))
		var dst []byte
		var before fseTables
		for k := 0; k < 4; k++ {
			if k == 2 {
				before = e.fse
			}
			n := len(dst)
			dst = e.block(dst, src, k*maxBlockSize, (k+1)*maxBlockSize, k == 3)
			if k == 2 {
				if typ := dst[n] >> 1 & 3; typ != blockCompressed || len(e.seqs) != 0 {
					t.Fatalf("level %d: the noise block is type %d with %d sequences; the test needs a compressed one with none", lvl, typ, len(e.seqs))
				}
				if e.fse != before {
					t.Fatalf("level %d: a block without sequences changed the FSE tables a repeat would use", lvl)
				}
			}
		}
	}
}

// TestBlockMixes chains blocks of unlike kinds (matches, skewed noise
// without matches, one repeated byte, plain noise, shuffled numbers) in
// many orders, so that every carry-over between blocks (repeat offsets,
// Huffman and FSE tables kept or not after raw, RLE and literal-only
// blocks) meets every kind of block before it.
func TestBlockMixes(t *testing.T) {
	skipUnderRace(t)
	seg := func(kind, k int) []byte {
		b := make([]byte, maxBlockSize)
		s := uint64(k*7919 + kind)
		switch kind {
		case 0:
			copy(b, golden.MustPattern(t, "text", maxBlockSize+k*1000)[k*1000:])
		case 1, 3:
			for i := range b {
				s = s*6364136223846793005 + 1442695040888963407
				b[i] = byte(s >> (56 + 2*(kind&1)))
			}
		case 2:
			for i := range b {
				b[i] = byte(k)
			}
		default:
			copy(b, golden.Shuffled(golden.MustPattern(t, "linspace_f64", maxBlockSize), 8))
		}
		return b
	}
	kd := klauspostDict(t, nil)
	defer kd.Close()
	var e Encoder
	rng := uint64(1)
	for round := 0; round < 40; round++ {
		var src []byte
		for k := 0; k < 5; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			src = append(src, seg(int(rng>>61)%5, k)...)
		}
		// End mid-block, so the last block is short.
		src = src[:len(src)-int(rng>>50)%maxBlockSize]
		for _, lvl := range []int{1, 3, 5, 8} {
			checkFrame(t, e.Encode(nil, src, lvl), src, nil, kd)
		}
	}
}

// frameBlocks counts the blocks of a single-segment frame.
func frameBlocks(t *testing.T, f []byte) int {
	t.Helper()
	p := 5 + [4]int{1, 2, 4, 8}[f[4]>>6]
	n := 0
	for p+3 <= len(f) {
		h := int(f[p]) | int(f[p+1])<<8 | int(f[p+2])<<16
		p += 3
		if (h>>1)&3 == blockRLE {
			p++
		} else {
			p += h >> 3
		}
		n++
		if h&1 == 1 {
			return n
		}
	}
	t.Fatalf("frame ends without a last block")
	return n
}

// TestSplitBlocks: at the optimal levels with a window of 128 KiB or
// more, a block whose halves differ (text, then a shuffled float series)
// is written as more than one block, as libzstd's block splitter does,
// and still decodes; at lazy2 it is not cut.
func TestSplitBlocks(t *testing.T) {
	kd := klauspostDict(t, nil)
	defer kd.Close()
	src := append(golden.MustPattern(t, "text", 64<<10), golden.Shuffled(golden.MustPattern(t, "linspace_f64", 192<<10), 8)...)
	var e Encoder
	for _, c := range []struct{ lvl, min, max int }{{9, 2, 2}, {16, 3, 1000}, {19, 3, 1000}, {22, 3, 1000}} {
		f := e.Encode(nil, src, c.lvl)
		checkFrame(t, f, src, nil, kd)
		if n := frameBlocks(t, f); n < c.min || n > c.max {
			t.Errorf("level %d: %d blocks, want %d to %d", c.lvl, n, c.min, c.max)
		}
	}
}

// TestSameBytesEverywherePlanes is TestSameBytesEverywhere for the lazy
// levels on the streams c-blosc2 hands them: lazy and lazy2 (levels 7
// and 9) over hash chains on 64 KiB byte planes, where the lazy steps
// start their walks at the length to beat, and lazy2 over rows (level
// 11) on a 512 KiB block. The digest is the one the walks from 3 made.
func TestSameBytesEverywherePlanes(t *testing.T) {
	skipUnderRace(t)
	h := sha256.New()
	var e Encoder
	for _, name := range []string{"text", "timestamps_i64", "runs"} {
		const pl = 64 << 10
		src := golden.Shuffled(golden.MustPattern(t, name, 4*pl), 4)
		for _, lvl := range []int{7, 9} {
			for p := 0; p < 4; p++ {
				h.Write(e.Encode(nil, src[p*pl:(p+1)*pl], lvl))
			}
		}
		h.Write(e.Encode(nil, golden.Shuffled(golden.MustPattern(t, name, 512<<10), 8), 11))
	}
	const want = "068e3a79a61fe7c1ae3d10eecece93e63f0c688102de4a3e3e8a9eb07c4913e1"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("frames digest %s, want %s", got, want)
	}
}
