package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// multiChunkFrame compresses data into a frame file of 256 KiB chunks.
func multiChunkFrame(t *testing.T, dir string, data []byte) string {
	t.Helper()
	in := filepath.Join(dir, "in.raw")
	fp := filepath.Join(dir, "in.b2frame")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, nil, "compress", "-format", "frame", "-codec", "lz4", "-typesize", "8", "-chunksize", "262144", in, fp); code != 0 {
		t.Fatalf("compress: exit %d: %s", code, stderr)
	}
	return fp
}

// TestDecompressFrameStreams: a frame of many chunks decompresses to a
// file and to stdout as the data, with nothing on stderr (not a terminal).
func TestDecompressFrameStreams(t *testing.T) {
	dir := t.TempDir()
	data, _ := golden.Pattern("linspace_f64", 4<<20+1232)
	fp := multiChunkFrame(t, dir, data)
	out := filepath.Join(dir, "out.raw")
	if code, _, stderr := cli(t, nil, "decompress", fp, out); code != 0 || stderr != "" {
		t.Fatalf("decompress to a file: exit %d: %q", code, stderr)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, data) {
		t.Errorf("file: %d bytes, differ from the %d of the data", len(b), len(data))
	}
	code, stdout, stderr := cli(t, nil, "decompress", fp, "-")
	if code != 0 || stderr != "" || stdout != string(data) {
		t.Errorf("decompress to stdout: exit %d, %d bytes (want %d), stderr %q", code, len(stdout), len(data), stderr)
	}
	code, stdout, _ = cli(t, mustRead(t, fp), "decompress", "-", "-")
	if code != 0 || stdout != string(data) {
		t.Errorf("decompress stdin to stdout: exit %d, %d bytes", code, len(stdout))
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecompressFrameFailsMidStream: a frame whose last chunk does not
// decode fails after earlier chunks were written out; an existing OUT
// stays as it was and no temporary file is left.
func TestDecompressFrameFailsMidStream(t *testing.T) {
	dir := t.TempDir()
	data, _ := golden.Pattern("linspace_f64", 4<<20+1232)
	fp := multiChunkFrame(t, dir, data)
	b := mustRead(t, fp)
	s, err := blosc.ParseFrame(b)
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.Chunk(nil, s.Nchunks()-1)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, last)
	if s.Nchunks() < 10 || i < 0 {
		t.Fatalf("%d chunks, last at %d", s.Nchunks(), i)
	}
	for k := i + 40; k < i+len(last); k++ {
		b[k] ^= 0x5a
	}
	bad := filepath.Join(dir, "bad.b2frame")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(fp)
	os.Remove(filepath.Join(dir, "in.raw"))

	// To stdout the bytes before the bad chunk go out, then it fails:
	// the damage is found mid-stream, not up front.
	code, stdout, stderr := cli(t, nil, "decompress", bad, "-")
	if code != 1 || !strings.Contains(stderr, "corrupt") {
		t.Fatalf("decompress of a damaged frame: exit %d, stderr %q", code, stderr)
	}
	if len(stdout) == 0 || len(stdout) >= len(data) || stdout != string(data[:len(stdout)]) {
		t.Fatalf("before failing, wrote %d bytes (data %d), a prefix: %v", len(stdout), len(data), stdout == string(data[:min(len(stdout), len(data))]))
	}

	out := filepath.Join(dir, "out.raw")
	if err := os.WriteFile(out, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := cli(t, nil, "decompress", bad, out); code != 1 {
		t.Fatalf("decompress to a file: exit %d", code)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, []byte("keep me")) {
		t.Errorf("OUT changed to %d bytes", len(got))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left: %v", ents)
	}
}
