package blosc

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zdict"
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
			in := golden.MustPattern(t, name, n)
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
				c, err := openChunk2(want)
				if err != nil || c.dict == nil {
					t.Fatalf("%s/%d/%v: no dictionary chunk: %v", name, n, fs, err)
				}
				dicts++
				t.Logf("%s/%d/%v: %d-byte dictionary", name, n, fs, len(c.dict))
				for _, th := range []int{1, 2, 3, 8} {
					o.Threads = th
					label := fmt.Sprintf("%s/n=%d/%v/threads=%d", name, n, fs, th)
					got, err := Compress(nil, in, o)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: chunk differs from the first threads=1 run (%s)", label, golden.ChunkDiff(got, want))
					}
					out, err := (&Decompressor{threads: th}).Decompress(nil, got)
					if err != nil || !bytes.Equal(out, in) {
						t.Fatalf("%s: decode: %v", label, err)
					}
				}
			}
		}
	}
	if dicts < 2*len(dictDatasets) {
		t.Fatalf("only %d dictionary chunks checked", dicts)
	}
}

// BenchmarkBlosc2Dict compresses zstd dictionary chunks and reports their
// ratio, the ratio of the same chunk without a dictionary, the
// dictionary's size, and the share of the compression time that training
// the dictionary takes (timed apart on the same samples; the chunk's time
// includes it). ns/op is the chunk's time.
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
					samples, maxDict := dictSamplesFor(b, src, chunk)
					b.Run(fmt.Sprintf("%s/n=%dKiB/ts=%d/l=%d", name, n>>10, ts, lvl), func(b *testing.B) {
						b.SetBytes(int64(n))
						b.ReportAllocs()
						var d []byte
						var train time.Duration
						for b.Loop() {
							chunk, _ = comp.Compress(chunk[:0], src)
							b.StopTimer()
							t0 := time.Now()
							d = zdict.Train(d[:0], samples, maxDict)
							train += time.Since(t0)
							b.StartTimer()
						}
						b.ReportMetric(float64(train)/float64(b.Elapsed()), "train-share")
						b.ReportMetric(float64(n)/float64(len(chunk)), "ratio")
						b.ReportMetric(float64(n)/float64(len(plain)), "nodict-ratio")
						b.ReportMetric(float64(len(c.dict)), "dict-bytes")
					})
				}
			}
		}
	}
}

// dictSamplesFor rebuilds the samples trainDict2 trains on for a chunk of
// src compressed with a byte shuffle alone, from the chunk's layout.
func dictSamplesFor(b *testing.B, src, chunk []byte) ([][]byte, int) {
	h, err := ReadHeader(chunk)
	if err != nil {
		b.Fatal(err)
	}
	bs, ts := h.Blocksize, h.Typesize
	nsamples := h.Nblocks
	if h.Split {
		nsamples *= ts
	}
	nsamples = max(nsamples, 8)
	size := len(src) / nsamples / 16
	var filtered []byte
	for j := 0; len(filtered) < nsamples*size; j++ {
		blk := src[j*bs : min(len(src), (j+1)*bs)]
		f := make([]byte, len(blk))
		Shuffle(f, blk, ts)
		filtered = append(filtered, f...)
	}
	samples := make([][]byte, nsamples)
	for i := range samples {
		samples[i] = filtered[i*size : (i+1)*size]
	}
	// The samples must be trainDict2's: the same dictionary comes out.
	c, err := openChunk2(chunk)
	if err != nil {
		b.Fatal(err)
	}
	maxDict := min(maxDictSize2, len(src)/20)
	d := zdict.Train(nil, samples, maxDict)
	if len(d) < minDictContent {
		d = filtered[:min(nsamples*size, maxDict)]
	}
	if c.dict != nil && !bytes.Equal(d, c.dict) {
		b.Fatalf("rebuilt samples give a %d-byte dictionary, the chunk has %d bytes", len(d), len(c.dict))
	}
	return samples, maxDict
}

// FuzzCompress2Dict: zstd dictionary chunks of any input come back
// unchanged and are the same bytes at one and two threads. The fuzzer's
// bytes are stretched past the 5120 bytes below which no dictionary is
// trained, with a counter mixed in so that repeats are not exact.
func FuzzCompress2Dict(f *testing.F) {
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(4), uint8(5), uint16(40), uint16(2048), uint8(1))
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 2}, uint8(8), uint8(1), uint16(2000), uint16(0), uint8(3))
	f.Fuzz(func(t *testing.T, seed []byte, ts, level uint8, reps, bs uint16, pipe uint8) {
		if len(seed) == 0 {
			return
		}
		var src []byte
		for i := 0; len(src) < 6000+int(reps)*16 && len(src) < 1<<18; i++ {
			src = append(src, seed...)
			src = append(src, byte(i), byte(i>>8))
		}
		o := Options{Format: FormatBlosc2, Codec: Zstd, Level: int(level % 10), Typesize: 1 + int(ts)%16,
			Blocksize: int(bs), Dict: true, Threads: 1}
		switch pipe % 4 {
		case 1:
			o.Filters[5] = ByteShuffle
		case 2:
			o.Filters[0], o.Filters[1] = Delta, ByteShuffle
		case 3:
			o.Filters[5] = BitShuffle
		}
		chunk, err := Compress(nil, src, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decompress(nil, chunk)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%+v: round trip: %v", o, err)
		}
		o.Threads = 2
		again, err := Compress(nil, src, o)
		if err != nil || !bytes.Equal(again, chunk) {
			t.Fatalf("%+v: two threads wrote another chunk: %v", o, err)
		}
	})
}
