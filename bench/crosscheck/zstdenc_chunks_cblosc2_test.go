//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdenc"
)

// zstdChunkSets are the datasets of `blosc bench` (the real-world-like ones
// among them) at their typesizes; ZSTDENC_DATASETS (comma-separated names)
// keeps only those named.
func zstdChunkSets() []struct {
	name string
	ts   int
} {
	var sets []struct {
		name string
		ts   int
	}
	for _, s := range golden.Only(os.Getenv("ZSTDENC_DATASETS")) {
		sets = append(sets, struct {
			name string
			ts   int
		}{s.Name, s.Typesize})
	}
	return sets
}

// TestZstdChunkTable writes 1 MiB Blosc2 chunks with zstd (byte shuffle,
// one thread) three ways: this package with internal/zstdenc, with
// klauspost's encoder, and c-blosc2. Per clevel and dataset it prints the
// compression ratio of ours and klauspost's over C's and their speed
// over C's (thread CPU time; rounds of the three alternate and the
// median round counts), then per clevel the worst ratio, the worst speed
// and the worst speed against klauspost's: what decides the clevels
// codec.ownZstd gives zstdenc. ZSTDENC_CHUNKS=1 runs it; ZSTDENC_ROUNDS
// sets the rounds (default 5), ZSTDENC_CLEVELS a range such as 1-5. All
// three chunks must round-trip through this package's decoder and
// c-blosc2's.
func TestZstdChunkTable(t *testing.T) {
	if os.Getenv("ZSTDENC_CHUNKS") == "" {
		t.Skip("set ZSTDENC_CHUNKS=1 to time zstdenc, klauspost and c-blosc2 on zstd chunks")
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	lo, hi := 1, 9
	if v := os.Getenv("ZSTDENC_CLEVELS"); v != "" {
		fmt.Sscanf(v, "%d-%d", &lo, &hi)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() time.Duration {
		if d, ok := cputime.Thread(); ok {
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	own := make([]bool, 10)
	for cl := 1; cl <= 9; cl++ {
		own[cl] = codec.OwnZstd(cl)
	}
	defer func() {
		for cl := 1; cl <= 9; cl++ {
			codec.SetOwnZstd(cl, own[cl])
		}
	}()
	const n = 1 << 20
	dec := newDecompressor(1)
	cD, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cD.Free()
	out := make([]byte, n)
	median := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	fmt.Println("1 MiB Blosc2 zstd chunks, byte shuffle, 1 thread; ratio and speed over c-blosc2's, ours (zstdenc) / klauspost")
	for clevel := lo; clevel <= hi; clevel++ {
		worstR, worstS, worstSK := 10.0, 1e9, 1e9
		for _, s := range zstdChunkSets() {
			in := golden.MustPattern(t, s.name, n)
			o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: clevel, Typesize: s.ts,
				Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
			comp, err := blosc.NewCompressor(o)
			if err != nil {
				t.Fatal(err)
			}
			cC, err := cblosc2.NewCompressor(cParams(o))
			if err != nil {
				t.Fatal(err)
			}
			cBuf := make([]byte, blosc.CompressBound(n))
			goBuf := make([]byte, 0, blosc.CompressBound(n))
			var sizes [3]int
			var times [3][]time.Duration
			reps := max(1, (4<<20)/n)
			if clevel >= 6 {
				reps = 1
			}
			for r := -1; r < rounds; r++ {
				for side := 0; side < 3; side++ {
					var chunk []byte
					t0 := now()
					for range reps {
						switch side {
						case 0, 1:
							codec.SetOwnZstd(clevel, side == 0)
							goBuf, err = comp.Compress(goBuf[:0], in)
							chunk = goBuf
						case 2:
							var m int
							m, err = cC.Compress(cBuf, in)
							chunk = cBuf[:m]
						}
						if err != nil {
							t.Fatal(err)
						}
					}
					d := now() - t0
					if r < 0 {
						// The first round warms up and checks, and sets
						// the repetitions from C's time so that a round of
						// a quick chunk (rec12 or zeros at clevels 6-9, a
						// fraction of a millisecond) still takes 20 ms
						// or more: one chunk alone read 0.93-1.5 of C's
						// speed from run to run.
						if side == 2 && d > 0 {
							reps = max(reps, min(64, int((20*time.Millisecond)/d)))
						}
						sizes[side] = len(chunk)
						if _, err := dec.Decompress(out, chunk); err != nil || !bytes.Equal(out, in) {
							t.Fatalf("%s clevel %d side %d: Go round trip: %v", s.name, clevel, side, err)
						}
						if _, err := cD.Decompress(out, chunk); err != nil || !bytes.Equal(out, in) {
							t.Fatalf("%s clevel %d side %d: c-blosc2 decoding: %v", s.name, clevel, side, err)
						}
						continue
					}
					times[side] = append(times[side], d)
				}
			}
			cC.Free()
			rO, rK := float64(sizes[2])/float64(sizes[0]), float64(sizes[2])/float64(sizes[1])
			tO, tK, tC := median(times[0]), median(times[1]), median(times[2])
			sO, sK := float64(tC)/float64(tO), float64(tC)/float64(tK)
			fmt.Printf("clevel %d %-14s ratio %.3f / %.3f  speed %.2f / %.2f\n", clevel, s.name, rO, rK, sO, sK)
			worstR, worstS, worstSK = min(worstR, rO), min(worstS, sO), min(worstSK, sO/sK)
		}
		fmt.Printf("clevel %d worst: ratio %.3f of C's, speed %.2f of C's, %.2f of klauspost's\n", clevel, worstR, worstS, worstSK)
	}
}

// TestZstdChunkOverhead times, per dataset at its typesize (clevels 1
// and 2, ZSTDENC_CLEVELS to change them), a whole 1 MiB chunk and the
// same chunk's byte planes (blocks of typesize x 32 KiB, shuffled and
// split as c-blosc2 cuts them) encoded alone, ours (zstdenc's Encode)
// and c-blosc2's (ZSTD_compressCCtx into a plane's room, as c-blosc2
// calls it), in one process and alternating: the chunk less its planes
// is what the chunk costs around the zstd streams (shuffle, split,
// run checks, framing, the streams stored raw), for each side. Only
// whole blocks' planes are timed alone: a typesize that leaves a
// leftover block (mixed_rec13's 13) counts it in the "around". Thread CPU time, medians of
// ZSTDENC_ROUNDS (default 7) rounds. ZSTDENC_OVERHEAD=1 runs it.
func TestZstdChunkOverhead(t *testing.T) {
	if os.Getenv("ZSTDENC_OVERHEAD") == "" {
		t.Skip("set ZSTDENC_OVERHEAD=1 to time the chunks around their zstd streams")
	}
	rounds := 7
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	lo, hi := 1, 2
	if v := os.Getenv("ZSTDENC_CLEVELS"); v != "" {
		fmt.Sscanf(v, "%d-%d", &lo, &hi)
	}
	lo, hi = max(lo, 1), min(hi, 3) // blocks of typesize x 32 KiB: clevels 1-3
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() time.Duration {
		if d, ok := cputime.Thread(); ok {
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	own := codec.OwnZstd
	defer func() {
		for cl := lo; cl <= hi; cl++ {
			codec.SetOwnZstd(cl, own(cl))
		}
	}()
	const n, pl = 1 << 20, 32 << 10
	cc := cblosc2.NewZstdCCtx()
	defer cc.Free()
	var e zstdenc.Encoder
	cBuf := make([]byte, blosc.CompressBound(n))
	goBuf := make([]byte, 0, blosc.CompressBound(n))
	pBuf := make([]byte, 0, 2*pl)
	fmt.Println("1 MiB Blosc2 zstd chunks: the chunk and its planes alone, microseconds; the chunk less its planes, ours and C's")
	for clevel := lo; clevel <= hi; clevel++ {
		codec.SetOwnZstd(clevel, true)
		lvl := 2*clevel - 1
		for _, s := range zstdChunkSets() {
			in := golden.MustPattern(t, s.name, n)
			o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: clevel, Typesize: s.ts,
				Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
			comp, err := blosc.NewCompressor(o)
			if err != nil {
				t.Fatal(err)
			}
			cC, err := cblosc2.NewCompressor(cParams(o))
			if err != nil {
				t.Fatal(err)
			}
			var planes [][]byte
			for off := 0; off+pl*s.ts <= n; off += pl * s.ts {
				b := golden.Shuffled(in[off:off+pl*s.ts], s.ts)
				for p := 0; p < s.ts; p++ {
					planes = append(planes, b[p*pl:(p+1)*pl])
				}
			}
			var times [4][]time.Duration
			for r := -1; r < rounds; r++ {
				for side := range 4 {
					t0 := now()
					switch side {
					case 0:
						goBuf, err = comp.Compress(goBuf[:0], in)
					case 1:
						for _, p := range planes {
							pBuf = e.Encode(pBuf[:0], p, lvl)
						}
					case 2:
						_, err = cC.Compress(cBuf, in)
					case 3:
						for _, p := range planes {
							cc.Compress(cBuf[:pl], p, lvl)
						}
					}
					if err != nil {
						t.Fatal(err)
					}
					if d := now() - t0; r >= 0 {
						times[side] = append(times[side], d)
					}
				}
			}
			cC.Free()
			var us [4]float64
			for i, d := range times {
				sort.Slice(d, func(a, b int) bool { return d[a] < d[b] })
				us[i] = float64(d[len(d)/2]) / 1e3
			}
			fmt.Printf("clevel %d %-14s ours %5.0f planes %5.0f (around %4.0f)  C %5.0f planes %5.0f (around %4.0f)\n",
				clevel, s.name, us[0], us[1], us[0]-us[1], us[2], us[3], us[2]-us[3])
		}
	}
}

// TestZstdencChunksReadByC: Blosc2 chunks whose zstd streams
// internal/zstdenc wrote, at every clevel (split into byte planes at 1-5,
// whole blocks above), with leftover blocks and an odd typesize, decode
// in c-blosc2 to the input.
func TestZstdencChunksReadByC(t *testing.T) {
	var was [10]bool
	for cl := 1; cl <= 9; cl++ {
		was[cl] = codec.OwnZstd(cl)
		codec.SetOwnZstd(cl, true)
	}
	defer func() {
		for cl := 1; cl <= 9; cl++ {
			codec.SetOwnZstd(cl, was[cl])
		}
	}()
	cD, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cD.Free()
	for _, s := range []struct {
		name string
		ts   int
	}{{"text", 1}, {"linspace_f64", 8}, {"sensor_f32", 4}, {"mixed_rec13", 13}, {"runs", 4}} {
		for _, n := range []int{1000, 300001} {
			in := golden.MustPattern(t, s.name, n)
			for clevel := 1; clevel <= 9; clevel++ {
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: clevel, Typesize: s.ts,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				chunk, err := blosc.Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				out := make([]byte, n)
				if m, err := cD.Decompress(out, chunk); err != nil || m != n || !bytes.Equal(out, in) {
					t.Fatalf("%s n=%d clevel %d: c-blosc2 read %d, %v", s.name, n, clevel, m, err)
				}
			}
		}
	}
}

// FuzzZstdencChunksByC: any data, clevel and typesize written as a Blosc2
// zstd chunk whose streams internal/zstdenc writes (byte planes at
// clevels 1-5), c-blosc2 and this package decode to the data.
func FuzzZstdencChunksByC(f *testing.F) {
	for i, name := range []string{"text", "linspace_f64", "sensor_f32", "runs"} {
		in := golden.MustPattern(f, name, 5000)
		f.Add(in, uint8(1+2*i), uint8(1<<i))
	}
	cD, err := cblosc2.NewDecompressor(1)
	if err != nil {
		f.Fatal(err)
	}
	dec := newDecompressor(1)
	f.Fuzz(func(t *testing.T, in []byte, clevel, ts uint8) {
		cl := int(clevel)%9 + 1
		was := codec.OwnZstd(cl)
		codec.SetOwnZstd(cl, true)
		defer codec.SetOwnZstd(cl, was)
		o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: cl, Typesize: int(ts)%16 + 1,
			Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
		chunk, err := blosc.Compress(nil, in, o)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, len(in))
		if m, err := cD.Decompress(out, chunk); err != nil || m != len(in) || !bytes.Equal(out, in) {
			t.Fatalf("clevel %d typesize %d, %d bytes: c-blosc2 read %d, %v", cl, o.Typesize, len(in), m, err)
		}
		if _, err := dec.Decompress(out, chunk); err != nil || !bytes.Equal(out, in) {
			t.Fatalf("clevel %d typesize %d, %d bytes: Go round trip: %v", cl, o.Typesize, len(in), err)
		}
	})
}
