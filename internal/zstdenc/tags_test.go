package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/datasets"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// TestTagMatches checks the tag compare this build uses against one tag
// at a time, on rows of 16, 32 and 64 tags at every offset of a buffer
// (rows are not always 16-byte aligned) and every tag value a row holds
// or not.
func TestTagMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 64+15)
	ahead := make([]uint32, 32) // what the prefetch asks for
	for round := 0; round < 200; round++ {
		// Few distinct values so that most tags have matches.
		for i := range buf {
			buf[i] = uint8(rng.IntN(4)) * 0x55
		}
		for _, n := range []int{16, 32, 64} {
			for off := 0; off+n <= len(buf); off++ {
				tags := buf[off : off+n]
				for _, tag := range []uint8{0, 0x55, 0xAA, 0xFF, 1} {
					var want uint64
					for j := 0; j < n; j++ {
						if tags[j] == tag {
							want |= 1 << j
						}
					}
					if got := tagMatches(tags, tag, n); got != want {
						t.Fatalf("n %d, offset %d, tag %#x: %#x, want %#x", n, off, tag, got, want)
					}
					if got := tagMatchesSWAR(tags, tag, n); got != want {
						t.Fatalf("SWAR: n %d, offset %d, tag %#x: %#x, want %#x", n, off, tag, got, want)
					}
					if n == 64 {
						if got := tagMatches64AndPrefetch(tags, tag, &buf[0], &ahead[0]); got != want {
							t.Fatalf("with prefetch: offset %d, tag %#x: %#x, want %#x", off, tag, got, want)
						}
					}
				}
			}
		}
	}
}

// TestRowScanAsmAgainstGo encodes with rows of 16, 32 and 64 (levels
// 4-12 give search logs of 4 to 6 and more at the sizes here, rows from
// any window) through the row scans' assembly and through rowSearch's
// and rowSearch64's Go code, which must write the same bytes, on sources
// ending at a guard page (the search reads up to the end of the block and
// the prefetch looks 16 bytes on) and matching up to their last byte.
// Where the assembly is not built both runs take the Go code.
func TestRowScanAsmAgainstGo(t *testing.T) {
	skipUnderRace(t)
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	rng := rand.New(rand.NewPCG(5, 6))
	var a, g Encoder
	a.rowsFrom, g.rowsFrom = 10, 10
	type source struct {
		name string
		n    int
	}
	var sources []source
	for _, n := range []int{9, 16, 17, 100, 4095, 70000, 300 << 10} {
		sources = append(sources, source{"", n})
	}
	// Shuffled noisy and textual data: short matches at most positions
	// and repeats, every branch of the lazy steps.
	for _, name := range []string{"sensor_f32", "text", "timestamps_i64"} {
		sources = append(sources, source{name, 64 << 10}, source{name, 300 << 10})
	}
	for _, sc := range sources {
		n := sc.n
		buf := guard.New(n, guard.End)
		src := buf.Bytes
		if sc.name != "" {
			copy(src, golden.Shuffled(golden.MustPattern(t, sc.name, n), 4))
		}
		if sc.name == "" {
			scanSource(src, rng, false)
		}
		var hits [7]int // by row log, where the assembly may search
		for lvl := 4; lvl <= 12; lvl++ {
			useRowAsm = asm
			fa := a.Encode(nil, src, lvl)
			useRowAsm = false
			fg := g.Encode(nil, src, lvl)
			if a.rows && a.p.slog >= a.rowLg {
				hits[a.rowLg]++
			}
			if !bytes.Equal(fa, fg) {
				t.Fatalf("%s n=%d level %d: assembly %d bytes, Go %d, differ at %d", sc.name, n, lvl, len(fa), len(fg), golden.FirstDiff(fa, fg))
			}
			// The rows too: an entry entered or not rarely changes a
			// frame.
			if a.rows && (!bytes.Equal(a.rowTags, g.rowTags) || !bytes.Equal(a.rowHeads, g.rowHeads) || !slices.Equal(a.hashT, g.hashT)) {
				t.Fatalf("%s n=%d level %d: the rows differ after the frame", sc.name, n, lvl)
			}
		}
		for lg := 4; lg <= 6 && n >= 4095; lg++ {
			if hits[lg] == 0 && !(lg == 5 && n <= 16<<10) { // no level has search log 5 up to 16 KiB
				t.Fatalf("n=%d: no level searched rows of %d", n, 1<<lg)
			}
		}
		buf.Free()
	}
}

// FuzzRowScanAsmMatchesGo: with rows from any window, the lazy levels
// whose rows hold 16 or 64 entries on small sources (and 32 where bit 6
// of level sets the search log to 5) write the same frames through the
// row scans' assembly and through rowSearch's and rowSearch64's Go code,
// for any input and dictionary, the encoders reused (entries from
// earlier frames in the rows), and leave the same rows; the high bit of
// level shrinks the hash table to 2^8 entries (a few rows: every search
// finds candidates).
func FuzzRowScanAsmMatchesGo(f *testing.F) {
	for _, name := range []string{"text", "f32_noise", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		f.Add(src, uint8(0), uint16(0))
		f.Add(src, uint8(2), uint16(700))
		f.Add(src, uint8(0x80|1), uint16(0))
		f.Add(src, uint8(3), uint16(0))
		f.Add(src, uint8(0x40|4), uint16(500))
		f.Add(src, uint8(0x80|0x40|3), uint16(0))
	}
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	var ea, eg Encoder
	ea.rowsFrom, eg.rowsFrom = 10, 10
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		// At most 2 KiB of source and 1 KiB of dictionary: a search
		// visits up to 64 candidates, and the CI smoke runs 20000
		// inputs.
		dl := min(int(dictLen), len(data), 1<<10)
		dict, src := data[:dl], data[dl:min(len(data), dl+2<<10)]
		// The levels with rows of 64 on small sources: 7 and 8 up to
		// 16 KiB, 10 up to 128 KiB; of 16: 4 (greedy) and 6 (lazy2) up
		// to 16 KiB, and 5 (lazy, search log 3: the Go search, whose
		// tries are fewer than a row's).
		lvl := [6]int{7, 8, 10, 4, 6, 5}[int(level&0x3F)%6]
		var po *cparams
		if level&0xC0 != 0 {
			p := paramsFor(lvl, len(src), len(dict))
			if level&0x80 != 0 {
				p.hlog = 8
			}
			if level&0x40 != 0 {
				p.slog = 5
			}
			po = &p
		}
		ea.override, eg.override = po, po
		useRowAsm = asm
		a = ea.EncodeDict(a[:0], src, dict, lvl)
		useRowAsm = false
		g = eg.EncodeDict(g[:0], src, dict, lvl)
		useRowAsm = asm
		if !bytes.Equal(a, g) {
			t.Fatalf("level %d, %d bytes, dictionary %d: assembly frame %d bytes, Go %d, first difference at %d",
				lvl, len(src), len(dict), len(a), len(g), golden.FirstDiff(a, g))
		}
		if ea.rows && (!bytes.Equal(ea.rowTags, eg.rowTags) || !bytes.Equal(ea.rowHeads, eg.rowHeads) || !slices.Equal(ea.hashT, eg.hashT)) {
			t.Fatalf("level %d, %d bytes, dictionary %d: the rows differ after the frame", lvl, len(src), len(dict))
		}
	})
}

// TestRowScanAsmBlosc1Blocks encodes what c-blosc 1.x hands zstd, a
// whole 256 KiB block of each bench dataset shuffled at its typesize, at
// libzstd levels 5, 7 and 9 (rows of 32, 16 and 32) over rows, through
// the assembly and through the Go code, which must write the same bytes
// and leave the same rows.
func TestRowScanAsmBlosc1Blocks(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("256 KiB blocks of every dataset")
	}
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	var a, g Encoder
	a.rowsFrom, g.rowsFrom = 18, 18
	for _, s := range datasets.Bench {
		src := golden.Shuffled(golden.MustPattern(t, s.Name, 256<<10), s.Typesize)
		for _, lvl := range []int{5, 7, 9} {
			useRowAsm = asm
			fa := a.Encode(nil, src, lvl)
			useRowAsm = false
			fg := g.Encode(nil, src, lvl)
			if !a.rows || a.rowLg != [...]uint8{5: 5, 7: 4, 9: 5}[lvl] {
				t.Fatalf("%s level %d: rows %v of log %d", s.Name, lvl, a.rows, a.rowLg)
			}
			if !bytes.Equal(fa, fg) {
				t.Fatalf("%s level %d: assembly %d bytes, Go %d, differ at %d", s.Name, lvl, len(fa), len(fg), golden.FirstDiff(fa, fg))
			}
			if !bytes.Equal(a.rowTags, g.rowTags) || !bytes.Equal(a.rowHeads, g.rowHeads) || !slices.Equal(a.hashT, g.hashT) {
				t.Fatalf("%s level %d: the rows differ after the frame", s.Name, lvl)
			}
		}
	}
}
