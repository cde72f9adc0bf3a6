package blosc

import (
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkFrame times, interleaved in every iteration, a memcpy of the
// input, compressing it into a frame of 64 KiB chunks and decompressing
// the whole frame, and the same data as 64 MiB chunks through a
// Compressor and Decompressor, at 1 and 2 threads; it reports each one's
// best GB/s and the frame/chunk ratios (-benchtime=3x or so; the input is
// 256 MiB unless GOBLOSC_FRAME_BENCH_MB says otherwise).
func BenchmarkFrame(b *testing.B) {
	n := frametest.BenchBytes(b)
	const big = 64 << 20
	for _, set := range frametest.BenchSets {
		in := golden.MustPattern(b, set.Pattern, n)
		for _, codec := range []Codec{LZ4, BloscLZ} {
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("n=%dMiB/%s/%v/threads=%d", n>>20, set.Pattern, codec, th), func(b *testing.B) {
					o := Options{Format: FormatBlosc2, Codec: codec, Level: 5, Typesize: set.Typesize,
						Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: th}
					comp, err := NewCompressor(o)
					if err != nil {
						b.Fatal(err)
					}
					dec := &Decompressor{threads: th}
					chunks := make([][]byte, (n+big-1)/big)
					for i := range chunks {
						chunks[i] = make([]byte, 0, CompressBound(big))
					}
					// The same 64 MiB chunks made of the frame's 64 KiB
					// blocks: the codec's work of the frame, without the
					// frame, in the chunks' reused buffers.
					ob := o
					ob.Blocksize = 64 << 10
					compB, err := NewCompressor(ob)
					if err != nil {
						b.Fatal(err)
					}
					chunksB := make([][]byte, len(chunks))
					for i := range chunksB {
						chunksB[i] = make([]byte, 0, CompressBound(big))
					}
					out := make([]byte, n)
					cp := make([]byte, n)
					var tCopy, tFc, tFd, tCc, tCd, tBc, tBd, tNc frametest.Best
					var frame *SChunk
					// compressInto compresses in as 64 MiB chunks into
					// bufs, reused, or into new buffers when bufs is nil.
					compressInto := func(c *Compressor, bufs [][]byte) error {
						for i := 0; i*big < n; i++ {
							var dst []byte
							if bufs != nil {
								dst = bufs[i][:0]
							}
							ch, err := c.Compress(dst, in[i*big:min(n, (i+1)*big)])
							if err != nil {
								return err
							}
							if bufs != nil {
								bufs[i] = ch
							}
						}
						return nil
					}
					decompressAll := func(bufs [][]byte) error {
						for i, c := range bufs {
							if _, err := dec.Decompress(out[i*big:i*big], c); err != nil {
								return err
							}
						}
						return nil
					}
					round := func() {
						_ = tCopy.Time(func() error { copy(cp, in); return nil })
						if err := tFc.Time(func() error {
							s, err := NewSChunk(SChunkOptions{Options: o, ChunkSize: 64 << 10})
							if err == nil {
								err = s.AppendData(in)
							}
							frame = s
							return err
						}); err != nil {
							b.Fatal(err)
						}
						if err := tFd.Time(func() error { _, err := frame.Decompress(out); return err }); err != nil {
							b.Fatal(err)
						}
						// The 64 MiB chunks into reused buffers, then of
						// the frame's blocks, then into new buffers, as the
						// frame's chunks go into a new super-chunk's memory
						// (both pay for touching fresh pages).
						for _, t := range []struct {
							best *frametest.Best
							f    func() error
						}{
							{&tCc, func() error { return compressInto(comp, chunks) }},
							{&tCd, func() error { return decompressAll(chunks) }},
							{&tBc, func() error { return compressInto(compB, chunksB) }},
							{&tBd, func() error { return decompressAll(chunksB) }},
							{&tNc, func() error { return compressInto(comp, nil) }},
						} {
							if err := t.best.Time(t.f); err != nil {
								b.Fatal(err)
							}
						}
					}
					round() // warm up
					for b.Loop() {
						round()
					}
					frametest.ReportSpeeds(b, n, map[string]frametest.Best{"memcpy": tCopy, "frame-comp": tFc, "frame-dec": tFd,
						"chunk64M-comp": tCc, "chunk64M-dec": tCd})
					frametest.ReportRatios(b, map[string][2]frametest.Best{"comp-frame/chunk": {tCc, tFc}, "dec-frame/chunk": {tCd, tFd},
						"comp-frame/chunk64K": {tBc, tFc}, "dec-frame/chunk64K": {tBd, tFd}, "comp-frame/chunk-new": {tNc, tFc}})
					b.ReportMetric(float64(n)/float64(frame.Cbytes()), "ratio")
					// 64 KiB chunks are 64 KiB blocks, whose shuffled streams
					// find fewer and shorter matches than 512 KiB blocks do:
					// where the two ratios differ, the codec does different
					// work, not only the same work in smaller pieces.
					csize := 0
					for _, c := range chunks {
						csize += len(c)
					}
					b.ReportMetric(float64(n)/float64(csize), "chunk64M-ratio")
				})
			}
		}
	}
}

// BenchmarkFrameGetItems reads 10 items from the middle of an in-memory
// frame of 10,000 chunks through a reused destination.
func BenchmarkFrameGetItems(b *testing.B) {
	const nchunks, cs = 10000, 4096
	in := golden.MustPattern(b, "linspace_f64", nchunks*cs)
	o := SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}, ChunkSize: cs}
	s, err := NewSChunk(o)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.AppendData(in); err != nil {
		b.Fatal(err)
	}
	f, err := s.AppendFrame(nil)
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

// frameFileOnDisk writes a frame of nchunks chunks of cs bytes to a file
// in dir and returns its path.
func frameFileOnDisk(b *testing.B, dir string, nchunks, cs int) string {
	b.Helper()
	path := dir + "/bench.b2frame"
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	o := SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}, ChunkSize: cs}
	w, err := NewFrameWriter(f, o)
	if err != nil {
		b.Fatal(err)
	}
	in := golden.MustPattern(b, "linspace_f64", cs*nchunks)
	if _, err := w.Write(in); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkFrameFileOpenItem opens a 10,000-chunk frame file (warm page
// cache) and reads one item from its middle, reporting the time and the
// memory one open-and-read allocates; a 100,000-chunk file shows that the
// memory does not grow with the file.
func BenchmarkFrameFileOpenItem(b *testing.B) {
	for _, c := range []struct{ n, cs int }{{10000, 4 << 10}, {10000, 64 << 10}, {100000, 4 << 10}} {
		n, cs := c.n, c.cs
		b.Run(fmt.Sprintf("chunks=%d/cs=%dKiB", n, cs>>10), func(b *testing.B) {
			path := frameFileOnDisk(b, b.TempDir(), n, cs)
			st, _ := os.Stat(path)
			b.ReportMetric(float64(st.Size()), "file-bytes")
			b.ReportAllocs()
			dst := make([]byte, 8)
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				s, err := OpenFrame(f, st.Size())
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.GetItems(dst, int64(n*cs/16+3), 1); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}

// countingFile counts the bytes written through it.
type countingFile struct {
	*os.File
	written int64
}

func (c *countingFile) WriteAt(p []byte, off int64) (int, error) {
	c.written += int64(len(p))
	return c.File.WriteAt(p, off)
}

// BenchmarkFrameFileAppend appends one 1 MiB chunk to a 10,000-chunk frame
// file in place and reports the bytes written per append against the
// chunk's, the index's and the trailer's.
func BenchmarkFrameFileAppend(b *testing.B) {
	const cs = 1 << 20
	dir := b.TempDir()
	path := frameFileOnDisk(b, dir, 10000, 4<<10)
	// A frame of 10,000 chunks of 1 MiB would be 10 GiB; this one has
	// 4 KiB chunks, and the appended MiB makes 256 of them.
	_ = cs
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	cf := &countingFile{File: f}
	add := golden.MustPattern(b, "f32_noise", 1<<20)
	var written, chunkBytes, indexBytes int64
	for b.Loop() {
		s, err := OpenFrameFile(cf)
		if err != nil {
			b.Fatal(err)
		}
		first := s.Nchunks()
		cf.written = 0
		if err := s.AppendData(add); err != nil {
			b.Fatal(err)
		}
		written += cf.written
		offs, _ := s.offsetsChunk()
		indexBytes += int64(len(offs))
		for i := first; i < s.Nchunks(); i++ {
			ci, _ := s.ChunkInfo(i)
			chunkBytes += int64(ci.Cbytes)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(written)/n, "written-B/op")
	b.ReportMetric(float64(chunkBytes)/n, "chunks-B/op")
	b.ReportMetric(float64(indexBytes)/n, "index-B/op")
	b.ReportMetric(float64(written-chunkBytes-indexBytes)/n, "rest-B/op")
	b.SetBytes(int64(len(add)))
}

// BenchmarkFrameStream compares, interleaved in every iteration and at
// the default 1 MiB chunk size, the in-memory pipeline (AppendData of the
// whole input, then the frame's bytes; ParseFrame and Decompress into one
// buffer) with the streaming one the command-line tool runs: a
// FrameWriter filling a file from a pipe, and a FrameReader over the file
// opened lazily, writing into a pipe that another goroutine drains. It
// reports each one's best GB/s and stream/in-memory ratios (the files go
// to GOBLOSC_STREAM_DIR, default the test's temporary directory).
func BenchmarkFrameStream(b *testing.B) {
	n := frametest.BenchBytes(b)
	dir := os.Getenv("GOBLOSC_STREAM_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	for _, set := range frametest.BenchSets {
		in := golden.MustPattern(b, set.Pattern, n)
		for _, codec := range []Codec{LZ4, BloscLZ} {
			b.Run(fmt.Sprintf("n=%dMiB/%s/%v", n>>20, set.Pattern, codec), func(b *testing.B) {
				o := SChunkOptions{Options: Options{Format: FormatBlosc2, Codec: codec, Level: 5, Typesize: set.Typesize,
					Filters: [MaxFilters]Filter{5: ByteShuffle}}}
				out := make([]byte, n)
				var frame []byte
				var tCopy, tMc, tMd, tSc, tSd frametest.Best
				path := dir + "/stream.b2frame"
				round := func() {
					_ = tCopy.Time(func() error { copy(out, in); return nil })
					if err := tMc.Time(func() error {
						s, err := NewSChunk(o)
						if err == nil {
							err = s.AppendData(in)
						}
						if err == nil {
							frame, err = s.AppendFrame(frame[:0])
						}
						return err
					}); err != nil {
						b.Fatal(err)
					}
					if err := tMd.Time(func() error {
						s, err := ParseFrame(frame)
						if err == nil {
							_, err = s.Decompress(out)
						}
						return err
					}); err != nil {
						b.Fatal(err)
					}
					if err := tSc.Time(func() error { return streamToFile(path, in, o) }); err != nil {
						b.Fatal(err)
					}
					if err := tSd.Time(func() error { return streamFromFile(path, n) }); err != nil {
						b.Fatal(err)
					}
				}
				round() // warm up
				for b.Loop() {
					round()
				}
				gb := func(d frametest.Best) float64 { return float64(n) / time.Duration(d).Seconds() / 1e9 }
				b.ReportMetric(gb(tCopy), "memcpy-GB/s")
				b.ReportMetric(gb(tMc), "mem-comp-GB/s")
				b.ReportMetric(gb(tMd), "mem-dec-GB/s")
				b.ReportMetric(gb(tSc), "stream-comp-GB/s")
				b.ReportMetric(gb(tSd), "stream-dec-GB/s")
				b.ReportMetric(float64(tMc)/float64(tSc), "comp-stream/mem")
				b.ReportMetric(float64(tMd)/float64(tSd), "dec-stream/mem")
			})
		}
	}
}

// streamToFile streams in through a pipe into a new frame file at path.
func streamToFile(path string, in []byte, o SChunkOptions) error {
	pr, err := frametest.PipeFrom(in)
	if err != nil {
		return err
	}
	defer pr.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := NewFrameWriter(f, o)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, pr); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// streamFromFile opens the frame file at path lazily and streams its data
// into a pipe that a goroutine drains, checking the length.
func streamFromFile(path string, n int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := OpenFrameFile(f)
	if err != nil {
		return err
	}
	k, err := frametest.PipeInto(func(w *os.File) error {
		_, err := NewFrameReader(s).WriteTo(w)
		return err
	})
	if err == nil && k != int64(n) {
		err = fmt.Errorf("streamed %d bytes of %d", k, n)
	}
	return err
}
