package blosc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// dictDatasets are the inputs the dictionary measurements use.
var dictDatasets = []string{"arange_i64", "linspace_f64", "f32_noise", "text", "rec12"}

// Dictionary chunks are the same bytes whatever the thread count and from
// one run to the next: the dictionary is trained once, before the blocks
// are shared out, by a trainer without randomness or map iteration.
func TestCompress2DictThreadsIdentical(t *testing.T) {
	sizes := []int{256 << 10, 1<<20 + 12345}
	if testing.Short() {
		sizes = sizes[:1]
	}
	dicts := 0
	for _, name := range dictDatasets {
		for _, n := range sizes {
			in := pattern(t, name, n)
			for _, fs := range [][MaxFilters]Filter{{5: ByteShuffle}, {Delta, ByteShuffle}} {
				o := Options{Format: FormatBlosc2, Codec: Zstd, Level: 5, Typesize: 4, Blocksize: 32 << 10, Filters: fs, Dict: true, Threads: 1}
				want, err := Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				h, err := ReadHeader(want)
				if err != nil {
					t.Fatal(err)
				}
				// Text after delta does not compress: the chunk is a copy.
				if h.Memcpyed {
					continue
				}
				if c, err := openChunk2(want); err != nil || c.dict == nil {
					t.Fatalf("%s/%d/%v: no dictionary chunk: %v", name, n, fs, err)
				}
				dicts++
				for _, th := range []int{1, 2, 3, 8} {
					o.Threads = th
					label := fmt.Sprintf("%s/n=%d/%v/threads=%d", name, n, fs, th)
					got, err := Compress(nil, in, o)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: chunk differs from the first threads=1 run (%s)", label, chunkDiff(got, want))
					}
					out, err := (&Decompressor{Threads: th}).Decompress(nil, got)
					if err != nil || !bytes.Equal(out, in) {
						t.Fatalf("%s: decode: %v", label, err)
					}
				}
			}
		}
	}
	if dicts < len(dictDatasets) {
		t.Fatalf("only %d dictionary chunks checked", dicts)
	}
}

// BenchmarkBlosc2Dict compresses zstd dictionary chunks and reports their
// ratio, the ratio of the same chunk without a dictionary and the
// dictionary's size. Ratios are the figures here; -benchtime=1x is enough
// for them.
func BenchmarkBlosc2Dict(b *testing.B) {
	for _, name := range dictDatasets {
		for _, n := range []int{256 << 10, 1 << 20, 4 << 20} {
			src, _ := golden.Pattern(name, n)
			for _, ts := range []int{4, 8} {
				for _, lvl := range []int{1, 5, 9} {
					o := Options{Format: FormatBlosc2, Codec: Zstd, Level: lvl, Typesize: ts, Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1}
					plain, err := Compress(nil, src, o)
					if err != nil {
						b.Fatal(err)
					}
					o.Dict = true
					comp, err := NewCompressor(o)
					if err != nil {
						b.Fatal(err)
					}
					chunk, _ := comp.Compress(make([]byte, 0, CompressBound(n)), src)
					c, err := openChunk2(chunk)
					if err != nil {
						b.Fatal(err)
					}
					b.Run(fmt.Sprintf("%s/n=%dKiB/ts=%d/l=%d", name, n>>10, ts, lvl), func(b *testing.B) {
						b.SetBytes(int64(n))
						b.ReportAllocs()
						for b.Loop() {
							chunk, _ = comp.Compress(chunk[:0], src)
						}
						b.ReportMetric(float64(n)/float64(len(chunk)), "ratio")
						b.ReportMetric(float64(n)/float64(len(plain)), "nodict-ratio")
						b.ReportMetric(float64(len(c.dict)), "dict-bytes")
					})
				}
			}
		}
	}
}
