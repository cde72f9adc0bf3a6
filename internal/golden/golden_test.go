package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every raw input stored with the vectors must be reproduced by Pattern, and
// every manifest row whose pattern we know must match its raw_sha256.
func TestPatternsMatchRawFiles(t *testing.T) {
	dir := Dir(t)
	es, err := Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	seen := map[string]bool{}
	for _, e := range es {
		if strings.ContainsAny(e.Pattern, "(,[") || e.Pattern == "" || len(e.RawSHA256) != 64 || seen[e.Pattern+"/"+e.RawSHA256] {
			continue
		}
		if _, err := Pattern(e.Pattern, 1); err != nil {
			continue
		}
		seen[e.Pattern+"/"+e.RawSHA256] = true
		got, err := Pattern(e.Pattern, int(e.Nbytes))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(got)
		if hex.EncodeToString(sum[:]) != e.RawSHA256 {
			t.Errorf("%s: pattern %s n=%d: sha256 %x, manifest says %s", e.File, e.Pattern, e.Nbytes, sum, e.RawSHA256)
		}
		if e.Raw != "" {
			raw, err := os.ReadFile(filepath.Join(dir, e.Raw))
			if err == nil && !bytes.Equal(raw, got) {
				t.Errorf("%s differs from the generated pattern", e.Raw)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d patterns checked", checked)
	}
	t.Logf("%d pattern/size pairs reproduced", checked)
}

// fatalRecorder stands in for a testing.TB to observe Fatal without
// ending the real test: Fatal unwinds with a panic the caller recovers.
type fatalRecorder struct {
	testing.TB
	msg string
}

type fatalled struct{}

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatal(args ...any) {
	r.msg = fmt.Sprint(args...)
	panic(fatalled{})
}
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(fatalled{})
}

// fails runs f against a recorder and returns the Fatal message, "" if
// f returned normally.
func fails(t *testing.T, f func(tb testing.TB)) (msg string) {
	t.Helper()
	r := &fatalRecorder{TB: t}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(fatalled); !ok {
				panic(p)
			}
			msg = r.msg
		}
	}()
	f(r)
	return ""
}

// fakeVectors writes a manifest of the given rows (file, kind, pattern,
// nbytes, raw, out_sha256, notes) into a temporary directory and points
// EnvDir at it.
func fakeVectors(t *testing.T, rows [][7]string) string {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("file\tkind\tcodec\tclevel\tfilters\ttypesize\tnbytes\tblocksize\tpattern\tproducer\tcbytes\tsplitmode\traw\traw_sha256\tout_sha256\tnotes\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%s\tlz4\t5\tshuffle\t1\t%s\t0\t%s\tc\t0\tdefault\t%s\t-\t%s\t%s\n", r[0], r[1], r[3], r[2], r[4], r[5], r[6])
	}
	if err := os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvDir, dir)
	return dir
}

func TestRowsByKind(t *testing.T) {
	fakeVectors(t, [][7]string{
		{"a.b2chunk", "blosc2-chunk", "zeros", "4", "-", "x", ""},
		{"b.blosc1", "blosc1-chunk", "zeros", "4", "-", "x", ""},
		{"c.b2chunk", "blosc2-special-chunk", "zeros", "4", "-", "x", ""},
	})
	_, rows := Rows(t, "blosc2-chunk", "blosc2-special-chunk")
	if len(rows) != 2 || rows[0].File != "a.b2chunk" || rows[1].File != "c.b2chunk" {
		t.Errorf("Rows = %+v", rows)
	}
	if _, all := Rows(t); len(all) != 3 {
		t.Errorf("Rows() returned %d rows, want all 3", len(all))
	}
	if msg := fails(t, func(tb testing.TB) { Rows(tb, "corrupt-frame") }); !strings.Contains(msg, "corrupt-frame") {
		t.Errorf("Rows of an absent kind did not fail: %q", msg)
	}
	if _, _, err := Lookup(); err != nil {
		t.Fatalf("Lookup over a readable manifest: %v", err)
	}
	_, some, err := Lookup("blosc1-chunk")
	if err != nil || len(some) != 1 || some[0].File != "b.blosc1" {
		t.Errorf("Lookup = %+v, %v", some, err)
	}
}

func TestNote(t *testing.T) {
	e := Entry{Notes: "hdr=0501;version=5;C_BUG:x;flags=0x2d;empty=;base=a=b"}
	for key, want := range map[string]string{"hdr": "0501", "version": "5", "flags": "0x2d", "empty": "", "base": "a=b"} {
		if v, ok := e.Note(key); !ok || v != want {
			t.Errorf("Note(%q) = %q, %v; want %q", key, v, ok, want)
		}
	}
	for _, key := range []string{"C_BUG:x", "ver", "0x2d", ""} {
		if v, ok := e.Note(key); ok {
			t.Errorf("Note(%q) = %q, found", key, v)
		}
	}
}

func TestCBugPrefix(t *testing.T) {
	for _, c := range []struct {
		notes   string
		n       int
		ok, bad bool
	}{
		{"version=5", 0, false, false},
		{"C_BUG:y;compare_only_first_96_bytes;", 96, true, false},
		{"compare_only_first_100_bytes", 100, true, false},
		{"compare_only_first_101_bytes", 0, false, true}, // beyond nbytes
		{"compare_only_first_x_bytes", 0, false, true},
	} {
		n, ok, err := Entry{Nbytes: 100, Notes: c.notes}.CBugPrefix()
		if n != c.n || ok != c.ok || (err != nil) != c.bad {
			t.Errorf("%q: %d, %v, %v", c.notes, n, ok, err)
		}
	}
}

func TestExpectedAndCheckOutput(t *testing.T) {
	in, _ := Pattern("arange_i8", 64)
	cbug := bytes.Clone(in)
	cbug[60], cbug[63] = 0xee, 0xff // C's undefined tail
	badPrefix := bytes.Clone(cbug)
	badPrefix[3] ^= 1 // a .out that disagrees with the input C was given
	dir := fakeVectors(t, [][7]string{
		{"raw.b2chunk", "blosc2-chunk", "arange_i8", "64", "in.raw", SHA256(in), ""},
		{"gen.b2chunk", "blosc2-chunk", "arange_i8", "64", "-", SHA256(in), ""},
		{"bug.b2chunk", "blosc2-chunk", "arange_i8", "64", "in.raw", SHA256(cbug), "C_BUG:z;compare_only_first_56_bytes"},
		{"liar.b2chunk", "blosc2-chunk", "arange_i8", "64", "in.raw", SHA256(badPrefix), "compare_only_first_56_bytes"},
		{"stale.b2chunk", "blosc2-chunk", "arange_i8", "64", "in.raw", SHA256(cbug), ""},
	})
	for name, b := range map[string][]byte{"in.raw": in, "bug.out": cbug, "liar.out": badPrefix} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, rows := Rows(t)
	raw, gen, bug, liar, stale := rows[0], rows[1], rows[2], rows[3], rows[4]

	if got := Read(t, dir, Entry{File: "bug.out"}); !bytes.Equal(got, cbug) {
		t.Error("Read returned other bytes than the file's")
	}
	if msg := fails(t, func(tb testing.TB) { Read(tb, dir, raw) }); !strings.Contains(msg, "raw.b2chunk") {
		t.Errorf("Read of a listed but missing file: %q", msg)
	}
	if got := Expected(t, dir, raw); !bytes.Equal(got, in) {
		t.Error("Expected(raw row) is not the stored input")
	}
	if got := Expected(t, dir, gen); !bytes.Equal(got, in) {
		t.Error("Expected(row without raw file) is not the regenerated input")
	}
	if got := Expected(t, dir, bug); !bytes.Equal(got, cbug) {
		t.Error("Expected(C-bug row) is not its .out file")
	}
	if msg := fails(t, func(tb testing.TB) { Expected(tb, dir, stale) }); !strings.Contains(msg, "out_sha256") {
		t.Errorf("Expected accepted bytes with the wrong sha256: %q", msg)
	}

	if msg := fails(t, func(tb testing.TB) { CheckOutput(tb, dir, raw, in) }); msg != "" {
		t.Errorf("right output rejected: %s", msg)
	}
	if msg := fails(t, func(tb testing.TB) { CheckOutput(tb, dir, bug, cbug) }); msg != "" {
		t.Errorf("C's own output of a C-bug row rejected: %s", msg)
	}
	wrong := bytes.Clone(in)
	wrong[10] ^= 1
	if msg := fails(t, func(tb testing.TB) { CheckOutput(tb, dir, raw, wrong) }); !strings.Contains(msg, "first difference at 10") {
		t.Errorf("wrong output: %q", msg)
	}
	// Matching C's tail is required too: the Go decoder reproduces it.
	if msg := fails(t, func(tb testing.TB) { CheckOutput(tb, dir, bug, in) }); msg == "" {
		t.Error("C-bug row accepted an output without C's tail")
	}
	if msg := fails(t, func(tb testing.TB) { CheckOutput(tb, dir, liar, badPrefix) }); !strings.Contains(msg, "differ from the input at 3") {
		t.Errorf("C-bug row whose leading bytes are not the input's: %q", msg)
	}
}

func TestLookupErrors(t *testing.T) {
	t.Setenv(EnvDir, t.TempDir())
	if _, _, err := Lookup(); !errors.Is(err, ErrNotFound) {
		t.Errorf("no manifest: %v, want ErrNotFound", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte("header\nonly\tthree\tcolumns\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvDir, dir)
	if _, _, err := Lookup(); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("unreadable manifest: %v, want an error other than ErrNotFound", err)
	}
}

// TestRealWorldPatterns pins the RealWorld generators (a change would
// silently change every benchmark figure made from them) and checks the
// shape each one promises.
func TestRealWorldPatterns(t *testing.T) {
	want := map[string]string{
		"sensor_f32":     "2a96b6306e9e892b030a07c1c1b31413ac64deaf5439a8c41a20879880f8815a",
		"sensor_f64":     "40d6044c5e7fea694665640a9159f58dddb133c8253ae0c54d57438b8a87dfe4",
		"timestamps_i64": "77bb6288f0ca03ed214a87e2c1cb39a88931dc5379be5a2476b10fd800dd7135",
		"sparse_f64":     "0c58cf8265a4a8540c542ceeb28e9074a14b9bb2d4e6e56b49e6e52e91345b38",
		"mixed_rec13":    "eaf2fbd699b26db05ca647c79e0dfd1f6b7987b26e88b839c7468d44999d6f22",
	}
	for _, name := range RealWorld {
		ts := RealWorldTypesize[name]
		if ts == 0 || want[name] == "" {
			t.Fatalf("%s: no typesize or no pinned hash", name)
		}
		b, err := Pattern(name, 100000)
		if err != nil || len(b) != 100000 {
			t.Fatalf("%s: %d bytes, %v", name, len(b), err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want[name] {
			t.Errorf("%s: sha256 %s, want %s", name, got, want[name])
		}
		// A shorter pattern is a prefix of a longer one.
		if short, _ := Pattern(name, 777); !bytes.Equal(short, b[:777]) {
			t.Errorf("%s: 777 bytes are not a prefix of 100000", name)
		}
		n := len(b) / ts
		switch name {
		case "sensor_f32":
			for i := 0; i < n; i++ {
				if v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])); v < -10 || v > 40 || v*128 != float32(int(v*128)) {
					t.Fatalf("%s[%d] = %v: outside -10..40 or off the 1/128 grid", name, i, v)
				}
			}
		case "sensor_f64":
			for i := 0; i < n; i++ {
				if v := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])); v < -10 || v > 40 || v*1024 != float64(int(v*1024)) {
					t.Fatalf("%s[%d] = %v: outside -10..40 or off the 1/1024 grid", name, i, v)
				}
			}
		case "timestamps_i64":
			for i := 1; i < n; i++ {
				d := int64(binary.LittleEndian.Uint64(b[8*i:]) - binary.LittleEndian.Uint64(b[8*i-8:]))
				if d <= 900_000 || d >= 1_100_000 {
					t.Fatalf("%s: step %d of %d ns", name, i, d)
				}
			}
		case "sparse_f64":
			nz := 0
			for i := 0; i < n; i++ {
				if binary.LittleEndian.Uint64(b[8*i:]) != 0 {
					nz++
				}
			}
			if nz == 0 || nz > n/20 {
				t.Fatalf("%s: %d of %d elements non-zero", name, nz, n)
			}
		case "mixed_rec13":
			for i := 0; i < n; i++ {
				r := b[13*i:]
				if id := binary.LittleEndian.Uint32(r); id != uint32(1000+i) {
					t.Fatalf("%s: record %d has id %d", name, i, id)
				}
				if f := r[12]; f&(f-1) != 0 {
					t.Fatalf("%s: record %d has flags %#x, more than one bit", name, i, f)
				}
			}
		}
	}
}
