package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// TestChain16ScanAsmAgainstGo encodes at levels 5-10 (greedy, lazy and
// lazy2 over the 16-bit chains) through chain16ScanAsm and through the
// Go loops, which must write the same bytes and leave the same links,
// on sources ending at a guard page (the walk compares up to the end of
// the block) with matches up to their last byte, with libzstd's tables
// and with tiny ones (long chains, links older than the chain's length,
// the search budget used up), with and without a dictionary, one
// encoder of each kind reused throughout. Where the assembly is not
// built both runs take the Go loops.
func TestChain16ScanAsmAgainstGo(t *testing.T) {
	skipUnderRace(t)
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	rng := rand.New(rand.NewPCG(7, 8))
	var a, g Encoder
	type source struct {
		name string
		n    int
	}
	var sources []source
	for _, n := range []int{9, 16, 17, 100, 4095, 20000, 40000, 64 << 10} {
		sources = append(sources, source{"", n})
	}
	// Planes of noisy and of textual data: short matches at most
	// positions, the lazy steps' every branch.
	for _, name := range []string{"sensor_f32", "text", "timestamps_i64"} {
		sources = append(sources, source{name, 16<<10 + 1}, source{name, 32 << 10}, source{name, 64 << 10})
	}
	for _, sc := range sources {
		n := sc.n
		buf := guard.New(n, guard.End)
		src := buf.Bytes
		if sc.name != "" {
			copy(src, golden.Shuffled(golden.MustPattern(t, sc.name, n), 4))
		}
		if sc.name == "" {
			scanSource(src, rng, true)
		}
		hits := 0
		for _, lvl := range []int{5, 6, 7, 8, 9, 10} {
			for _, tiny := range []bool{false, true} {
				for _, dl := range []int{0, 700} {
					dict, s := src[:min(dl, n/2)], src[min(dl, n/2):]
					var po *cparams
					if tiny {
						p := paramsFor(lvl, len(s), len(dict))
						p.hlog, p.clog, p.slog = 6, 6, 4
						po = &p
					}
					a.override, g.override = po, po
					useRowAsm = asm
					fa := a.EncodeDict(nil, s, dict, lvl)
					useRowAsm = false
					fg := g.EncodeDict(nil, s, dict, lvl)
					if a.c16 != g.c16 {
						t.Fatalf("n=%d level %d: 16-bit chains %v and %v", n, lvl, a.c16, g.c16)
					}
					if a.c16 {
						hits++
					}
					if !bytes.Equal(fa, fg) {
						t.Fatalf("%s n=%d level %d, tiny %v, dictionary %d: assembly %d bytes, Go %d, differ at %d", sc.name, n, lvl, tiny, len(dict), len(fa), len(fg), golden.FirstDiff(fa, fg))
					}
					if !slices.Equal(a.chain16, g.chain16) {
						t.Fatalf("n=%d level %d, tiny %v, dictionary %d: the links differ after the frame", n, lvl, tiny, len(dict))
					}
				}
			}
		}
		if n >= 4095 && hits == 0 {
			t.Fatalf("n=%d: no level walked the 16-bit chains", n)
		}
		buf.Free()
	}
}

// FuzzChain16ScanAsmMatchesGo: the levels over the 16-bit chains write
// the same frames through chain16ScanAsm and through the Go loops, for
// any input and dictionary, the encoders reused, and leave the same
// links; the high bit of level shrinks the tables to 2^6 heads and links
// with 16 tries a search.
func FuzzChain16ScanAsmMatchesGo(f *testing.F) {
	for _, name := range []string{"text", "sensor_f32", "runs", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(f, name, 3000), 4)
		f.Add(src, uint8(0), uint16(0))
		f.Add(src, uint8(2), uint16(700))
		f.Add(src, uint8(0x80|1), uint16(0))
	}
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	var ea, eg Encoder
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data), 1<<10)
		dict, src := data[:dl], data[dl:min(len(data), dl+4<<10)]
		lvl := 5 + int(level&0x7F)%6
		var po *cparams
		if level&0x80 != 0 {
			p := paramsFor(lvl, len(src), len(dict))
			p.hlog, p.clog, p.slog = 6, 6, 4
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
		if ea.c16 && !slices.Equal(ea.chain16, eg.chain16) {
			t.Fatalf("level %d, %d bytes, dictionary %d: the links differ after the frame", lvl, len(src), len(dict))
		}
	})
}

// scanSource fills src with what the scans in assembly meet, 4000
// bytes a turn: 1500 repeating with period 13, then (with long) 500 of
// period 7, a long match, then low-entropy noise up to 3000 and noise.
func scanSource(src []byte, rng *rand.Rand, long bool) {
	for i := range src {
		switch {
		case i%4000 < 1500:
			src[i] = byte(i % 13)
		case long && i%4000 < 2000:
			src[i] = byte(i % 7)
		case i%4000 < 3000:
			src[i] = byte(rng.Uint32() & 15)
		default:
			src[i] = byte(rng.Uint32())
		}
	}
}
