package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestMappedStreams: compressing from a mapped stdin (a regular file, read
// from its current offset, in several pieces) writes the frame reading
// it does, and leaves the offset at the end; decompressing a mapped frame
// (its pages released several times) gives the data, as -mmap=false does.
func TestMappedStreams(t *testing.T) {
	defer func(p, r int64) { mapPiece, releaseEvery = p, r }(mapPiece, releaseEvery)
	mapPiece, releaseEvery = 1<<20+4096+13, 300000
	dir := t.TempDir()
	data, _ := golden.Pattern("f32_noise", 3<<20+1001)
	const from = 12344 // not on a page boundary
	in := filepath.Join(dir, "in.raw")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	args := []string{"compress", "-format", "frame", "-chunksize", "65536", "-codec", "lz4", "-typesize", "4"}
	mapped, read := filepath.Join(dir, "mapped.b2frame"), filepath.Join(dir, "read.b2frame")
	var stderr bytes.Buffer
	if code := run(append(args, "-", mapped), f, io.Discard, &stderr); code != 0 {
		t.Fatalf("compress from a mapped stdin: exit %d: %s", code, stderr.Bytes())
	}
	if at, _ := f.Seek(0, io.SeekCurrent); at != int64(len(data)) {
		t.Errorf("stdin left at %d, want its end %d", at, len(data))
	}
	if code, _, errs := cli(t, data[from:], append(args, "-mmap=false", "-", read)...); code != 0 {
		t.Fatalf("compress reading: exit %d: %s", code, errs)
	}
	if a, b := mustRead(t, mapped), mustRead(t, read); !bytes.Equal(a, b) {
		t.Fatalf("mapped stdin made a frame of %d bytes, reading it %d, not the same", len(a), len(b))
	}
	for _, flag := range []string{"-mmap=true", "-mmap=false"} {
		code, stdout, errs := cli(t, nil, "decompress", flag, mapped, "-")
		if code != 0 || stdout != string(data[from:]) {
			t.Errorf("decompress %s: exit %d, %d bytes (want %d): %s", flag, code, len(stdout), len(data)-from, errs)
		}
	}
}
