package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// compress -format bloscpack with the reference's options writes the
// reference's files: its blpk compress defaults (bp01), and lz4 with a
// chunk size and checksum given (bp03).
func TestBloscpackCompressIsReference(t *testing.T) {
	dir := golden.Dir(t)
	tmp := t.TempDir()
	cases := []struct {
		vector, pattern string
		n               int
		flags           []string
	}{
		{"bp01_defaults_adler32_offsets_4chunks.blp", "arange_i64", 3149728, nil},
		{"bp03_crc32_lz4_256k.blp", "f32_noise", 500000, []string{"-codec", "lz4", "-level", "5", "-typesize", "4", "-chunksize", "256K", "-checksum", "crc32"}},
		{"bp02_nochecksum_nooffsets.blp", "f32_noise", 500000, []string{"-codec", "lz4", "-level", "5", "-typesize", "4", "-chunksize", "128KiB", "-checksum", "none", "-offsets=false"}},
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join(dir, "bloscpack", c.vector))
		if err != nil {
			t.Fatal(err)
		}
		src, _ := golden.Pattern(c.pattern, c.n)
		in := filepath.Join(tmp, c.vector+".raw")
		os.WriteFile(in, src, 0o644)
		out := filepath.Join(tmp, c.vector)
		args := append(append([]string{"compress", "-format", "bloscpack"}, c.flags...), in, out)
		if code, _, stderr := cli(t, nil, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.vector, code, stderr)
		}
		got, _ := os.ReadFile(out)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from the reference's %d", c.vector, len(got), len(want))
		}
		// Through standard input and output too.
		code, stdout, stderr := cli(t, src, append(append([]string{"compress", "-format", "bloscpack"}, c.flags...), "-", "-")...)
		if code != 0 || stdout != string(want) {
			t.Errorf("%s via stdin/stdout: exit %d (%s), equal %v", c.vector, code, stderr, stdout == string(want))
		}
	}
}

func TestBloscpackDecompressInfoAppend(t *testing.T) {
	tmp := t.TempDir()
	src, _ := golden.Pattern("linspace_f64", 300000)
	more, _ := golden.Pattern("text", 70001)
	in := filepath.Join(tmp, "in.raw")
	os.WriteFile(in, src, 0o644)
	meta := filepath.Join(tmp, "meta.json")
	os.WriteFile(meta, []byte(`{"units": "m"}`), 0o644)
	blp := filepath.Join(tmp, "f.blp")
	if code, _, stderr := cli(t, nil, "compress", "-format", "bloscpack", "-chunksize", "65536", "-checksum", "sha256", "-metadata", meta, "-threads", "2", in, blp); code != 0 {
		t.Fatalf("compress: %d %s", code, stderr)
	}
	back := filepath.Join(tmp, "back.raw")
	if code, _, stderr := cli(t, nil, "decompress", blp, back); code != 0 {
		t.Fatalf("decompress: %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(back); !bytes.Equal(got, src) {
		t.Fatal("decompress lost data")
	}
	b, _ := os.ReadFile(blp)
	if code, out, stderr := cli(t, b, "decompress", "-", "-"); code != 0 || out != string(src) {
		t.Fatalf("decompress - -: %d %s", code, stderr)
	}
	code, out, stderr := cli(t, nil, "info", blp)
	if code != 0 || !strings.Contains(out, "nchunks") || !strings.Contains(out, "sha256") || !strings.Contains(out, `{"units":"m"}`) {
		t.Fatalf("info: %d %s\n%s", code, stderr, out)
	}
	code, out, _ = cli(t, nil, "info", "-json", blp)
	var info struct {
		Format string `json:"format"`
		Header struct {
			NChunks  int64  `json:"nchunks"`
			Checksum string `json:"checksum"`
		} `json:"header"`
		Metadata map[string]string `json:"metadata"`
		Chunks   []struct {
			Offset int64 `json:"offset"`
			Nbytes int   `json:"nbytes"`
		} `json:"chunks"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
		t.Fatalf("info -json: %v\n%s", err, out)
	}
	if info.Format != "bloscpack" || info.Header.NChunks != 5 || len(info.Chunks) != 5 || info.Header.Checksum != "sha256" ||
		info.Metadata["units"] != "m" || info.Chunks[4].Nbytes != 300000-4*65536 {
		t.Errorf("info -json: %+v", info)
	}

	addIn := filepath.Join(tmp, "more.raw")
	os.WriteFile(addIn, more, 0o644)
	if code, _, stderr := cli(t, nil, "append", blp, addIn); code != 0 {
		t.Fatalf("append: %d %s", code, stderr)
	}
	if code, _, stderr := cli(t, more[:5], "append", "-level", "3", blp, "-"); code != 0 {
		t.Fatalf("append from stdin: %d %s", code, stderr)
	}
	if code, _, stderr := cli(t, nil, "decompress", blp, back); code != 0 {
		t.Fatalf("decompress after append: %d %s", code, stderr)
	}
	want := append(append(append([]byte{}, src...), more...), more[:5]...)
	if got, _ := os.ReadFile(back); !bytes.Equal(got, want) {
		t.Fatalf("after append: %d bytes, want %d", len(got), len(want))
	}

	// Failures: one line, the right status, no partial output.
	chunk := filepath.Join(tmp, "c.blosc")
	cli(t, nil, "compress", in, chunk)
	bad := filepath.Join(tmp, "bad.blp")
	os.WriteFile(bad, b[:len(b)-1], 0o644)
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"append", chunk, addIn}, 1},
		{[]string{"append", blp}, 2},
		{[]string{"compress", "-format", "bloscpack", "-checksum", "fnv", in, filepath.Join(tmp, "x")}, 2},
		{[]string{"compress", "-format", "bloscpack", "-chunksize", "0", in, filepath.Join(tmp, "x")}, 2},
		{[]string{"compress", "-format", "bloscpack", "-chunksize", "3GiB", in, filepath.Join(tmp, "x")}, 2},
		{[]string{"compress", "-format", "bloscpack", "-filters", "delta", in, filepath.Join(tmp, "x")}, 2},
		{[]string{"decompress", bad, filepath.Join(tmp, "x")}, 1},
		{[]string{"info", bad}, 1},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, nil, c.args...)
		if code != c.code || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 || stderr == "" {
			t.Errorf("%v: exit %d, want %d, stderr %q", c.args, code, c.code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "x")); err == nil {
		t.Error("a failed command left its output")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, ".blosc-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
