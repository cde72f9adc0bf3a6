package zstdenc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// TestChain32ScanAsmAgainstGo encodes at levels 5, 7, 9 and 10
// (greedy, lazy and lazy2 over the uint32 chains: sources over 64 KiB,
// or smaller ones with the 16-bit chains switched off) and 12 (btlazy2,
// which keeps the Go loop) through chain32ScanAsm and
// through lazy's Go loop, which must write the same bytes and leave the
// same heads and links, on sources ending at a guard page, with
// libzstd's tables and with tiny ones (long chains, stale links, the
// search budget used up), with and without a dictionary, one encoder of
// each kind reused throughout (entries of earlier frames below base).
// Where the assembly is not built both runs take the Go loop.
func TestChain32ScanAsmAgainstGo(t *testing.T) {
	skipUnderRace(t)
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	rng := rand.New(rand.NewPCG(9, 10))
	var a, g Encoder
	type source struct {
		name string
		n    int
		no16 bool
	}
	var sources []source
	for _, n := range []int{9, 17, 4095, 40000} {
		sources = append(sources, source{"", n, true})
	}
	sources = append(sources, source{"", 64<<10 + 1, false}, source{"", 256 << 10, false})
	for _, name := range []string{"sensor_f32", "text", "timestamps_i64"} {
		sources = append(sources, source{name, 100000, false}, source{name, 256 << 10, false}, source{name, 20000, true})
	}
	for _, sc := range sources {
		n := sc.n
		buf := guard.New(n, guard.End)
		src := buf.Bytes
		if sc.name != "" {
			copy(src, golden.MustPattern(t, sc.name, n))
		}
		if sc.name == "" {
			scanSource(src, rng, true)
		}
		a.noChain16, g.noChain16 = sc.no16, sc.no16
		hits := 0
		for _, lvl := range []int{5, 7, 9, 10, 12} {
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
					ok := a.chains32AsmOK(src, len(src))
					useRowAsm = false
					fg := g.EncodeDict(nil, s, dict, lvl)
					if ok {
						hits++
					}
					if !bytes.Equal(fa, fg) {
						t.Fatalf("%s n=%d level %d, tiny %v, dictionary %d: assembly %d bytes, Go %d, differ at %d", sc.name, n, lvl, tiny, len(dict), len(fa), len(fg), golden.FirstDiff(fa, fg))
					}
					if !slices.Equal(a.hashL, g.hashL) || !slices.Equal(a.hashT, g.hashT) {
						t.Fatalf("%s n=%d level %d, tiny %v, dictionary %d: the chains differ after the frame", sc.name, n, lvl, tiny, len(dict))
					}
				}
			}
		}
		if n >= 4095 && hits == 0 {
			t.Fatalf("%s n=%d: no level walked the uint32 chains", sc.name, n)
		}
		buf.Free()
	}
}

// FuzzChain32ScanAsmMatchesGo: the levels over the uint32 chains (the
// 16-bit ones switched off, so that small inputs reach them) write the
// same frames through chain32ScanAsm and through lazy's Go loop, for any
// input and dictionary, the encoders reused, and leave the same heads
// and links; the high bit of level shrinks the tables to 2^6 entries
// with 16 tries a search.
func FuzzChain32ScanAsmMatchesGo(f *testing.F) {
	for _, name := range []string{"text", "sensor_f32", "runs", "rec12"} {
		src := golden.MustPattern(f, name, 3000)
		f.Add(src, uint8(0), uint16(0))
		f.Add(src, uint8(2), uint16(700))
		f.Add(src, uint8(0x80|1), uint16(0))
	}
	defer func(v bool) { useRowAsm = v }(useRowAsm)
	asm := useRowAsm
	var ea, eg Encoder
	ea.noChain16, eg.noChain16 = true, true
	var a, g []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data), 1<<10)
		dict, src := data[:dl], data[dl:min(len(data), dl+4<<10)]
		lvl := 5 + int(level&0x7F)%8
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
		if !slices.Equal(ea.hashL, eg.hashL) || !slices.Equal(ea.hashT, eg.hashT) {
			t.Fatalf("level %d, %d bytes, dictionary %d: the chains differ after the frame", lvl, len(src), len(dict))
		}
	})
}
