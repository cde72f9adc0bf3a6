//go:build cblosc && cgo

package zstdenc_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/cputime"
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

// TestClevelTable compares, per Blosc clevel, zstdenc and klauspost's
// encoder (as internal/codec configures it) with libzstd at the level
// c-blosc2 passes: ratio(x)/ratio(C) and speed(x)/speed(C) by thread CPU
// time, all in the same run. ZSTDENC_TABLE=1 runs it;
// ZSTDENC_MAXCLEVEL stops it early.
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
	cbuf := make([]byte, czstd.Bound(bs))
	obuf := make([]byte, 0, czstd.Bound(bs)+64)
	kenc := map[zstd.EncoderLevel]*zstd.Encoder{}
	fmt.Printf("block %d bytes; per dataset: ratio ours/C, klauspost/C; speed ours/C, klauspost/C (thread CPU time)\n", bs)
	hi := 9
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_MAXCLEVEL")); err == nil && v >= 1 {
		hi = min(v, 9)
	}
	for clevel := 1; clevel <= hi; clevel++ {
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
			src := block(t, s.name, s.ts, bs)
			ours := len(e.Encode(obuf[:0], src, lvl))
			kn := len(k.EncodeAll(src, obuf[:0]))
			cn, err := cc.Compress(cbuf, src, lvl)
			if err != nil {
				t.Fatal(err)
			}
			reps := max(1, (4<<20)/bs)
			if lvl >= 15 {
				reps = max(1, reps/8)
			}
			bestO, bestK, bestC := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
			for round := 0; round < 3; round++ {
				t0 := now()
				for i := 0; i < reps; i++ {
					e.Encode(obuf[:0], src, lvl)
				}
				bestO = min(bestO, now()-t0)
				t0 = now()
				for i := 0; i < reps; i++ {
					k.EncodeAll(src, obuf[:0])
				}
				bestK = min(bestK, now()-t0)
				t0 = now()
				for i := 0; i < reps; i++ {
					cc.Compress(cbuf, src, lvl)
				}
				bestC = min(bestC, now()-t0)
			}
			fmt.Printf("  %s r %.2f %.2f s %.2f %.2f", s.name[:4], float64(cn)/float64(ours), float64(cn)/float64(kn),
				float64(bestC)/float64(bestO), float64(bestC)/float64(bestK))
		}
		fmt.Println()
	}
}
