package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// cli runs the command in-process and returns exit status, stdout, stderr.
func cli(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCompressDecompressFiles(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("linspace_f64", 300000)
	in := filepath.Join(dir, "in.raw")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"chunk1", "chunk2"} {
		for _, codec := range []string{"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"} {
			for _, sh := range []string{"none", "byte", "bit"} {
				compressFileRoundTrip(t, dir, in, src, format, codec, sh)
			}
		}
	}
}

func compressFileRoundTrip(t *testing.T, dir, in string, src []byte, format, codec, sh string) {
	t.Helper()
	name := format + codec + sh
	c := filepath.Join(dir, name+".blosc")
	d := filepath.Join(dir, name+".out")
	code, _, stderr := cli(t, nil, "compress", "-format", format, "-codec", codec, "-shuffle", sh, "-typesize", "8", "-level", "7", "-threads", "2", in, c)
	if format == "chunk2" && codec == "snappy" {
		// c-blosc2 dropped Snappy: a Blosc2 chunk cannot name it.
		if code != 1 || !strings.Contains(stderr, "snappy") {
			t.Errorf("chunk2 snappy: exit %d, stderr %q; want a refusal naming snappy", code, stderr)
		}
		return
	}
	if code != 0 {
		t.Fatalf("compress %s: exit %d: %s", name, code, stderr)
	}
	hdr, _ := os.ReadFile(c)
	if wantVersion := map[string]byte{"chunk1": 2, "chunk2": 5}[format]; len(hdr) < 1 || hdr[0] != wantVersion {
		t.Fatalf("%s: chunk starts % x, want version %d", name, hdr[:min(len(hdr), 4)], wantVersion)
	}
	if code, _, stderr := cli(t, nil, "decompress", c, d); code != 0 {
		t.Fatalf("decompress %s: exit %d: %s", name, code, stderr)
	}
	got, _ := os.ReadFile(d)
	if !bytes.Equal(got, src) {
		t.Fatalf("%s: round trip through files lost data", name)
	}
	// With byte shuffle every codec compresses this input (c-blosc too);
	// without it BloscLZ stores some inputs raw, as C does.
	if sh == "byte" && len(hdr) >= len(src)/2 {
		t.Errorf("%s: %d compressed bytes for %d", name, len(hdr), len(src))
	}
}

// -filters fills pipeline slots from 0 as c-blosc2 does for an explicit
// filter list, -dict stores a dictionary, -split sets the split mode: each
// shows in the header info reports, and each chunk round-trips.
func TestCompressBlosc2Options(t *testing.T) {
	dir := t.TempDir()
	src, _ := golden.Pattern("f32_noise", 200000)
	in := filepath.Join(dir, "in.raw")
	os.WriteFile(in, src, 0o644)
	cases := []struct {
		args  []string
		check func(h map[string]any) bool
	}{
		{[]string{"-filters", "delta,shuffle", "-typesize", "4"}, func(h map[string]any) bool {
			f, _ := h["filters"].([]any)
			return len(f) == 6 && f[0] == "delta" && f[1] == "shuffle" && f[5] == "none"
		}},
		{[]string{"-filters", "trunc_prec:10,bitshuffle", "-typesize", "4"}, func(h map[string]any) bool {
			f, _ := h["filters"].([]any)
			m, _ := h["filters_meta"].([]any)
			return len(f) == 6 && f[0] == "trunc_prec" && f[1] == "bitshuffle" && m[0] == float64(10)
		}},
		{[]string{"-filters", "shuffle,bytedelta:4", "-typesize", "4"}, func(h map[string]any) bool {
			f, _ := h["filters"].([]any)
			m, _ := h["filters_meta"].([]any)
			return len(f) == 6 && f[0] == "shuffle" && f[1] == "bytedelta" && m[1] == float64(4)
		}},
		{[]string{"-filters", "int_trunc:-3,shuffle", "-typesize", "4"}, func(h map[string]any) bool {
			f, _ := h["filters"].([]any)
			m, _ := h["filters_meta"].([]any)
			return len(f) == 6 && f[0] == "int_trunc" && m[0] == float64(0xfd)
		}},
		{[]string{"-codec", "zstd", "-dict", "-typesize", "4"}, func(h map[string]any) bool { return h["dict"] == true }},
		{[]string{"-codec", "lz4", "-split", "never", "-typesize", "4"}, func(h map[string]any) bool { return h["split"] == false }},
		{[]string{"-codec", "lz4", "-split", "always", "-typesize", "4"}, func(h map[string]any) bool { return h["split"] == true }},
	}
	for i, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("c%d", i))
		args := append(append([]string{"compress"}, c.args...), in, out)
		if code, _, stderr := cli(t, nil, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		code, js, stderr := cli(t, nil, "info", "-json", out)
		if code != 0 {
			t.Fatalf("info %v: exit %d: %s", c.args, code, stderr)
		}
		var h map[string]any
		if err := json.Unmarshal([]byte(js), &h); err != nil {
			t.Fatal(err)
		}
		if h["format"] != "blosc2" || !c.check(h) {
			t.Errorf("%v: header %s", c.args, js)
		}
		back := filepath.Join(dir, fmt.Sprintf("d%d", i))
		if code, _, stderr := cli(t, nil, "decompress", out, back); code != 0 {
			t.Fatalf("decompress %v: exit %d: %s", c.args, code, stderr)
		}
		got, _ := os.ReadFile(back)
		lossy := strings.Contains(strings.Join(c.args, " "), "trunc")
		if !lossy && !bytes.Equal(got, src) || len(got) != len(src) {
			t.Errorf("%v: round trip lost data", c.args)
		}
	}
}

func TestStdinStdout(t *testing.T) {
	src := []byte(strings.Repeat("goblosc over stdin and stdout ", 1000))
	code, comp, stderr := cli(t, src, "compress", "-typesize", "1", "-codec", "lz4", "-", "-")
	if code != 0 {
		t.Fatalf("compress: exit %d: %s", code, stderr)
	}
	code, out, stderr := cli(t, []byte(comp), "decompress", "-", "-")
	if code != 0 || out != string(src) {
		t.Fatalf("decompress: exit %d, %d bytes: %s", code, len(out), stderr)
	}
}

func TestInfo(t *testing.T) {
	dir := golden.Dir(t)
	f := filepath.Join(dir, "blosc1", "b1_A_lz4_l5_shuffle_ts8_n65536.blosc1")
	code, out, stderr := cli(t, nil, "info", f)
	if code != 0 {
		t.Fatalf("info: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"lz4", "65536", "kernel"} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
	code, out, stderr = cli(t, nil, "info", "-json", f)
	if code != 0 {
		t.Fatalf("info -json: exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("info -json is not JSON: %v\n%s", err, out)
	}
	if m["Typesize"] != float64(8) && m["typesize"] != float64(8) {
		t.Errorf("info -json typesize: %v", m)
	}
}

func TestErrorsAreOneLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("\x02\x01\x01\x08\xff\xff\xff\x7f\x00\x00\x01\x00\x20\x00\x00\x00garbage"), 0o644)
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"decompress", bad, filepath.Join(dir, "o")}, 1},
		{[]string{"info", bad}, 1},
		{[]string{"decompress", filepath.Join(dir, "missing"), filepath.Join(dir, "o")}, 1},
		{[]string{"compress", "-codec", "nope", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-level", "10", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-typesize", "256", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-shuffle", "sideways", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-filters", "delta,wobble", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-filters", "delta:999", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-filters", "delta,delta,delta,delta,delta,delta,delta", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", "-split", "sometimes", bad, filepath.Join(dir, "o")}, 2},
		{[]string{"compress", bad}, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"bench", "-datasets", "nope", "-time", "1ms"}, 2},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, nil, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
		}
		if strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 || stderr == "" {
			t.Errorf("%v: stderr is not one line: %q", c.args, stderr)
		}
	}
}

func TestBenchJSON(t *testing.T) {
	code, out, stderr := cli(t, nil, "bench", "-json", "-size", "65536", "-time", "2ms",
		"-datasets", "arange_i64,text", "-codecs", "blosclz,zstd", "-shuffles", "byte,bit")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench -json: %v", err)
	}
	var memcpy, goRows int
	for _, r := range rep.Rows {
		switch r.Engine {
		case "memcpy":
			memcpy++
		case "go":
			goRows++
			if r.Ratio <= 0 || r.CompressGBps <= 0 || r.DecompressGBps <= 0 || r.Dataset == "arange_i64" && r.Ratio < 10 {
				t.Errorf("implausible row %+v", r)
			}
		}
	}
	if memcpy != 2 || goRows != 8 {
		t.Errorf("got %d memcpy rows and %d go rows, want 2 and 8", memcpy, goRows)
	}
}

// -levels runs every level given.
func TestBenchLevels(t *testing.T) {
	code, out, stderr := cli(t, nil, "bench", "-json", "-size", "65536", "-time", "2ms",
		"-datasets", "text", "-codecs", "zstd,lz4hc", "-shuffles", "byte", "-levels", "1,9")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench -json: %v", err)
	}
	levels := map[string]int{}
	for _, r := range rep.Rows {
		switch r.Engine {
		case "go":
			levels[fmt.Sprintf("%s/%d", r.Codec, r.Level)]++
		case "memcpy":
		default:
			t.Errorf("row of engine %q: only go and memcpy rows are built in", r.Engine)
		}
	}
	for _, k := range []string{"zstd/1", "zstd/9", "lz4hc/1", "lz4hc/9"} {
		if levels[k] != 1 {
			t.Errorf("%d go rows for %s, want 1 (rows: %v)", levels[k], k, levels)
		}
	}
	if code, _, _ := cli(t, nil, "bench", "-levels", "1,x", "-time", "1ms"); code != 2 {
		t.Errorf("-levels 1,x: exit %d, want 2", code)
	}
}

func TestBenchKernelsJSON(t *testing.T) {
	code, out, stderr := cli(t, nil, "bench", "-kernels", "-json", "-time", "1ms", "-sizes", "4KiB,65540")
	if code != 0 {
		t.Fatalf("bench -kernels: exit %d: %s", code, stderr)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench -kernels -json: %v", err)
	}
	fam := map[string]int{}
	for _, r := range rep.Kernels {
		fam[r.Family]++
	}
	if fam["memcpy"] != 2 || fam["shuffle"] == 0 || fam["bitshuffle"] == 0 {
		t.Errorf("rows per family: %v", fam)
	}
}
