package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"golang.org/x/perf/benchfmt"
)

// A run of one configuration of each section writes a benchmark file that
// benchfmt reads without a syntax error, a JSON file with the machine and
// every sample, an HTML report with its charts inline and the markdown
// summary. Figures are
// not checked: timing never decides a test.
func TestRunWritesOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("times a few configurations")
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"run", "-suite", "quick", "-rounds", "2", "-o", dir,
		"-match", "^(Blosc/.*/ds=text/n=4KiB/codec=lz4/|Kernel/family=(bit)?shuffle/ts=4/|Service/engine=[^/]*/goroutines=2/n=4KiB)"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	txt, err := os.ReadFile(filepath.Join(dir, "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(txt, out.Bytes()) {
		t.Error("bench.txt differs from what was printed")
	}
	units := map[string]bool{}
	rd := benchfmt.NewReader(bytes.NewReader(txt), "bench.txt")
	for rd.Scan() {
		switch r := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", r)
		case *benchfmt.Result:
			for _, v := range r.Values {
				units[v.Unit] = true
			}
		}
	}
	// benchfmt tidies ns to sec.
	for _, u := range []string{"sec/op", "B/s", "x-memcpy", "ratio", "p99-sec", "p99.9-sec", "allocs/op"} {
		if !units[u] {
			t.Errorf("no %s values in bench.txt (units: %v)", u, units)
		}
	}
	var res results
	js, err := os.ReadFile(filepath.Join(dir, "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatal(err)
	}
	if res.Machine.Kernel == "" || res.Machine.Go == "" || res.Machine.GOMAXPROCS < 1 || len(res.Machine.Features) == 0 && res.Machine.GOARCH == "amd64" {
		t.Errorf("machine incomplete: %+v", res.Machine)
	}
	// 2 rounds of compress and decompress per engine.
	if n := len(res.Samples); n == 0 || n%4 != 0 || len(res.Memcpy) != 2 {
		t.Errorf("%d samples, %d memcpy samples", n, len(res.Memcpy))
	}
	if len(res.Kernels) == 0 || len(res.Service) == 0 {
		t.Errorf("%d kernel samples, %d service rows", len(res.Kernels), len(res.Service))
	}
	for _, s := range res.Service {
		if s.Calls == 0 || s.P50Ns > s.P99Ns || s.P99Ns > s.P999Ns {
			t.Errorf("implausible service row %+v", s)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), "<svg"); n < 4 || strings.Contains(string(html), "<script") {
		t.Errorf("report.html has %d inline SVG charts (want speed/ratio and kernel charts) or a script", n)
	}
	md, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Machine: ", "Format chunk1", "| ratio | compress x memcpy |", "Kernels, x memcpy"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"run", "-suite", "huge"}, {"run", "extra"}, {"run", "-match", "("}, {"run", "-codecs", "lzma"}, {"run", "-sizes", "0"}, {"run", "-formats", "chunk3"}, {"run", "-levels", "10"}, {"run", "-datasets", "nope"}, {"nope"}, {}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// The real-world datasets are in the full suite and selectable by name,
// with their record sizes as typesizes, and the quick suite (CI's) does
// not time them.
func TestRealWorldDatasets(t *testing.T) {
	full := suites()["full"]
	var ov overrides
	ov.datasets = strings.Join(golden.RealWorld, ",")
	s := suites()["quick"]
	if err := ov.apply(&s); err != nil {
		t.Fatal(err)
	}
	for i, name := range golden.RealWorld {
		want := dataset{name, golden.RealWorldTypesize[name]}
		if s.datasets[i] != want {
			t.Errorf("-datasets %s gave %+v, want %+v", name, s.datasets[i], want)
		}
		if !slices.Contains(full.datasets, want) {
			t.Errorf("full suite lacks %+v", want)
		}
		if slices.Contains(suites()["quick"].datasets, want) {
			t.Errorf("quick suite times %s", name)
		}
	}
}
