//go:build cblosc && cgo

package zstdenc_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdenc"
	"github.com/klauspost/compress/zstd"
)

// bloscZstdLevel is c-blosc2's zstd_wrap_compress mapping of a Blosc
// clevel to a libzstd level.
func bloscZstdLevel(clevel int) int {
	if clevel >= 9 {
		return 22
	}
	return 2*clevel - 1
}

// bloscStreams cuts data as c-blosc2 3.x hands it to zstd at clevel
// (stune.c): with byte shuffle, zstd at clevels up to 5 splits blocks of
// typesize times 32 KiB (clevels 1-3) or 64 KiB (4-5), at least 32 KiB,
// into typesize byte planes, one zstd frame each; at clevels 6-8 blocks
// of 512 KiB and at 9 of 1 MiB go whole. A blocksize above 0 is the
// Blosc block size a program asked for (python-blosc2's b2nd arrays of
// 64x64 float64 items give 32 KiB blocks, 4 KiB planes): at clevels up
// to 5 it is split into planes all the same.
func bloscStreams(tb testing.TB, name string, ts, clevel, blocksize int) [][]byte {
	bs := 512 << 10
	split := false
	switch {
	case clevel <= 3:
		bs, split = max(32<<10*ts, 32<<10), true
	case clevel <= 5:
		bs, split = max(64<<10*ts, 32<<10), true
	case clevel == 9:
		bs = 1 << 20
	}
	if blocksize > 0 {
		bs = blocksize
	}
	chunk := block(tb, name, 1, 1<<20)
	var out [][]byte
	for off := 0; off < len(chunk); off += bs {
		b := golden.Shuffled(chunk[off:min(off+bs, len(chunk))], ts)
		if !split || ts == 1 {
			out = append(out, b)
			continue
		}
		n := len(b) / ts
		for p := 0; p < ts; p++ {
			out = append(out, b[p*n:(p+1)*n])
		}
	}
	return out
}

// TestClevelTable compares, per Blosc clevel, zstdenc and klauspost's
// encoder (as internal/codec configures it) with libzstd at the level
// c-blosc2 passes: ratio(x)/ratio(C) and speed(x)/speed(C) by thread CPU
// time, all in the same run. ZSTDENC_TABLE=1 runs it;
// ZSTDENC_MINCLEVEL and ZSTDENC_MAXCLEVEL bound the clevels.
func TestClevelTable(t *testing.T) {
	if os.Getenv("ZSTDENC_TABLE") == "" {
		t.Skip("set ZSTDENC_TABLE=1 to time zstdenc, klauspost and libzstd")
	}
	bs := 256 << 10
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_BLOCK")); err == nil && v > 0 {
		bs = v
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() time.Duration {
		if d, ok := cputime.Thread(); ok {
			return d
		}
		return time.Duration(time.Now().UnixNano())
	}
	var e zstdenc.Encoder
	cc := czstd.NewCCtx()
	defer cc.Free()
	// ZSTDENC_BLOSC=1: a 1 MiB chunk cut into the streams c-blosc2
	// hands zstd at each clevel, instead of one block of bs bytes.
	blosc := os.Getenv("ZSTDENC_BLOSC") != ""
	// ZSTDENC_BLOSCBLOCK=n with ZSTDENC_BLOSC=1: Blosc blocks of n bytes
	// (32768: a b2nd array's 64x64 float64 blocks, 4 KiB frames).
	bloscBlock := 0
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_BLOSCBLOCK")); err == nil && v > 0 {
		bloscBlock = v
	}
	cbuf := make([]byte, czstd.Bound(1<<20))
	obuf := make([]byte, 0, czstd.Bound(1<<20)+64)
	kenc := map[zstd.EncoderLevel]*zstd.Encoder{}
	if blosc {
		if bloscBlock > 0 {
			fmt.Printf("Blosc blocks of %d bytes; ", bloscBlock)
		}
		fmt.Printf("1 MiB chunks cut as c-blosc2 does; ")
	}
	fmt.Printf("block %d bytes; per dataset: ratio ours/C, klauspost/C; speed ours/C, klauspost/C (thread CPU time)\n", bs)
	hi := 9
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_MAXCLEVEL")); err == nil && v >= 1 {
		hi = min(v, 9)
	}
	lo := 1
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_MINCLEVEL")); err == nil && v >= 1 {
		lo = min(v, hi)
	}
	for clevel := lo; clevel <= hi; clevel++ {
		lvl := bloscZstdLevel(clevel)
		kl := zstd.EncoderLevelFromZstd(lvl)
		k := kenc[kl]
		if k == nil {
			var err error
			k, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(kl), zstd.WithAllLitEntropyCompression(true),
				zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true))
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			kenc[kl] = k
		}
		fmt.Printf("clevel %d (zstd %2d):", clevel, lvl)
		for _, s := range sets[:5] {
			srcs := [][]byte{block(t, s.name, s.ts, bs)}
			if blosc {
				srcs = bloscStreams(t, s.name, s.ts, clevel, bloscBlock)
			}
			var ours, kn, cn int
			total := 0
			for _, src := range srcs {
				total += len(src)
				ours += len(e.Encode(obuf[:0], src, lvl))
				kn += len(k.EncodeAll(src, obuf[:0]))
				n, err := cc.Compress(cbuf, src, lvl)
				if err != nil {
					t.Fatal(err)
				}
				cn += n
			}
			reps := max(1, (4<<20)/total)
			if lvl >= 15 {
				reps = max(1, reps/8)
			}
			bestO, bestK, bestC := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
			for round := 0; round < 3; round++ {
				t0 := now()
				for i := 0; i < reps; i++ {
					for _, src := range srcs {
						e.Encode(obuf[:0], src, lvl)
					}
				}
				bestO = min(bestO, now()-t0)
				t0 = now()
				for i := 0; i < reps; i++ {
					for _, src := range srcs {
						k.EncodeAll(src, obuf[:0])
					}
				}
				bestK = min(bestK, now()-t0)
				t0 = now()
				for i := 0; i < reps; i++ {
					for _, src := range srcs {
						cc.Compress(cbuf, src, lvl)
					}
				}
				bestC = min(bestC, now()-t0)
			}
			fmt.Printf("  %s r %.2f %.2f s %.2f %.2f", s.name[:4], float64(cn)/float64(ours), float64(cn)/float64(kn),
				float64(bestC)/float64(bestO), float64(bestC)/float64(bestK))
		}
		fmt.Println()
	}
}

// TestPlaneTable times, per byte plane position of the 1 MiB chunk
// c-blosc2 cuts at clevels 1-3 (plane p of every Blosc block), zstdenc
// against libzstd, the streams encoded in the chunk's order as a program
// encodes them (a loop over one stream alone lets the branch predictor
// learn its data, which hides a third of a noisy plane's time at level
// 3). ZSTDENC_PLANES=name:typesize:clevel runs it, e.g.
// timestamps_i64:8:2; each stream's time is thread CPU time, summed
// over the blocks and the best of ZSTDENC_ROUNDS rounds (default 5).
func TestPlaneTable(t *testing.T) {
	spec := strings.Split(os.Getenv("ZSTDENC_PLANES"), ":")
	if len(spec) != 3 {
		t.Skip("set ZSTDENC_PLANES=name:typesize:clevel to time zstdenc and libzstd plane by plane")
	}
	ts, err1 := strconv.Atoi(spec[1])
	clevel, err2 := strconv.Atoi(spec[2])
	if err1 != nil || err2 != nil || ts < 1 || clevel < 1 || clevel > 3 {
		t.Fatalf("ZSTDENC_PLANES=%q: want name:typesize:clevel, clevel 1-3", os.Getenv("ZSTDENC_PLANES"))
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := cputime.Thread(); !ok {
		t.Skip("no thread CPU clock")
	}
	now := func() time.Duration { d, _ := cputime.Thread(); return d }
	lvl := bloscZstdLevel(clevel)
	srcs := bloscStreams(t, spec[0], ts, clevel, 0)
	var e zstdenc.Encoder
	cc := czstd.NewCCtx()
	defer cc.Free()
	cbuf := make([]byte, czstd.Bound(1<<20))
	obuf := make([]byte, 0, czstd.Bound(1<<20)+64)
	np := min(ts, len(srcs))
	oSize, cSize := make([]int, np), make([]int, np)
	for i, src := range srcs {
		oSize[i%np] += len(e.Encode(obuf[:0], src, lvl))
		n, err := cc.Compress(cbuf, src, lvl)
		if err != nil {
			t.Fatal(err)
		}
		cSize[i%np] += n
	}
	const reps = 20
	oBest, cBest := make([]time.Duration, np), make([]time.Duration, np)
	oT, cT := make([]time.Duration, np), make([]time.Duration, np)
	for r := 0; r < rounds; r++ {
		clear(oT)
		clear(cT)
		for i := 0; i < reps; i++ {
			for j, src := range srcs {
				t0 := now()
				e.Encode(obuf[:0], src, lvl)
				oT[j%np] += now() - t0
			}
			for j, src := range srcs {
				t0 := now()
				cc.Compress(cbuf, src, lvl)
				cT[j%np] += now() - t0
			}
		}
		for p := range np {
			if r == 0 || oT[p] < oBest[p] {
				oBest[p] = oT[p]
			}
			if r == 0 || cT[p] < cBest[p] {
				cBest[p] = cT[p]
			}
		}
	}
	var oSum, cSum time.Duration
	fmt.Printf("%s clevel %d (zstd %d), %d streams a chunk; per plane: size ours C, microseconds a chunk ours C, speed ours/C\n",
		spec[0], clevel, lvl, len(srcs))
	for p := range np {
		oSum += oBest[p]
		cSum += cBest[p]
		fmt.Printf("  plane %d: %8d %8d  %8.1f %8.1f  %.3f\n", p, oSize[p], cSize[p],
			float64(oBest[p].Nanoseconds())/1e3/reps, float64(cBest[p].Nanoseconds())/1e3/reps, float64(cBest[p])/float64(oBest[p]))
	}
	fmt.Printf("  all:     %8.1f %8.1f microseconds a chunk, speed ours/C %.3f\n",
		float64(oSum.Nanoseconds())/1e3/reps, float64(cSum.Nanoseconds())/1e3/reps, float64(cSum)/float64(oSum))
}
