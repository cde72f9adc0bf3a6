//go:build cblosc && cgo

package deflate_test

import (
	"bytes"
	stdzlib "compress/zlib"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/czlib"
	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/deflate"
	"github.com/goblosc/blosc/internal/golden"
	kzlib "github.com/klauspost/compress/zlib"
)

// chunkSets are the datasets of `blosc bench` (the real-world-like ones
// among them) at their typesizes; DEFLATE_DATASETS (comma-separated names)
// keeps only those named.
func chunkSets() []struct {
	name string
	ts   int
} {
	var sets []struct {
		name string
		ts   int
	}
	for _, s := range golden.Only(os.Getenv("DEFLATE_DATASETS")) {
		sets = append(sets, struct {
			name string
			ts   int
		}{s.Name, s.Typesize})
	}
	return sets
}

// bloscZlibBlocks cuts a 1 MiB chunk of a dataset as c-blosc2 3.x hands
// it to zlib at clevel (stune.c: zlib is an HCR codec, so 64 KiB halved
// at clevel 1 and doubled up to 1 MiB at 9; zlib never splits a block
// into byte planes), each block byte-shuffled at the typesize.
func bloscZlibBlocks(tb testing.TB, name string, ts, clevel int) [][]byte {
	bs := 64 << 10
	switch clevel {
	case 1:
		bs /= 2
	case 3:
		bs *= 2
	case 4, 5:
		bs *= 4
	case 6, 7, 8:
		bs *= 8
	case 9:
		bs *= 16
	}
	bs = bs / ts * ts
	chunk := golden.MustPattern(tb, name, 1<<20)
	var out [][]byte
	for off := 0; off < len(chunk); off += bs {
		out = append(out, golden.Shuffled(chunk[off:min(off+bs, len(chunk))], ts))
	}
	return out
}

// fixed is an io.Writer into a reused buffer.
type fixed struct{ b []byte }

func (f *fixed) Write(p []byte) (int, error) { f.b = append(f.b, p...); return len(p), nil }

// TestClevelTable prints, per clevel and dataset, the compression ratio
// of ours (internal/deflate), klauspost's zlib and the standard library's
// compress/zlib over C zlib's compress2 (the level c-blosc2 passes, on the
// blocks it cuts), and their speeds over C's by thread CPU time. Rounds
// of the four alternate and the median round counts. Then per clevel the
// worst ratio and the worst and median speed of each: what decides the
// encoder internal/codec uses. DEFLATE_TABLE=1 runs it; DEFLATE_ROUNDS
// sets the rounds (default 5), DEFLATE_CLEVELS a range such as 1-5,
// DEFLATE_SETS a comma-separated list of datasets.
func TestClevelTable(t *testing.T) {
	if os.Getenv("DEFLATE_TABLE") == "" {
		t.Skip("set DEFLATE_TABLE=1 to time internal/deflate, klauspost, compress/zlib and C zlib")
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("DEFLATE_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	lo, hi := 1, 9
	if v := os.Getenv("DEFLATE_CLEVELS"); v != "" {
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
	median := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	var e deflate.Encoder
	dst := make([]byte, deflate.Bound(1<<20))
	var sink fixed
	sink.b = make([]byte, 0, deflate.Bound(1<<20))
	const nEnc = 4
	names := [nEnc]string{"ours", "klauspost", "stdlib", "C"}
	fmt.Println("1 MiB chunks cut into c-blosc2's zlib blocks, byte shuffle, 1 thread; per dataset ratio and speed over C zlib 1.2.13's: ours / klauspost / stdlib")
	for clevel := lo; clevel <= hi; clevel++ {
		kw, err := kzlib.NewWriterLevel(&sink, clevel)
		if err != nil {
			t.Fatal(err)
		}
		sw, err := stdzlib.NewWriterLevel(&sink, clevel)
		if err != nil {
			t.Fatal(err)
		}
		run := func(k int, blocks [][]byte) int {
			total := 0
			for _, b := range blocks {
				var n int
				switch k {
				case 0:
					n = e.Compress(dst[:len(b)], b, clevel)
				case 1, 2:
					sink.b = sink.b[:0]
					if k == 1 {
						kw.Reset(&sink)
						kw.Write(b)
						kw.Close()
					} else {
						sw.Reset(&sink)
						sw.Write(b)
						sw.Close()
					}
					n = len(sink.b)
					if n >= len(b) {
						n = 0
					}
				case 3:
					n = czlib.CompressInto(dst[:len(b)], b, clevel)
				}
				if n == 0 {
					n = len(b) // stored raw, as Blosc does
				}
				total += n
			}
			return total
		}
		worstR := [nEnc]float64{9, 9, 9, 9}
		var speeds [nEnc][]float64
		for _, s := range chunkSets() {
			if only := os.Getenv("DEFLATE_SETS"); only != "" && !strings.Contains(","+only+",", ","+s.name+",") {
				continue
			}
			blocks := bloscZlibBlocks(t, s.name, s.ts, clevel)
			var size [nEnc]int
			for k := range nEnc {
				size[k] = run(k, blocks)
			}
			// Byte identity where the streams fit.
			for _, b := range blocks {
				if want, err := czlib.Compress(b, clevel); err == nil && len(want) < len(b) {
					if got := e.AppendCompress(nil, b, clevel); !bytes.Equal(got, want) {
						t.Errorf("%s clevel %d: our stream differs from compress2's", s.name, clevel)
					}
				}
			}
			var times [nEnc][]time.Duration
			for range rounds {
				for k := range nEnc {
					t0 := now()
					run(k, blocks)
					times[k] = append(times[k], now()-t0)
				}
			}
			fmt.Printf("clevel %d %-15s", clevel, s.name)
			fmt.Printf(" C ratio %6.2f  ratio", float64(1<<20)/float64(size[3]))
			for k := range 3 {
				r := float64(size[3]) / float64(size[k])
				worstR[k] = min(worstR[k], r)
				fmt.Printf(" %.3f", r)
			}
			fmt.Printf("  speed")
			for k := range 3 {
				sp := float64(median(times[3])) / float64(median(times[k]))
				speeds[k] = append(speeds[k], sp)
				fmt.Printf(" %.2f", sp)
			}
			fmt.Println()
		}
		fmt.Printf("clevel %d SUMMARY", clevel)
		for k := range 3 {
			sort.Float64s(speeds[k])
			fmt.Printf("  %s: worst ratio %.3f, speed worst %.2f median %.2f", names[k], worstR[k], speeds[k][0], speeds[k][len(speeds[k])/2])
		}
		fmt.Println()
	}
}
