// Package frametest holds what the root package's frame tests and bench's
// comparisons of frames with c-blosc2 share and that needs nothing of the
// root package (whose own tests, in package blosc, could not import a
// helper that does): the benchmark sizes and datasets, the best-of timer
// and a copy of a sparse frame's directory.
package frametest

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchBytes is the input size of the frame benchmarks: 256 MiB as the
// performance target states it, or GOBLOSC_FRAME_BENCH_MB.
func BenchBytes(b *testing.B) int {
	if s := os.Getenv("GOBLOSC_FRAME_BENCH_MB"); s != "" {
		mb, err := strconv.Atoi(s)
		if err != nil || mb <= 0 {
			b.Fatalf("GOBLOSC_FRAME_BENCH_MB=%q", s)
		}
		return mb << 20
	}
	return 256 << 20
}

// BenchSets are the datasets of the frame benchmarks.
var BenchSets = []struct {
	Pattern  string
	Typesize int
}{{"f32_noise", 4}, {"linspace_f64", 8}}

// Best keeps the shortest of repeated timings.
type Best time.Duration

// Time runs f, keeps its time if it is the shortest yet and returns f's
// error.
func (b *Best) Time(f func() error) error {
	t0 := time.Now()
	err := f()
	if d := time.Since(t0); *b == 0 || d < time.Duration(*b) {
		*b = Best(d)
	}
	return err
}

// ReportSpeeds reports each named time as the GB/s of n bytes, in the
// unit name+"-GB/s".
func ReportSpeeds(b *testing.B, n int, times map[string]Best) {
	for name, d := range times {
		b.ReportMetric(float64(n)/time.Duration(d).Seconds()/1e9, name+"-GB/s")
	}
}

// ReportRatios reports, for each named pair {a, b} of times, a/b: how
// many times faster the second ran.
func ReportRatios(b *testing.B, ratios map[string][2]Best) {
	for name, r := range ratios {
		b.ReportMetric(float64(r[0])/float64(r[1]), name)
	}
}

// CopyDir copies a sparse frame directory.
func CopyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Mkdir(to, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(from)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// PipeFrom returns the read end of a pipe that a goroutine fills with in
// and then closes; the caller closes the read end.
func PipeFrom(in []byte) (*os.File, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	go func() {
		pw.Write(in)
		pw.Close()
	}()
	return pr, nil
}

// PipeInto runs f with the write end of a pipe that a goroutine drains,
// closes the write end after f, and returns f's error and how many bytes
// came through.
func PipeInto(f func(w *os.File) error) (int64, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	got := make(chan int64, 1)
	go func() {
		k, _ := io.Copy(io.Discard, pr)
		pr.Close()
		got <- k
	}()
	err = f(pw)
	pw.Close()
	return <-got, err
}
