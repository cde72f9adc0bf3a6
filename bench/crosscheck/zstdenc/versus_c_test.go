//go:build cblosc && cgo

// Package zstdenc_test checks internal/zstdenc against libzstd: libzstd
// decodes every frame it writes, and a table compares its ratio and speed
// with libzstd's at the same level on Blosc-like blocks.
package zstdenc_test

import (
	"bytes"
	"encoding/binary"
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
)

// sets are Blosc-like blocks: a pattern byte-shuffled at its typesize.
var sets = []struct {
	name string
	ts   int
}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"arange_i64", 8}, {"timestamps", 8},
	{"arange_i16", 2}, {"rand_s1", 8}, {"runs", 4}}

// timestamps is a nanosecond series sampled every millisecond with a
// few microseconds of jitter, as a logger or sensor records them.
func timestamps(n int) []byte {
	out := make([]byte, n+8)
	t := int64(1_700_000_000_000_000_000)
	s := uint64(12345)
	for i := 0; i+8 <= len(out); i += 8 {
		s = s*6364136223846793005 + 1442695040888963407
		binary.LittleEndian.PutUint64(out[i:], uint64(t+int64(s>>54)))
		t += 1_000_000
	}
	return out[:n]
}

func block(tb testing.TB, name string, ts, n int) []byte {
	var src []byte
	if name == "timestamps" {
		src = timestamps(n)
	} else {
		src = golden.MustPattern(tb, name, n)
	}
	return golden.Shuffled(src, ts)
}

// TestDecodedByLibzstd: every frame zstdenc writes, with and without a
// dictionary, libzstd decodes to the input.
func TestDecodedByLibzstd(t *testing.T) {
	var e zstdenc.Encoder
	dict := block(t, "text", 1, 8<<10)
	for _, s := range sets {
		for _, n := range []int{1, 100, 4 << 10, 100 << 10, 300 << 10} {
			src := block(t, s.name, s.ts, n)
			for _, lvl := range []int{1, 2, 3, 4, 7, 13, 15, 16, 18, 19, 22} {
				for _, d := range [][]byte{nil, dict} {
					frame := e.EncodeDict(nil, src, d, lvl)
					got := make([]byte, len(src))
					var k int
					var err error
					if d == nil {
						k, err = czstd.Decompress(got, frame)
					} else {
						k, err = czstd.DecompressWithDict(got, frame, d)
					}
					if err != nil || k != len(src) || !bytes.Equal(got, src) {
						t.Fatalf("%s/%d level %d dict %v: libzstd: %d bytes, %v", s.name, n, lvl, d != nil, k, err)
					}
				}
			}
		}
	}
}

// TestRatioSpeedTable prints, per level and dataset, ratio(ours)/ratio(C)
// and speed(ours)/speed(C), both measured in the same run. It times, so
// it runs only when asked: ZSTDENC_TABLE=1 (block size ZSTDENC_BLOCK,
// default 256 KiB).
//
//	ZSTDENC_TABLE=1 go test -tags cblosc -run RatioSpeedTable -v ./bench/crosscheck/zstdenc/
func TestRatioSpeedTable(t *testing.T) {
	if os.Getenv("ZSTDENC_TABLE") == "" {
		t.Skip("set ZSTDENC_TABLE=1 to time zstdenc against libzstd")
	}
	bs := 256 << 10
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_BLOCK")); err == nil && v > 0 {
		bs = v
	}
	levels := []int{1, 2, 3, 4, 5, 7, 9}
	if v := os.Getenv("ZSTDENC_LEVELS"); v != "" {
		levels = levels[:0]
		for _, f := range strings.Split(v, ",") {
			if l, err := strconv.Atoi(f); err == nil {
				levels = append(levels, l)
			}
		}
	}
	// Time by the thread's CPU clock: the machine is shared, and wall
	// time would also measure the neighbours.
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
	fmt.Printf("block %d bytes; ratio = ours/C compression ratio (>1: ours smaller), speed = ours/C throughput (thread CPU time)\n", bs)
	fmt.Printf("%-14s", "level")
	for _, s := range sets[:5] {
		fmt.Printf(" %22s", s.name)
	}
	fmt.Println()
	for _, lvl := range levels {
		fmt.Printf("%-14d", lvl)
		for _, s := range sets[:5] {
			src := block(t, s.name, s.ts, bs)
			ours := len(e.Encode(obuf[:0], src, lvl))
			cn, err := cc.Compress(cbuf, src, lvl)
			if err != nil {
				t.Fatal(err)
			}
			// Alternate the two so both see the same machine load; keep
			// each one's best round.
			reps := max(1, (8<<20)/bs)
			bestO, bestC := time.Duration(1<<62), time.Duration(1<<62)
			for round := 0; round < 5; round++ {
				t0 := now()
				for i := 0; i < reps; i++ {
					e.Encode(obuf[:0], src, lvl)
				}
				bestO = min(bestO, now()-t0)
				t0 = now()
				for i := 0; i < reps; i++ {
					cc.Compress(cbuf, src, lvl)
				}
				bestC = min(bestC, now()-t0)
			}
			fmt.Printf("   r %5.3f  s %5.2f (%2.0f%%)", float64(cn)/float64(ours), float64(bestC)/float64(bestO),
				100*float64(ours)/float64(len(src)))
		}
		fmt.Println()
	}
}

// TestMixedBlocksDecodedByLibzstd: frames of many blocks of unlike kinds
// (matches, noise, one repeated byte, skewed noise without matches), in
// several orders, which exercise what each block leaves to the next.
func TestMixedBlocksDecodedByLibzstd(t *testing.T) {
	const bs = 128 << 10
	kinds := [][]byte{block(t, "text", 1, bs), block(t, "rand_s1", 8, bs), make([]byte, bs),
		block(t, "linspace_f64", 8, bs), make([]byte, bs)}
	s := uint64(3)
	for i := range kinds[4] {
		s = s*6364136223846793005 + 1442695040888963407
		kinds[4][i] = byte(s >> 58)
	}
	var e zstdenc.Encoder
	for _, order := range [][]int{{0, 4, 0, 3, 0}, {3, 0, 4, 1, 0}, {0, 2, 0, 4, 3}, {4, 4, 0, 0, 2}, {1, 0, 4, 0, 1}} {
		var src []byte
		for _, k := range order {
			src = append(src, kinds[k]...)
		}
		for _, lvl := range []int{1, 3, 5, 9, 15, 22} {
			frame := e.Encode(nil, src, lvl)
			got := make([]byte, len(src))
			if n, err := czstd.Decompress(got, frame); err != nil || n != len(src) || !bytes.Equal(got, src) {
				t.Fatalf("order %v level %d: libzstd: %d bytes, %v", order, lvl, n, err)
			}
		}
	}
}
