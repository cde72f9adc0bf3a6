//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/goblosc/blosc"
)

// TestDecompressToPipeSpecial: decompress to an OUT that is a named pipe
// (as /dev/null is a device) writes into it in place, leaving no
// temporary file beside it and the pipe a pipe (a temporary file renamed
// over it replaced it, after holding all the data), and streaming a
// frame of a few hundred bytes whose 8 zero chunks claim 256 MiB each
// allocates a few megabytes, not a chunk in flight (the stream decoded
// each chunk whole: 1 GiB at two threads; the 1,024 chunks of
// 1 GiB took 1.2 to 1.6 GB of memory).
func TestDecompressToPipeSpecial(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 2 GiB of zeros three times")
	}
	dir := t.TempDir()
	const cs = 1 << 28
	s, err := blosc.NewSChunk(blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: cs})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendSpecial(blosc.SpecialZeros, 8*cs/8, nil); err != nil {
		t.Fatal(err)
	}
	b, err := s.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := filepath.Join(dir, "zeros.b2frame")
	os.WriteFile(frame, b, 0o644)
	outDir := filepath.Join(dir, "out")
	os.Mkdir(outDir, 0o755)
	pipe := filepath.Join(outDir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	for _, args := range [][]string{
		{"decompress", frame, pipe},
		{"decompress", "-mmap=false", frame, pipe},
		{"decompress", "-", pipe}, // the frame from standard input
	} {
		got := make(chan int64, 1)
		go func() {
			r, err := os.Open(pipe)
			if err != nil {
				got <- -1
				return
			}
			defer r.Close()
			n, _ := io.Copy(io.Discard, r)
			got <- n
		}()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		code, _, stderr := cli(t, b, args...)
		runtime.ReadMemStats(&m1)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		// (Checked first: a reader of a pipe replaced would wait on.)
		st, err := os.Lstat(pipe)
		if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("%v: OUT is no longer a pipe (%v)", args, err)
		}
		if n := <-got; n != 8*cs {
			t.Fatalf("%v: the pipe carried %d bytes", args, n)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 {
			t.Errorf("%v: allocated %d MiB", args, a>>20)
		}
		if ents, _ := os.ReadDir(outDir); len(ents) != 1 {
			t.Fatalf("%v: %d files beside OUT", args, len(ents)-1)
		}
	}
}
