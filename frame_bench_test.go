package blosc

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// frameBenchBytes is the input size of the frame benchmarks: 256 MiB as
// the performance target states it, or GOBLOSC_FRAME_BENCH_MB.
func frameBenchBytes(b *testing.B) int {
	if s := os.Getenv("GOBLOSC_FRAME_BENCH_MB"); s != "" {
		mb, err := strconv.Atoi(s)
		if err != nil || mb <= 0 {
			b.Fatalf("GOBLOSC_FRAME_BENCH_MB=%q", s)
		}
		return mb << 20
	}
	return 256 << 20
}

// frameBenchSets are the datasets and codecs of the frame target.
var frameBenchSets = []struct {
	pattern  string
	typesize int
}{{"f32_noise", 4}, {"linspace_f64", 8}}

// best keeps the shortest of repeated timings.
type best time.Duration

func (b *best) time(f func() error) error {
	t0 := time.Now()
	err := f()
	if d := time.Since(t0); *b == 0 || d < time.Duration(*b) {
		*b = best(d)
	}
	return err
}

// BenchmarkFrame times, interleaved in every iteration, a memcpy of the
// input, compressing it into a frame of 64 KiB chunks and decompressing
// the whole frame, and the same data as 64 MiB chunks through a
// Compressor and Decompressor, at 1 and 2 threads; it reports each one's
// best GB/s and the frame/chunk ratios (-benchtime=3x or so; the input is
// 256 MiB unless GOBLOSC_FRAME_BENCH_MB says otherwise).
func BenchmarkFrame(b *testing.B) {
	n := frameBenchBytes(b)
	const big = 64 << 20
	for _, set := range frameBenchSets {
		in := pattern(b, set.pattern, n)
		for _, codec := range []Codec{LZ4, BloscLZ} {
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("n=%dMiB/%s/%v/threads=%d", n>>20, set.pattern, codec, th), func(b *testing.B) {
					o := Options{Format: FormatBlosc2, Codec: codec, Level: 5, Typesize: set.typesize,
						Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: th}
					comp, err := NewCompressor(o)
					if err != nil {
						b.Fatal(err)
					}
					dec := &Decompressor{Threads: th}
					chunks := make([][]byte, (n+big-1)/big)
					for i := range chunks {
						chunks[i] = make([]byte, 0, CompressBound(big))
					}
					out := make([]byte, n)
					cp := make([]byte, n)
					var tCopy, tFc, tFd, tCc, tCd best
					var frame *SChunk
					round := func() {
						_ = tCopy.time(func() error { copy(cp, in); return nil })
						if err := tFc.time(func() error {
							s, err := NewSChunk(SChunkOptions{Options: o, ChunkSize: 64 << 10})
							if err == nil {
								err = s.AppendData(in)
							}
							frame = s
							return err
						}); err != nil {
							b.Fatal(err)
						}
						if err := tFd.time(func() error { _, err := frame.Decompress(out); return err }); err != nil {
							b.Fatal(err)
						}
						if err := tCc.time(func() error {
							for i := range chunks {
								c, err := comp.Compress(chunks[i][:0], in[i*big:min(n, (i+1)*big)])
								if err != nil {
									return err
								}
								chunks[i] = c
							}
							return nil
						}); err != nil {
							b.Fatal(err)
						}
						if err := tCd.time(func() error {
							for i, c := range chunks {
								if _, err := dec.Decompress(out[i*big:i*big], c); err != nil {
									return err
								}
							}
							return nil
						}); err != nil {
							b.Fatal(err)
						}
					}
					round() // warm up
					for b.Loop() {
						round()
					}
					gb := func(d best) float64 { return float64(n) / time.Duration(d).Seconds() / 1e9 }
					b.ReportMetric(gb(tCopy), "memcpy-GB/s")
					b.ReportMetric(gb(tFc), "frame-comp-GB/s")
					b.ReportMetric(gb(tFd), "frame-dec-GB/s")
					b.ReportMetric(gb(tCc), "chunk64M-comp-GB/s")
					b.ReportMetric(gb(tCd), "chunk64M-dec-GB/s")
					b.ReportMetric(float64(tCc)/float64(tFc), "comp-frame/chunk")
					b.ReportMetric(float64(tCd)/float64(tFd), "dec-frame/chunk")
					b.ReportMetric(float64(n)/float64(frame.Cbytes()), "ratio")
				})
			}
		}
	}
}

// BenchmarkFrameGetItems reads 10 items from the middle of an in-memory
// frame of 10,000 chunks through a reused destination.
func BenchmarkFrameGetItems(b *testing.B) {
	const nchunks, cs = 10000, 4096
	in := pattern(b, "linspace_f64", nchunks*cs)
	o := SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}, ChunkSize: cs}
	s, err := NewSChunk(o)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.AppendData(in); err != nil {
		b.Fatal(err)
	}
	f, err := s.Frame(nil)
	if err != nil {
		b.Fatal(err)
	}
	r, err := ParseFrame(f)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 80)
	start := int64(len(in) / 16)
	b.ReportAllocs()
	b.SetBytes(80)
	for b.Loop() {
		if _, err := r.GetItems(dst, start, 10); err != nil {
			b.Fatal(err)
		}
	}
}
