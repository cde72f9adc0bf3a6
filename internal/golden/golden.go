// Package golden finds the golden vectors made by the C libraries
// (../shared/testdata beside the repository root), reads their manifest and
// regenerates the inputs that PATTERNS.md defines.
package golden

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
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

// Names of the patterns a benchmark or test can generate at any size.
var Names = []string{"zeros", "arange_i8", "arange_i16", "arange_i32", "arange_i64",
	"linspace_f64", "rand_s1", "f32_noise", "text", "runs", "rec12"}

type splitmix struct{ s uint64 }

func (m *splitmix) next() uint64 {
	m.s += 0x9E3779B97F4A7C15
	z := m.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

var words = strings.Fields("the quick brown fox jumps over lazy dog blosc chunk frame shuffle bitshuffle compress data block lorem ipsum dolor sit amet consectetur adipiscing elit alpha beta gamma delta epsilon zeta eta theta")

// Pattern returns pattern(name, n) exactly as PATTERNS.md defines it.
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
