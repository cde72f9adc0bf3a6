package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goblosc/blosc"
)

// TestLockingCLI: with BLOSC_LOCKING=1, info and decompress take the
// frame's shared lock and append its exclusive one, so each waits while
// another handle holds the exclusive lock (here for a Lock bracket), and
// runs once it is released; append then moves the sidecar's counter.
func TestLockingCLI(t *testing.T) {
	t.Setenv("BLOSC_LOCKING", "1")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.raw")
	data := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	frame := filepath.Join(dir, "f.b2frame")
	if code, _, stderr := cli(t, nil, "compress", "-format", "frame", in, frame); code != 0 {
		t.Fatalf("compress: %s", stderr)
	}
	for _, args := range [][]string{
		{"info", frame},
		{"decompress", frame, filepath.Join(dir, "out")},
		{"append", frame, in},
	} {
		h, err := blosc.OpenFile(frame, blosc.FileOptions{Writable: true, Locking: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Lock(); err != nil {
			t.Fatal(err)
		}
		done := make(chan string, 1)
		go func() {
			code, _, stderr := cli(t, nil, args...)
			if code != 0 {
				done <- stderr
			}
			done <- ""
		}()
		select {
		case <-done:
			t.Fatalf("%s ran while another handle held the frame's exclusive lock", args[0])
		case <-time.After(300 * time.Millisecond):
		}
		if err := h.Unlock(); err != nil {
			t.Fatal(err)
		}
		if stderr := <-done; stderr != "" {
			t.Fatalf("%s: %s", args[0], stderr)
		}
		h.Close()
	}
	s, err := blosc.OpenFile(frame, blosc.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Nbytes(); got != int64(2*len(data)) {
		t.Fatalf("after append the frame holds %d bytes, want %d", got, 2*len(data))
	}
}
