//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
)

// cParams maps Blosc2 options to c-blosc2's. SplitDefault is c-blosc2's
// default, forward-compat.
func cParams(o blosc.Options) cblosc2.Params {
	p := cblosc2.Params{Codec: int(o.Codec), Level: o.Level, Typesize: max(o.Typesize, 1), Threads: max(o.Threads, 1),
		Blocksize: o.Blocksize, Split: int(o.SplitMode), Dict: o.Dict}
	if o.SplitMode == blosc.SplitDefault {
		p.Split = int(blosc.SplitForwardCompat)
	}
	for i := range o.Filters {
		p.Filters[i], p.FilterMeta[i] = uint8(o.Filters[i]), o.FilterMeta[i]
	}
	return p
}

// cblosc2Cases are Blosc2 configurations C and Go must agree on: every
// codec, the filters alone and chained, special typesizes and splits.
func cblosc2Cases() []blosc.Options {
	var cs []blosc.Options
	pipes := [][blosc.MaxFilters]blosc.Filter{
		{5: blosc.ByteShuffle}, {5: blosc.BitShuffle}, {}, {4: blosc.Delta, 5: blosc.ByteShuffle},
		{4: blosc.TruncPrec, 5: blosc.BitShuffle}, {0: blosc.Delta, 1: blosc.ByteShuffle, 2: blosc.BitShuffle},
	}
	for _, c := range []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Zlib, blosc.Zstd} {
		for pi, f := range pipes {
			for _, ts := range []int{1, 2, 4, 8, 12} {
				if f[4] == blosc.TruncPrec && ts != 4 && ts != 8 {
					continue // trunc_prec is defined for float32 and float64
				}
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: c, Level: 5, Typesize: ts, Filters: f, Threads: 1}
				if f[4] == blosc.TruncPrec {
					o.FilterMeta[4] = 10
				}
				cs = append(cs, o)
				if pi == 0 && ts == 8 {
					for _, s := range []blosc.SplitMode{blosc.SplitAlways, blosc.SplitNever, blosc.SplitAuto} {
						o.SplitMode = s
						cs = append(cs, o)
					}
				}
			}
		}
	}
	dict := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: 5, Typesize: 4, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1, Dict: true}
	return append(cs, dict)
}

// cTailBug reports the configurations where c-blosc2's delta or
// trunc_prec meets a block that is not a whole number of elements.
func cTailBug(o blosc.Options, n int) bool {
	for _, f := range o.Filters {
		if (f == blosc.Delta || f == blosc.TruncPrec) && n%max(o.Typesize, 1) != 0 {
			return true
		}
	}
	return false
}

// chained reports pipelines of three or more filters.
func chained(o blosc.Options) bool {
	k := 0
	for _, f := range o.Filters {
		if f != blosc.NoFilter {
			k++
		}
	}
	return k >= 3
}

// TestBlosc2ReadByC has c-blosc2 decode the Blosc2 chunks we write, and
// us decode c-blosc2's, over codecs, pipelines, typesizes, splits and
// sizes from empty to several blocks; BloscLZ and LZ4 chunks must also be
// the same bytes.
func TestBlosc2ReadByC(t *testing.T) {
	t.Logf("c-blosc2 %s", cblosc2.Version())
	dec, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Free()
	sizes := []int{0, 1, 31, 4096, 100003, 1<<20 + 24}
	for _, o := range cblosc2Cases() {
		for _, n := range sizes {
			// A fresh C context per size: c-blosc2 3.3 keeps the block
			// size an automatic context chose for one input and applies
			// it to the next (after 31 bytes, a 100 KB input got 1-byte
			// blocks and came out memcpyed).
			cc, err := cblosc2.NewCompressor(cParams(o))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"linspace_f64", "f32_noise", "text"} {
				if o.Dict && n < 100000 {
					continue
				}
				src := golden.MustPattern(t, name, n)
				label := fmt.Sprintf("%s %s ts=%d filters=%v meta=%v split=%d dict=%v n=%d", name, o.Codec, o.Typesize, o.Filters, o.FilterMeta, o.SplitMode, o.Dict, n)
				ours, err := blosc.Compress(nil, src, o)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				// trunc_prec is lossy: both sides must then agree with
				// each other rather than with src.
				lossy := o.Filters[4] == blosc.TruncPrec
				want, err := blosc.Decompress(nil, ours)
				if err != nil || (!lossy && !bytes.Equal(want, src)) {
					t.Fatalf("%s: our round trip: %v", label, err)
				}
				got := make([]byte, n)
				if m, err := dec.Decompress(got, ours); err != nil || m != n || !bytes.Equal(got, want) {
					t.Errorf("%s: C decoding our chunk: %d bytes, %v, equal %v", label, m, err, bytes.Equal(got, want))
				}
				// dst of n+32 bytes (BLOSC2_MAX_OVERHEAD), as python-blosc2
				// passes: with more room c-blosc2 keeps a compressed chunk
				// larger than the memcpyed one we (and it, given n+32) write.
				theirs := make([]byte, n+32)
				cn, err := cc.Compress(theirs, src)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if m, err := dec.Decompress(got, theirs[:cn]); err != nil || m != n || (!lossy && !bytes.Equal(got, src)) {
					if cTailBug(o, n) {
						// docs/formats.md: c-blosc2's delta and trunc_prec leave
						// the partial element at a block's end unwritten.
						t.Logf("%s: c-blosc2 does not round-trip its own chunk (its known block-tail bug)", label)
						continue
					}
					if chained(o) {
						t.Logf("%s: c-blosc2 does not round-trip its own chunk of this filter chain", label)
						continue
					}
					t.Fatalf("%s: C's own round trip: %v", label, err)
				}
				back, err := blosc.Decompress(nil, theirs[:cn])
				if err != nil || !bytes.Equal(back, got) {
					t.Errorf("%s: decoding C's chunk: %v", label, err)
				}
				// The same bytes as C where C is right: not across its
				// block-tail bug, and not for chains of three filters,
				// where C fails its own round trip on some inputs.
				if (o.Codec == blosc.BloscLZ || o.Codec == blosc.LZ4 || o.Codec == blosc.LZ4HC) && !cTailBug(o, n) && !chained(o) && !bytes.Equal(ours, theirs[:cn]) {
					t.Errorf("%s: our chunk (%d bytes) differs from C's (%d)", label, len(ours), cn)
				}
			}
			cc.Free()
		}
	}
	// Special chunks made by our constructors.
	for _, mk := range []func() ([]byte, error){
		func() ([]byte, error) { return blosc.ZerosChunk(nil, 1<<20, 8) },
		func() ([]byte, error) { return blosc.NaNChunk(nil, 1<<20, 4) },
		func() ([]byte, error) { return blosc.NaNChunk(nil, 1<<20, 8) },
		func() ([]byte, error) { return blosc.ValueChunk(nil, 1<<20, []byte{1, 2, 3, 4, 5, 6, 7, 8}) },
	} {
		c, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		want, err := blosc.Decompress(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if m, err := dec.Decompress(got, c); err != nil || m != len(want) || !bytes.Equal(got, want) {
			t.Errorf("special chunk %x...: C decodes %d bytes, %v", c[:16], m, err)
		}
	}
}

// blosc2BenchSets are the 64 MiB inputs of the c-blosc2 figures (the root
// package's BenchmarkBlosc2Threads runs the same).
var blosc2BenchSets = []struct {
	pattern  string
	typesize int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}}

type side struct{ comp, dec time.Duration }

// timeSide compresses and decodes once, keeping the best times in best.
func timeSide(b *testing.B, best *side, comp func() (int, error), dec func(m int) error) {
	t0 := time.Now()
	m, err := comp()
	t1 := time.Now()
	if err != nil {
		b.Fatal(err)
	}
	if err := dec(m); err != nil {
		b.Fatal(err)
	}
	t2 := time.Now()
	best.comp = min(best.comp, t1.Sub(t0))
	best.dec = min(best.dec, t2.Sub(t1))
}

// BenchmarkBlosc2VersusC alternates Go and c-blosc2 on 64 MiB inputs of
// arange_i64, linspace_f64 and f32_noise, at 1 and 2 threads, each compressing the input
// and decoding its own chunk, and reports every side's best GB/s and the
// go/c ratios (run with -benchtime=5x or so).
func BenchmarkBlosc2VersusC(b *testing.B) {
	const n = 64 << 20
	for _, s := range blosc2BenchSets {
		in := golden.MustPattern(b, s.pattern, n)
		for _, c := range []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd} {
			b.Run(fmt.Sprintf("n=64MiB/%s/%s/ts=%d", s.pattern, c, s.typesize), func(b *testing.B) {
				best := map[string]*side{}
				dst := make([]byte, blosc.CompressBound(n))
				out := make([]byte, n)
				var runs []func()
				for _, th := range []int{1, 2} {
					o := blosc.Options{Format: blosc.FormatBlosc2, Codec: c, Level: 5, Typesize: s.typesize,
						Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: th}
					goC, err := blosc.NewCompressor(o)
					if err != nil {
						b.Fatal(err)
					}
					goD := newDecompressor(th)
					cC, err := cblosc2.NewCompressor(cParams(o))
					if err != nil {
						b.Fatal(err)
					}
					cD, err := cblosc2.NewDecompressor(th)
					if err != nil {
						b.Fatal(err)
					}
					defer cC.Free()
					defer cD.Free()
					gk, ck := fmt.Sprintf("go%d", th), fmt.Sprintf("c%d", th)
					best[gk] = &side{1 << 62, 1 << 62}
					best[ck] = &side{1 << 62, 1 << 62}
					runs = append(runs, func() {
						timeSide(b, best[gk], func() (int, error) { r, err := goC.Compress(dst, in); return len(r), err },
							func(m int) error { _, err := goD.Decompress(out, dst[:m]); return err })
					}, func() {
						timeSide(b, best[ck], func() (int, error) { return cC.Compress(dst, in) },
							func(m int) error { _, err := cD.Decompress(out, dst[:m]); return err })
					})
				}
				for _, r := range runs {
					r() // warm up contexts, pools and workers
				}
				for b.Loop() {
					for _, r := range runs {
						r()
					}
				}
				gb := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
				for _, th := range []string{"1", "2"} {
					g, cs := best["go"+th], best["c"+th]
					b.ReportMetric(gb(g.comp), "go-comp"+th+"t-GB/s")
					b.ReportMetric(gb(cs.comp), "c-comp"+th+"t-GB/s")
					b.ReportMetric(gb(g.dec), "go-dec"+th+"t-GB/s")
					b.ReportMetric(gb(cs.dec), "c-dec"+th+"t-GB/s")
					b.ReportMetric(float64(cs.comp)/float64(g.comp), "comp"+th+"t-go/c")
					b.ReportMetric(float64(cs.dec)/float64(g.dec), "dec"+th+"t-go/c")
				}
			})
		}
	}
}
