package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkStreamCLI times, interleaved in every iteration, the streaming
// command, `blosc compress -format frame - OUT` fed through a
// pipe and `blosc decompress OUT -` into a pipe another goroutine drains
// (run in this process, so the two pipelines share the machine's state),
// against the in-memory pipeline on the same data and options: AppendData
// of the whole input into a super-chunk of the same chunk size and its
// frame's bytes, then ParseFrame and Decompress. It reports each one's
// best GB/s, a memcpy's, the data's through a bare pipe (the bound on
// both commands when the data compresses faster than a pipe carries it),
// and the stream/in-memory ratios.
//
// The same rounds also run the command as a user runs it from a shell:
// the blosc binary (built once) as a subprocess, its stdin a file holding
// the input, decompressing to /dev/null and to a file beside OUT (the
// copy into the page cache when that is tmpfs), with each one's peak
// resident memory; and the in-memory chunk pipeline: the data through
// Compress and Decompress as chunks of the frame's chunk size on the same
// options (all cores inside each chunk). The exe rows are given as ratios
// to both in-memory pipelines. The input is 256 MiB unless
// GOBLOSC_STREAM_MB says otherwise; OUT and the files go to
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
	bin := filepath.Join(b.TempDir(), "blosc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	inPath := filepath.Join(dir, "stream.in")
	decPath := filepath.Join(dir, "stream.out")
	defer os.Remove(inPath)
	defer os.Remove(decPath)
	for _, set := range []struct {
		pattern  string
		typesize int
	}{{"f32_noise", 4}, {"linspace_f64", 8}} {
		// Made by the first sub-benchmark that runs, so a filter that
		// skips a dataset does not hold it in memory (3 GiB runs).
		var in []byte
		for _, codec := range []string{"lz4", "blosclz"} {
			b.Run(fmt.Sprintf("n=%dMiB/%s/%s", n>>20, set.pattern, codec), func(b *testing.B) {
				if in == nil {
					var err error
					if in, err = golden.Pattern(set.pattern, n); err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(inPath, in, 0o644); err != nil {
						b.Fatal(err)
					}
				}
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
				var tCopy, tPipe, tMc, tMd, tCc, tCd, tSc, tSd, tXc, tXd, tXf frametest.Best
				var rssC, rssD, rssF int64
				cs, err := frameChunkSize(0, set.typesize)
				if err != nil {
					b.Fatal(err)
				}
				chunks := make([][]byte, (n+cs-1)/cs)
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
							frame, err = s.AppendFrame(frame[:0])
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
					timed(&tCc, func() error {
						for i := range chunks {
							c, err := blosc.Compress(chunks[i][:0], in[i*cs:min(i*cs+cs, n)], o.Options)
							if err != nil {
								return err
							}
							chunks[i] = c
						}
						return nil
					})
					timed(&tCd, func() error {
						for i, c := range chunks {
							if _, err := blosc.Decompress(out[i*cs:min(i*cs+cs, n)], c); err != nil {
								return err
							}
						}
						return nil
					})
					timed(&tSc, func() error { return cliFromPipe(args, in) })
					timed(&tSd, func() error { return cliToPipe([]string{"decompress", path, "-"}, n) })
					timed(&tXc, func() error { return exe(bin, args, inPath, "", &rssC) })
					timed(&tXd, func() error { return exe(bin, []string{"decompress", path, "-"}, "", os.DevNull, &rssD) })
					timed(&tXf, func() error { return exe(bin, []string{"decompress", path, "-"}, "", decPath, &rssF) })
					if st, err := os.Stat(decPath); err != nil || st.Size() != int64(n) {
						b.Fatalf("the command wrote a file of the wrong size, want %d bytes (%v)", n, err)
					}
					os.Remove(decPath) // hold one copy of the data at most on tmpfs
				}
				round() // warm up, and check the frame the command wrote
				if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, frame) {
					b.Fatalf("the command's frame differs from the in-memory one (%v)", err)
				}
				for b.Loop() {
					round()
				}
				frametest.ReportSpeeds(b, n, map[string]frametest.Best{"memcpy": tCopy, "pipe": tPipe,
					"mem-comp": tMc, "mem-dec": tMd, "cli-comp": tSc, "cli-dec": tSd, "chunk-comp": tCc, "chunk-dec": tCd,
					"exe-comp": tXc, "exe-dec-null": tXd, "exe-dec-file": tXf})
				frametest.ReportRatios(b, map[string][2]frametest.Best{"comp-cli/mem": {tMc, tSc}, "dec-cli/mem": {tMd, tSd},
					"comp-exe/mem": {tMc, tXc}, "dec-null-exe/mem": {tMd, tXd}, "dec-file-exe/mem": {tMd, tXf},
					"comp-exe/chunk": {tCc, tXc}, "dec-null-exe/chunk": {tCd, tXd}, "dec-file-exe/chunk": {tCd, tXf}})
				b.ReportMetric(float64(rssC)/(1<<20), "exe-comp-maxrss-MiB")
				b.ReportMetric(float64(max(rssD, rssF))/(1<<20), "exe-dec-maxrss-MiB")
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

// exe runs the blosc binary with stdin the file at in and stdout the file
// at out (either "" for none), and keeps in *rss the largest peak
// resident memory it has seen, in bytes. The peak is GNU time's (%M):
// the rusage Go's own wait returns also counts the parent's memory on
// Linux, since the child was vforked and exec records the peak of the
// memory it replaces. Without /usr/bin/time *rss stays 0.
func exe(bin string, args []string, in, out string, rss *int64) error {
	cmd := exec.Command(bin, args...)
	rssFile := ""
	if _, err := os.Stat(timeBin); err == nil {
		f, err := os.CreateTemp("", "blosc-rss")
		if err != nil {
			return err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		cmd = exec.Command(timeBin, append([]string{"-f", "%M", "-o", rssFile, bin}, args...)...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdout = f
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %v: %s", args, err, stderr.Bytes())
	}
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return err
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		if err != nil {
			return fmt.Errorf("%s: %q: %v", timeBin, b, err)
		}
		*rss = max(*rss, kb<<10)
	}
	return nil
}

// timeBin is GNU time, which reports a command's peak resident memory.
const timeBin = "/usr/bin/time"
