// Package golden finds the golden vectors made by the C libraries
// (../shared/testdata beside the repository root), reads their manifest and
// regenerates the inputs that the vectors' PATTERNS.md defines (summarised
// in the repository's docs/benchmarks.md#datasets).
package golden

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
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

// Names of the patterns a benchmark or test can generate at any size:
// PATTERNS.md's (RealWorld lists more).
var Names = []string{"zeros", "arange_i8", "arange_i16", "arange_i32", "arange_i64",
	"linspace_f64", "rand_s1", "f32_noise", "text", "runs", "rec12"}

// RealWorld names the patterns that look like data people store, beside
// PATTERNS.md's smooth and random ones: noisy sensor series, jittered
// timestamps, sparse arrays and records of mixed fields. They are this
// module's own (no C-made vector uses them); their generators are
// deterministic, so every run and every machine compresses the same bytes.
var RealWorld = []string{"sensor_f32", "sensor_f64", "timestamps_i64", "sparse_f64", "mixed_rec13"}

// RealWorldTypesize is the element (record) size of each RealWorld pattern.
var RealWorldTypesize = map[string]int{"sensor_f32": 4, "sensor_f64": 8, "timestamps_i64": 8, "sparse_f64": 8, "mixed_rec13": 13}

type splitmix struct{ s uint64 }

func (m *splitmix) next() uint64 {
	m.s += 0x9E3779B97F4A7C15
	z := m.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

var words = strings.Fields("the quick brown fox jumps over lazy dog blosc chunk frame shuffle bitshuffle compress data block lorem ipsum dolor sit amet consectetur adipiscing elit alpha beta gamma delta epsilon zeta eta theta")

// bell returns a bell-shaped random integer with mean 0 and standard
// deviation about 148 (the sum of four random bytes, less its mean).
func (m *splitmix) bell() int64 {
	r := m.next()
	return int64(r&255+r>>8&255+r>>16&255+r>>24&255) - 510
}

// wave is a sine-like wave of the given period (in samples) and
// amplitude: two parabolic arches of opposite signs.
func wave(i, period int, amp int64) int64 {
	h := int64(period / 2)
	x := int64(i % period)
	sign := int64(1)
	if x >= h {
		x, sign = x-h, -1
	}
	return sign * amp * 4 * x * (h - x) / (h * h)
}

// temperature is the sensor patterns' series: one reading a minute, a
// daily cycle of +-6 degrees around 15, a yearly one of +-9, a slow random
// walk (weather) and reading noise of 0.05 degrees, kept at the sensor's
// resolution of 2^-bits degrees. It counts in 1024ths of a degree with
// integers, so that its floats are exact and the same on every platform
// (no libm calls, no fused multiply-adds).
type temperature struct {
	m    splitmix
	walk int64
	bits uint
}

func (t *temperature) at(i int) float64 {
	const day, unit = 24 * 60, 1024
	t.walk += t.m.bell() / 74
	v := 15*unit + wave(i, day, 6*unit) + wave(i, 365*day, 9*unit) + t.walk + t.m.bell()*51/148
	q := int64(1) << (10 - t.bits)
	v = (v + q/2) &^ (q - 1)
	return float64(v) / unit
}

// Pattern returns pattern(name, n) exactly as the vectors' PATTERNS.md
// defines it.
func Pattern(name string, n int) ([]byte, error) {
	out := make([]byte, 0, n+16)
	elems := func(es int, f func(i int) uint64) []byte {
		var buf [8]byte
		for i := 0; len(out) < n; i++ {
			v := f(i)
			for k := 0; k < es; k++ {
				buf[k] = byte(v >> (8 * k))
			}
			out = append(out, buf[:es]...)
		}
		return out[:n]
	}
	switch {
	case name == "zeros":
		return make([]byte, n), nil
	case strings.HasPrefix(name, "rep_"):
		v, err := strconv.ParseUint(name[4:], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", name, err)
		}
		for i := 0; i < n; i++ {
			out = append(out, byte(v))
		}
		return out, nil
	case name == "arange_i8":
		return elems(1, func(i int) uint64 { return uint64(i) }), nil
	case name == "arange_i16":
		return elems(2, func(i int) uint64 { return uint64(uint16(i)) }), nil
	case name == "arange_i32":
		return elems(4, func(i int) uint64 { return uint64(uint32(i)) }), nil
	case name == "arange_i64":
		return elems(8, func(i int) uint64 { return uint64(i) }), nil
	case name == "linspace_f64":
		cnt := (n + 7) / 8
		den := 1
		if cnt > 1 {
			den = cnt - 1
		}
		return elems(8, func(i int) uint64 {
			return math.Float64bits((float64(i) * 100.0) / float64(den))
		}), nil
	case strings.HasPrefix(name, "rand_s"):
		seed, err := strconv.ParseUint(name[6:], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", name, err)
		}
		m := splitmix{seed}
		return elems(8, func(int) uint64 { return m.next() }), nil
	case name == "f32_noise":
		m := splitmix{7}
		return elems(4, func(i int) uint64 {
			r := m.next()
			v := float32(i%1000)*0.5 + float32(r&255)/256.0
			return uint64(math.Float32bits(v))
		}), nil
	case name == "text":
		m := splitmix{99}
		for len(out) < n {
			r := m.next()
			out = append(out, words[r%32]...)
			if (r>>32)%10 == 0 {
				out = append(out, '\n')
			} else {
				out = append(out, ' ')
			}
		}
		return out[:n], nil
	case name == "runs":
		a32, _ := Pattern("arange_i32", n)
		r5, _ := Pattern("rand_s5", n)
		for k := 0; k < n; k++ {
			switch (k / 4096) % 4 {
			case 0:
				out = append(out, 0)
			case 1:
				out = append(out, 0x77)
			case 2:
				out = append(out, a32[k])
			default:
				out = append(out, r5[k])
			}
		}
		return out, nil
	case name == "sensor_f32":
		t := temperature{m: splitmix{11}, bits: 7}
		return elems(4, func(i int) uint64 { return uint64(math.Float32bits(float32(t.at(i)))) }), nil
	case name == "sensor_f64":
		t := temperature{m: splitmix{12}, bits: 10}
		return elems(8, func(i int) uint64 { return math.Float64bits(t.at(i)) }), nil
	case name == "timestamps_i64":
		// Nanoseconds since the epoch of events about a millisecond apart,
		// each late by up to 50 us of scheduling jitter, still in order.
		m := splitmix{13}
		const start, period uint64 = 1_700_000_000_000_000_000, 1_000_000
		return elems(8, func(i int) uint64 { return start + uint64(i)*period + m.next()%50_000 }), nil
	case name == "sparse_f64":
		// Zeros but for about one element in 50, which holds a reading.
		m := splitmix{14}
		return elems(8, func(int) uint64 {
			r := m.next()
			if r%50 != 0 {
				return 0
			}
			return math.Float64bits(float64(r>>44) / 16)
		}), nil
	case name == "mixed_rec13":
		// Packed little-endian records {id int32; value float64; flags
		// uint8}: increasing ids, a sensor reading, flags mostly clear.
		m := splitmix{15}
		t := temperature{m: splitmix{16}, bits: 8}
		var rec [13]byte
		for i := 0; len(out) < n; i++ {
			binary.LittleEndian.PutUint32(rec[0:], uint32(1000+i))
			binary.LittleEndian.PutUint64(rec[4:], math.Float64bits(t.at(i)))
			rec[12] = 0
			if r := m.next(); r%16 == 0 {
				rec[12] = byte(1 << (r >> 60 & 7))
			}
			out = append(out, rec[:]...)
		}
		return out[:n], nil
	case strings.HasPrefix(name, "rec"):
		rl, err := strconv.Atoi(name[3:])
		if err != nil || rl <= 0 {
			return nil, fmt.Errorf("pattern %q: bad record length", name)
		}
		for k := 0; k < n; k++ {
			out = append(out, byte(((k/rl)*((k%rl)+1))>>3))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown pattern %q", name)
}

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
