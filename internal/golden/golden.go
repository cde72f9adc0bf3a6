// Package golden finds the golden vectors made by the C libraries
// (../shared/testdata beside the repository root), reads their manifest and
// regenerates the inputs that the vectors' PATTERNS.md defines (summarised
// in the repository's docs/benchmarks.md#datasets).
package golden

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/datasets"
)

// EnvDir names the environment variable that overrides the location of the
// golden vectors.
const EnvDir = "GOBLOSC_TESTDATA"

// Dir returns the golden-vector directory. Outside CI a missing directory
// skips the test with a message saying so; in CI (CI set) it fails the test,
// because there the vectors are always present.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := Locate()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("golden vectors are required in CI: %v", err)
		}
		tb.Skipf("SKIPPED: golden vectors not found (%v); set %s or place shared/testdata beside the repository", err, EnvDir)
	}
	return dir
}

// Locate finds the golden-vector directory without a testing.TB.
func Locate() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if st, err := os.Stat(filepath.Join(d, "MANIFEST.tsv")); err == nil && !st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("%s=%s has no MANIFEST.tsv", EnvDir, d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	// Walk up to the main module's root, then look beside it.
	for d := wd; ; {
		if isMainModule(filepath.Join(d, "go.mod")) {
			cand := filepath.Join(filepath.Dir(d), "shared", "testdata")
			if _, err := os.Stat(filepath.Join(cand, "MANIFEST.tsv")); err == nil {
				return cand, nil
			}
			return "", fmt.Errorf("no %s", cand)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("module root of github.com/goblosc/blosc not found above %s", wd)
		}
		d = parent
	}
}

func isMainModule(gomod string) bool {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(first) == "module github.com/goblosc/blosc"
}

// Entry is one row of MANIFEST.tsv.
type Entry struct {
	File      string // path relative to the testdata directory
	Kind      string
	Codec     string
	Clevel    int
	Filters   string
	Typesize  int
	Nbytes    int64
	Blocksize int64
	Pattern   string
	Producer  string
	Cbytes    int64
	SplitMode string
	Raw       string
	RawSHA256 string
	OutSHA256 string
	Notes     string
}

// Manifest reads MANIFEST.tsv from dir.
func Manifest(dir string) ([]Entry, error) {
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out []Entry
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 16 {
			return nil, fmt.Errorf("MANIFEST.tsv:%d: %d columns, want 16", line, len(c))
		}
		e := Entry{File: c[0], Kind: c[1], Codec: c[2], Filters: c[4], Pattern: c[8],
			Producer: c[9], SplitMode: c[11], Raw: c[12], RawSHA256: c[13], OutSHA256: c[14], Notes: c[15]}
		e.Clevel, _ = strconv.Atoi(c[3])
		e.Typesize, _ = strconv.Atoi(c[5])
		e.Nbytes, _ = strconv.ParseInt(c[6], 10, 64)
		e.Blocksize, _ = strconv.ParseInt(c[7], 10, 64)
		e.Cbytes, _ = strconv.ParseInt(c[10], 10, 64)
		out = append(out, e)
	}
	return out, sc.Err()
}

// Filter returns the entries whose File starts with prefix (e.g. "blosc1/").
func Filter(es []Entry, prefix string) []Entry {
	var out []Entry
	for _, e := range es {
		if strings.HasPrefix(e.File, prefix) {
			out = append(out, e)
		}
	}
	return out
}

// Names, RealWorld, RealWorldTypesize and Bench are package datasets'
// lists; Only is its filter of Bench.
var (
	Bench             = datasets.Bench
	Only              = datasets.Only
	Names             = datasets.Names
	RealWorld         = datasets.RealWorld
	RealWorldTypesize = datasets.RealWorldTypesize
)

// Pattern returns pattern(name, n): package datasets' Pattern.
func Pattern(name string, n int) ([]byte, error) { return datasets.Pattern(name, n) }

// ErrNotFound is wrapped by Lookup's error when there are no vectors to
// read, as opposed to vectors that cannot be read.
var ErrNotFound = errors.New("golden vectors not found")

// Lookup returns the directory and the manifest rows of the given kinds
// (every row when no kind is named), for callers without a testing.TB such
// as fuzz seeders, which must still run (unseeded) where the vectors are
// absent but should not hide a manifest they cannot read.
func Lookup(kinds ...string) (string, []Entry, error) {
	dir, err := Locate()
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	all, err := Manifest(dir)
	if err != nil {
		return "", nil, err
	}
	if len(kinds) == 0 {
		return dir, all, nil
	}
	var out []Entry
	for _, e := range all {
		if slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	return dir, out, nil
}

// Rows returns the directory and the manifest rows of the given kinds. It
// skips or fails as Dir does when the vectors are absent, and fails when
// no row matches: a test that silently covered nothing would pass.
func Rows(tb testing.TB, kinds ...string) (string, []Entry) {
	tb.Helper()
	dir := Dir(tb)
	all, err := Manifest(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []Entry
	for _, e := range all {
		if len(kinds) == 0 || slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no manifest rows of kind %s", strings.Join(kinds, ", "))
	}
	return dir, out
}

// Note returns key's value in the notes column (key=value;key=value).
func (e Entry) Note(key string) (string, bool) {
	for _, kv := range strings.Split(e.Notes, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// CBugPrefix reports, for a row whose notes record a C bug that leaves the
// tail of the output undefined (compare_only_first_N_bytes), how many
// leading bytes C decoded correctly.
func (e Entry) CBugPrefix() (n int, ok bool, err error) {
	for _, f := range strings.Split(e.Notes, ";") {
		v, found := strings.CutPrefix(f, "compare_only_first_")
		if !found {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(v, "_bytes"))
		if err != nil || n < 0 || int64(n) > e.Nbytes {
			return 0, false, fmt.Errorf("%s: bad notes field %q", e.File, f)
		}
		return n, true, nil
	}
	return 0, false, nil
}

// SHA256 returns b's SHA-256 in lower-case hex, as the manifest spells it.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Expected returns what C decoded the row to: the .out file beside it when
// there is one (lossy filters, C bugs), else the raw input, read when
// stored and regenerated otherwise. It fails the test unless those bytes
// have the row's out_sha256, so a stale or misnamed file cannot vouch for
// a wrong decoder.
func Expected(tb testing.TB, dir string, e Entry) []byte {
	tb.Helper()
	want, err := expected(dir, e)
	if err != nil {
		tb.Fatal(err)
	}
	return want
}

func expected(dir string, e Entry) ([]byte, error) {
	want, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, filepath.Ext(e.File))+".out"))
	if errors.Is(err, fs.ErrNotExist) {
		if e.Raw != "" && e.Raw != "-" {
			want, err = os.ReadFile(filepath.Join(dir, e.Raw))
		}
		if e.Raw == "" || e.Raw == "-" || errors.Is(err, fs.ErrNotExist) {
			want, err = Pattern(e.Pattern, int(e.Nbytes))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: expected output: %v", e.File, err)
	}
	if got := SHA256(want); got != e.OutSHA256 {
		return nil, fmt.Errorf("%s: expected output has sha256 %s, manifest out_sha256 %s", e.File, got, e.OutSHA256)
	}
	return want, nil
}

// CheckOutput fails the test unless out is what C decoded the row to:
// out_sha256 always (the Go decoder reproduces even C's undefined tails),
// and for a C-bug row also its length and the leading bytes C got right,
// which must equal both the .out file's and the original input's.
func CheckOutput(tb testing.TB, dir string, e Entry, out []byte) {
	tb.Helper()
	if got := SHA256(out); got != e.OutSHA256 {
		want, err := expected(dir, e)
		if err != nil {
			tb.Fatalf("%s: output sha256 %s, want %s (%d bytes; no bytes to compare: %v)", e.File, got, e.OutSHA256, len(out), err)
		}
		tb.Fatalf("%s: output sha256 %s, want %s; %d bytes, want %d, first difference at %d",
			e.File, got, e.OutSHA256, len(out), len(want), FirstDiff(out, want))
	}
	n, ok, err := e.CBugPrefix()
	if err != nil {
		tb.Fatal(err)
	}
	if !ok {
		return
	}
	if int64(len(out)) != e.Nbytes {
		tb.Fatalf("%s: %d bytes, want %d", e.File, len(out), e.Nbytes)
	}
	want := Expected(tb, dir, e)
	in, err := Pattern(e.Pattern, int(e.Nbytes))
	if err != nil {
		tb.Fatalf("%s: %v", e.File, err)
	}
	if i := FirstDiff(out[:n], want[:n]); i < n {
		tb.Fatalf("%s: first %d bytes differ from C's at %d", e.File, n, i)
	}
	if i := FirstDiff(out[:n], in[:n]); i < n {
		tb.Fatalf("%s: first %d bytes differ from the input at %d", e.File, n, i)
	}
}

// BenchInputs are the BenchSize-byte inputs of the chunk and BloscLZ
// benchmarks (the root's, blosclz's and bench's against C), with the
// element sizes they are shuffled with.
var BenchInputs = []struct {
	Pattern  string
	Typesize int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}}

// BenchSize is the size of a BenchInputs input: 1 MiB.
const BenchSize = 1 << 20

// MustPattern is Pattern that fails tb on an unknown name.
func MustPattern(tb testing.TB, name string, n int) []byte {
	tb.Helper()
	b, err := Pattern(name, n)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// SeedChunks adds the golden and corrupted Blosc1 and Blosc2 chunks (up to
// a size the fuzzer handles well) to the corpus of a target that takes a
// chunk and a GetItem range.
func SeedChunks(f *testing.F) {
	dir, rows, err := Lookup("blosc1-chunk", "corrupt-blosc1", "corrupt-blosc2", "blosc2-chunk", "blosc2-special-chunk", "blosc2-vlblocks-chunk")
	if errors.Is(err, ErrNotFound) {
		return // no vectors here: the fuzzer runs from its own seeds
	} else if err != nil {
		f.Fatal(err)
	}
	for i, e := range rows {
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 16<<10 {
			f.Add(b, uint32(i), 1<<31-uint32(i))
		}
	}
}

// ChunkDiff describes how two chunks differ: their lengths and the bytes
// around the first difference.
func ChunkDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			lo := max(0, i-8)
			return fmt.Sprintf("lengths %d/%d, first difference at %d: % x vs % x", len(a), len(b), i, a[lo:min(n, i+8)], b[lo:min(n, i+8)])
		}
	}
	return fmt.Sprintf("lengths %d/%d, equal prefix", len(a), len(b))
}

// Shuffled is Blosc's byte shuffle written straight from its definition:
// src with its bytes grouped by position in a ts-byte element, the bytes
// past the last whole element left in place. It is the oracle of the
// shuffle kernels and makes the shuffled inputs of the codecs' tests.
func Shuffled(src []byte, ts int) []byte {
	out := make([]byte, len(src))
	n := len(src) / ts
	for i := 0; i < n; i++ {
		for j := 0; j < ts; j++ {
			out[j*n+i] = src[i*ts+j]
		}
	}
	copy(out[n*ts:], src[n*ts:])
	return out
}

// FirstDiff returns the first index where a and b differ, or the shorter
// length; the tests of every package report mismatches with it.
func FirstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Read returns the bytes of the row's file, failing the test if it cannot
// be read: a listed vector that is missing is a broken set, not a skip.
func Read(tb testing.TB, dir string, e Entry) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, e.File))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
