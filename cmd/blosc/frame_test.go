package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/fsys"
	"github.com/goblosc/blosc/internal/golden"
)

func TestCompressFrameRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("f32_noise", 1<<20+4000)
	in := filepath.Join(dir, "in.raw")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"-format", "frame", "-codec", "lz4", "-typesize", "4", "-chunksize", "65536"}, "a.bin"},
		{[]string{"-codec", "zstd", "-typesize", "4", "-level", "1"}, "b.b2frame"}, // format from the extension
		{[]string{"-format", "frame", "-typesize", "4", "-filters", "delta,bitshuffle", "-chunksize", "4000"}, "c.b2frame"},
	} {
		out := filepath.Join(dir, tc.out)
		args := append(append([]string{"compress"}, tc.args...), in, out)
		if code, _, stderr := cli(t, nil, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		f, _ := os.ReadFile(out)
		s, err := blosc.ParseFrame(f)
		if err != nil {
			t.Fatalf("%v: not a frame: %v", args, err)
		}
		if s.Nchunks() < 2 {
			t.Errorf("%v: %d chunks", args, s.Nchunks())
		}
		code, stdout, stderr := cli(t, nil, "decompress", out, "-")
		if code != 0 || stdout != string(src) {
			t.Fatalf("decompress %s: exit %d (%s), %d bytes back of %d", tc.out, code, stderr, len(stdout), len(src))
		}
	}
	// -chunksize must be a multiple of the typesize.
	if code, _, stderr := cli(t, nil, "compress", "-format", "frame", "-typesize", "4", "-chunksize", "1001", in, filepath.Join(dir, "x.b2frame")); code != 2 || !strings.Contains(stderr, "chunksize") {
		t.Errorf("bad -chunksize: exit %d, %q", code, stderr)
	}
}

// TestInfoFrameJSON: info -json on every golden frame prints the sidecar's
// fields under the sidecar's key names.
func TestInfoFrameJSON(t *testing.T) {
	dir := golden.Dir(t)
	sidecars, _ := filepath.Glob(filepath.Join(dir, "frames", "*.json"))
	if len(sidecars) == 0 {
		t.Fatal("no frame sidecars")
	}
	for _, sp := range sidecars {
		fp := strings.TrimSuffix(sp, ".json") + ".b2frame"
		if st, err := os.Stat(fp); err != nil || st.IsDir() {
			continue // sparse frame directories: the on-disk frame layer
		}
		code, stdout, stderr := cli(t, nil, "info", "-json", fp)
		if code != 0 {
			t.Fatalf("info %s: exit %d: %s", fp, code, stderr)
		}
		var got, want map[string]any
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(sp)
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"nchunks", "nbytes", "cbytes", "typesize", "codec", "clevel", "filters", "filters_meta", "metalayers", "vlmetalayers"} {
			if g, w := jsonOf(got[k]), jsonOf(want[k]); g != w {
				t.Errorf("%s: %s = %s, sidecar %s", filepath.Base(fp), k, g, w)
			}
		}
		if want["nchunks"].(float64) > 0 && jsonOf(got["chunksize"]) != jsonOf(want["chunksize"]) {
			t.Errorf("%s: chunksize %v, sidecar %v", filepath.Base(fp), got["chunksize"], want["chunksize"])
		}
		wc := want["chunks"].([]any)
		gc, _ := got["chunks"].([]any)
		if len(gc) != len(wc) {
			t.Fatalf("%s: %d chunks, sidecar %d", filepath.Base(fp), len(gc), len(wc))
		}
		for i := range wc {
			for _, k := range []string{"index", "nbytes", "cbytes"} {
				if g, w := jsonOf(gc[i].(map[string]any)[k]), jsonOf(wc[i].(map[string]any)[k]); g != w {
					t.Errorf("%s chunk %d: %s = %s, sidecar %s", filepath.Base(fp), i, k, g, w)
				}
			}
		}
		if code, stdout, _ := cli(t, nil, "info", fp); code != 0 || !strings.Contains(stdout, "nchunks") {
			t.Errorf("info %s (text): exit %d", fp, code)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFailedRunLeavesOutAlone: a failing decompress leaves an existing OUT
// as it was and no temporary file behind.
func TestFailedRunLeavesOutAlone(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.b2frame")
	f := append([]byte{0x9e, 0xa8}, []byte("b2frame\x00")...)
	if err := os.WriteFile(bad, append(f, make([]byte, 200)...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.raw")
	if err := os.WriteFile(out, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := cli(t, nil, "decompress", bad, out); code != 1 {
		t.Fatalf("decompress of a corrupt frame: exit %d", code)
	}
	if b, _ := os.ReadFile(out); !bytes.Equal(b, []byte("keep me")) {
		t.Errorf("OUT changed to %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left: %v", ents)
	}
}

// TestAppendFrameCLI: blosc append extends a frame file in place,
// refilling its short last chunk; the result decodes to the
// concatenation and is what one compress of it writes.
func TestAppendFrameCLI(t *testing.T) {
	dir := t.TempDir()
	parts := [][]byte{}
	for i, n := range []int{100000, 70001, 33} {
		d, _ := golden.Pattern("linspace_f64", n)
		for j := range d {
			d[j] ^= byte(i)
		}
		parts = append(parts, d)
	}
	frame := filepath.Join(dir, "f.b2frame")
	in0 := filepath.Join(dir, "in0")
	os.WriteFile(in0, parts[0], 0o644)
	if code, _, stderr := cli(t, nil, "compress", "-chunksize", "8192", "-codec", "lz4", in0, frame); code != 0 {
		t.Fatalf("compress: %s", stderr)
	}
	for i, p := range parts[1:] {
		in := filepath.Join(dir, fmt.Sprintf("in%d", i+1))
		os.WriteFile(in, p, 0o644)
		if code, _, stderr := cli(t, nil, "append", frame, in); code != 0 {
			t.Fatalf("append %d: exit %d: %s", i+1, code, stderr)
		}
	}
	// And from stdin.
	if code, _, stderr := cli(t, []byte("tail from stdin"), "append", frame, "-"); code != 0 {
		t.Fatalf("append -: %s", stderr)
	}
	want := append(bytes.Join(parts, nil), "tail from stdin"...)
	code, stdout, stderr := cli(t, nil, "decompress", frame, "-")
	if code != 0 || stdout != string(want) {
		t.Fatalf("decompress after appends: exit %d (%s), %d bytes of %d", code, stderr, len(stdout), len(want))
	}
	b, _ := os.ReadFile(frame)
	s, err := blosc.ParseFrame(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < s.Nchunks()-1; i++ {
		if ci, _ := s.ChunkInfo(i); ci.Nbytes != 8192 {
			t.Errorf("chunk %d holds %d bytes: a short chunk was not refilled", i, ci.Nbytes)
		}
	}
	// Appending to something that is not a frame is refused.
	if code, _, _ := cli(t, nil, "append", in0, in0); code != 1 {
		t.Errorf("append to a raw file: exit %d", code)
	}
}

// TestCompressFrameToStdoutAndTooLarge: a frame can go to stdout, and a
// chunk format refuses an input over the 2 GiB chunk limit before reading
// it, naming -format frame.
func TestCompressFrameToStdoutAndTooLarge(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("arange_i64", 300000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, src, 0o644)
	code, stdout, stderr := cli(t, nil, "compress", "-format", "frame", in, "-")
	if code != 0 {
		t.Fatalf("compress to stdout: %s", stderr)
	}
	if _, err := blosc.ParseFrame([]byte(stdout)); err != nil {
		t.Fatalf("stdout is not a frame: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(blosc.MaxBufferSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr = cli(t, nil, "compress", "-format", "chunk2", big, filepath.Join(dir, "big.out"))
	if code != 1 || !strings.Contains(stderr, "-format frame") {
		t.Errorf("over 2 GiB as a chunk: exit %d, %q", code, stderr)
	}
}

// TestSparseFrameCLI: compress -format sframe writes a directory that
// decompress, info and append read, and c-blosc2's golden sparse frame
// decompresses to its sidecar's data.
func TestSparseFrameCLI(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("linspace_f64", 500000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, src, 0o644)
	sf := filepath.Join(dir, "s.sframe")
	if code, _, stderr := cli(t, nil, "compress", "-format", "sframe", "-chunksize", "80000", in, sf); code != 0 {
		t.Fatalf("compress: %s", stderr)
	}
	if code, _, stderr := cli(t, []byte("more"), "append", sf, "-"); code != 0 {
		t.Fatalf("append: %s", stderr)
	}
	code, stdout, stderr := cli(t, nil, "decompress", sf, "-")
	if code != 0 || stdout != string(src)+"more" {
		t.Fatalf("decompress: exit %d (%s), %d bytes", code, stderr, len(stdout))
	}
	code, stdout, _ = cli(t, nil, "info", "-json", sf)
	var fi map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &fi) != nil || fi["format"] != "sframe" || fi["nchunks"].(float64) != 7 {
		t.Errorf("info: exit %d, %v", code, fi)
	}
	g := filepath.Join(golden.Dir(t), "frames", "f12_sparse_lz4.b2frame")
	code, stdout, stderr = cli(t, nil, "decompress", g, "-")
	if code != 0 || golden.SHA256([]byte(stdout)) != "9078248209e2b7c930a8c59d1efae4a4170b26a334963f01fc6df32c32a18087" {
		t.Errorf("golden sparse frame: exit %d (%s)", code, stderr)
	}
}

// TestFormatFromExtension: without -format, OUT's extension decides.
func TestFormatFromExtension(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("arange_i32", 100000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, src, 0o644)
	for out, magic := range map[string]string{"a.blp": "blpk", "a.b2frame": "\x9e\xa8b2frame", "a.bin": "\x05"} {
		p := filepath.Join(dir, out)
		if code, _, stderr := cli(t, nil, "compress", "-typesize", "4", in, p); code != 0 {
			t.Fatalf("%s: %s", out, stderr)
		}
		b, _ := os.ReadFile(p)
		if !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s starts % x", out, b[:min(len(b), 10)])
		}
		code, stdout, _ := cli(t, nil, "decompress", p, "-")
		if code != 0 || stdout != string(src) {
			t.Errorf("%s does not decompress back", out)
		}
	}
}

// TestOutFileStartsWriteout checks that an outFile hands its bytes to the
// write-out every writeBehind bytes, whether they come through Write or
// WriteAt, and that they land where they were written.
func TestOutFileStartsWriteout(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	starts := 0
	o := &outFile{f: f, writeout: func(fsys.File) { starts++ }}
	want := make([]byte, 3*writeBehind+100)
	for i := range want {
		want[i] = byte(i * 7)
	}
	piece := writeBehind / 4
	at := 0
	for k := 0; at < len(want); k++ {
		p := want[at:min(at+piece, len(want))]
		if k%2 == 0 {
			_, err = o.Write(p)
		} else {
			_, err = o.WriteAt(p, int64(at))
			f.Seek(int64(at+len(p)), io.SeekStart)
		}
		if err != nil {
			t.Fatal(err)
		}
		at += len(p)
	}
	if starts != 3 {
		t.Errorf("write-out started %d times for %d bytes, want 3", starts, len(want))
	}
	got, err := os.ReadFile(f.Name())
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the file holds other bytes (%v)", err)
	}
	startWriteout(f) // the real one, on a real file: never fails the write
	if n := newOutFile(f, false); n.writeout != nil {
		t.Error("a file for stdout is written out early")
	}
}
