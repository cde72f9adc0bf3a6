package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

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

// TestRowSearch64AsmAgainstGo encodes with rows of 64 (levels 7-12 give
// search logs of 6 at some sizes, rows from any window) through rowSearch64's assembly and through its
// Go code, which must write the same bytes, on sources ending at a guard
// page (the search reads up to the end of the block and the prefetch
// looks 16 bytes on) and matching up to their last byte. Where the
// assembly is not built both runs take the Go code.
func TestRowSearch64AsmAgainstGo(t *testing.T) {
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
		for i := range src {
			if sc.name != "" {
				break
			}
			switch {
			case i%4000 < 1500:
				src[i] = byte(i % 13)
			case i%4000 < 3000:
				src[i] = byte(rng.Uint32() & 15)
			default:
				src[i] = byte(rng.Uint32())
			}
		}
		hits := 0
		for _, lvl := range []int{7, 8, 10, 11, 12} {
			useRowAsm = asm
			fa := a.Encode(nil, src, lvl)
			useRowAsm = false
			fg := g.Encode(nil, src, lvl)
			if a.rows && a.rowLg == 6 {
				hits++
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
		if n >= 4095 && hits == 0 {
			t.Fatalf("n=%d: no level searched rows of 64", n)
		}
		buf.Free()
	}
}

// FuzzRowSearch64AsmMatchesGo: with rows from any window, the lazy
// levels whose rows hold 64 entries on small sources write the same
// frames through rowSearch64's assembly and through its Go code, for
// any input and dictionary, the encoders reused (entries from earlier
// frames in the rows), and leave the same rows; the high bit of level
// shrinks the hash table to 2^8 entries (four rows: every search finds
// candidates).
func FuzzRowSearch64AsmMatchesGo(f *testing.F) {
	for _, name := range []string{"text", "f32_noise", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		f.Add(src, uint8(0), uint16(0))
		f.Add(src, uint8(2), uint16(700))
		f.Add(src, uint8(0x80|1), uint16(0))
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
		// 16 KiB, 10 up to 128 KiB.
		lvl := [3]int{7, 8, 10}[int(level&0x7F)%3]
		var po *cparams
		if level&0x80 != 0 {
			p := paramsFor(lvl, len(src), len(dict))
			p.hlog = 8
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
