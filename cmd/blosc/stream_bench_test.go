package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkStreamCLI times, interleaved in every iteration, the command
// the issue names, `blosc compress -format frame - OUT` fed through a
// pipe and `blosc decompress OUT -` into a pipe another goroutine drains
// (run in this process, so the two pipelines share the machine's state),
// against the in-memory pipeline on the same data and options: AppendData
// of the whole input into a super-chunk of the same chunk size and its
// frame's bytes, then ParseFrame and Decompress. It reports each one's
// best GB/s, a memcpy's, the data's through a bare pipe (the bound on
// both commands when the data compresses faster than a pipe carries it),
// and the stream/in-memory ratios. The input is
// 256 MiB unless GOBLOSC_STREAM_MB says otherwise; OUT goes to
// GOBLOSC_STREAM_DIR (default: the test's temporary directory).
func BenchmarkStreamCLI(b *testing.B) {
	n := 256 << 20
	if s := os.Getenv("GOBLOSC_STREAM_MB"); s != "" {
		mb, err := strconv.Atoi(s)
		if err != nil || mb <= 0 {
			b.Fatalf("GOBLOSC_STREAM_MB=%q", s)
		}
		n = mb << 20
	}
	dir := os.Getenv("GOBLOSC_STREAM_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	for _, set := range []struct {
		pattern  string
		typesize int
	}{{"f32_noise", 4}, {"linspace_f64", 8}} {
		in, err := golden.Pattern(set.pattern, n)
		if err != nil {
			b.Fatal(err)
		}
		for _, codec := range []string{"lz4", "blosclz"} {
			b.Run(fmt.Sprintf("n=%dMiB/%s/%s", n>>20, set.pattern, codec), func(b *testing.B) {
				o := blosc.SChunkOptions{Options: blosc.Options{Format: blosc.FormatBlosc2, Level: 5, Typesize: set.typesize,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}}}
				o.Codec = blosc.LZ4
				if codec == "blosclz" {
					o.Codec = blosc.BloscLZ
				}
				out := make([]byte, n)
				path := filepath.Join(dir, "stream.b2frame")
				args := []string{"compress", "-format", "frame", "-codec", codec, "-typesize", strconv.Itoa(set.typesize), "-", path}
				var frame []byte
				var tCopy, tPipe, tMc, tMd, tSc, tSd frametest.Best
				timed := func(best *frametest.Best, f func() error) {
					if err := best.Time(f); err != nil {
						b.Fatal(err)
					}
				}
				round := func() {
					timed(&tCopy, func() error { copy(out, in); return nil })
					timed(&tPipe, func() error { return throughPipe(in) })
					timed(&tMc, func() error {
						s, err := blosc.NewSChunk(o)
						if err == nil {
							err = s.AppendData(in)
						}
						if err == nil {
							frame, err = s.Frame(frame[:0])
						}
						return err
					})
					timed(&tMd, func() error {
						s, err := blosc.ParseFrame(frame)
						if err == nil {
							_, err = s.Decompress(out)
						}
						return err
					})
					timed(&tSc, func() error { return cliFromPipe(args, in) })
					timed(&tSd, func() error { return cliToPipe([]string{"decompress", path, "-"}, n) })
				}
				round() // warm up, and check the frame the command wrote
				if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, frame) {
					b.Fatalf("the command's frame differs from the in-memory one (%v)", err)
				}
				for b.Loop() {
					round()
				}
				gb := func(d frametest.Best) float64 { return float64(n) / time.Duration(d).Seconds() / 1e9 }
				b.ReportMetric(gb(tCopy), "memcpy-GB/s")
				b.ReportMetric(gb(tPipe), "pipe-GB/s")
				b.ReportMetric(gb(tMc), "mem-comp-GB/s")
				b.ReportMetric(gb(tMd), "mem-dec-GB/s")
				b.ReportMetric(gb(tSc), "cli-comp-GB/s")
				b.ReportMetric(gb(tSd), "cli-dec-GB/s")
				b.ReportMetric(float64(tMc)/float64(tSc), "comp-cli/mem")
				b.ReportMetric(float64(tMd)/float64(tSd), "dec-cli/mem")
			})
		}
	}
}

// cliFromPipe runs the command with in fed to its stdin through a pipe.
func cliFromPipe(args []string, in []byte) error {
	pr, err := frametest.PipeFrom(in)
	if err != nil {
		return err
	}
	defer pr.Close()
	var stderr bytes.Buffer
	if code := run(args, pr, io.Discard, &stderr); code != 0 {
		return fmt.Errorf("%v: exit %d: %s", args, code, stderr.Bytes())
	}
	return nil
}

// cliToPipe runs the command with its stdout a pipe that a goroutine
// drains, and checks that n bytes came out.
func cliToPipe(args []string, n int) error {
	var stderr bytes.Buffer
	k, err := frametest.PipeInto(func(w *os.File) error {
		if code := run(args, nil, w, &stderr); code != 0 {
			return fmt.Errorf("%v: exit %d: %s", args, code, stderr.Bytes())
		}
		return nil
	})
	if err == nil && k != int64(n) {
		err = fmt.Errorf("%v: %d bytes out, want %d", args, k, n)
	}
	return err
}

// throughPipe pushes in through a pipe, enlarged as the command enlarges
// its stdin, into io.Discard.
func throughPipe(in []byte) error {
	pr, err := frametest.PipeFrom(in)
	if err != nil {
		return err
	}
	defer pr.Close()
	growPipe(pr)
	k, err := io.CopyBuffer(io.Discard, pr, make([]byte, 1<<20))
	if err == nil && k != int64(len(in)) {
		err = fmt.Errorf("%d bytes through the pipe, want %d", k, len(in))
	}
	return err
}
