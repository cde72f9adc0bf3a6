package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// sample is one operation's figure in one round.
type sample struct {
	Name     string  `json:"name"` // the benchmark line's name, without "Benchmark"
	Format   string  `json:"format"`
	Dataset  string  `json:"dataset"`
	Typesize int     `json:"typesize"`
	Bytes    int     `json:"bytes"`
	Codec    string  `json:"codec"`
	Filter   string  `json:"filter"`
	Clevel   int     `json:"clevel"`
	Threads  int     `json:"threads"`
	Op       string  `json:"op"` // compress, decompress
	Engine   string  `json:"engine"`
	Round    int     `json:"round"`
	Iters    int     `json:"iters"`
	NsPerOp  float64 `json:"ns_per_op"`
	MBps     float64 `json:"mb_per_s"`
	// XMemcpy is the speed over a memcpy of the same bytes timed in the
	// same round.
	XMemcpy float64 `json:"x_memcpy"`
	Ratio   float64 `json:"ratio"` // compression ratio
}

type kernelSample struct {
	Name     string  `json:"name"`
	Family   string  `json:"family"` // shuffle, bitshuffle, memcpy
	Kernel   string  `json:"kernel"`
	Typesize int     `json:"typesize"`
	Bytes    int     `json:"bytes"`  // transformed (C bit-shuffles whole groups of 8 elements only)
	Buffer   int     `json:"buffer"` // the buffer's size
	Op       string  `json:"op"`     // shuffle, unshuffle, copy
	Round    int     `json:"round"`
	Iters    int     `json:"iters"`
	NsPerOp  float64 `json:"ns_per_op"`
	MBps     float64 `json:"mb_per_s"`
	XMemcpy  float64 `json:"x_memcpy"`
}

type results struct {
	Machine machine         `json:"machine"`
	Suite   string          `json:"suite"`
	Started time.Time       `json:"started"`
	Seconds float64         `json:"seconds"`
	Samples []sample        `json:"samples"`
	Memcpy  []sample        `json:"memcpy"`
	Kernels []kernelSample  `json:"kernels"`
	Service []serviceResult `json:"service"`
}

// runner times a suite and prints each figure as it comes.
type runner struct {
	results
	out   io.Writer      // the Go benchmark format
	log   io.Writer      // progress and notes
	match *regexp.Regexp // -match, or nil
	procs int            // GOMAXPROCS, the names' suffix
}

// wanted reports whether -match selects a benchmark name.
func (r *runner) wanted(name string) bool { return r.match == nil || r.match.MatchString(name) }

// line prints one result in the Go benchmark format: the name, the
// iteration count, then value-unit pairs.
func (r *runner) line(name string, iters int, values ...any) {
	var b strings.Builder
	fmt.Fprintf(&b, "Benchmark%s-%d\t%d", name, r.procs, iters)
	for i := 0; i+1 < len(values); i += 2 {
		fmt.Fprintf(&b, "\t%.6g %s", values[i], values[i+1])
	}
	fmt.Fprintln(r.out, b.String())
}

// header prints the configuration lines benchstat keeps with the results.
func (r *runner) header() {
	m := r.Machine
	fmt.Fprintf(r.out, "goos: %s\ngoarch: %s\npkg: github.com/goblosc/blosc/bench\ncpu: %s\n", m.GOOS, m.GOARCH, m.CPU)
	fmt.Fprintf(r.out, "kernel: %s\ngo: %s\nsuite: %s\n", m.Kernel, m.Go, r.Suite)
	if len(m.Peers) > 0 {
		fmt.Fprintf(r.out, "peers: %s\n", strings.Join(m.Peers, ","))
	}
}

func runSuite(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("suite", "quick", "quick or full")
	out := fs.String("o", "bench-results", "directory for bench.txt, bench.json, report.html and results.md")
	match := fs.String("match", "", "time only the benchmarks whose names match this regular expression")
	rounds := fs.Int("rounds", 0, "samples per figure (default: the suite's)")
	var ov overrides
	fs.StringVar(&ov.formats, "formats", "", "comma-separated chunk formats, chunk1 and/or chunk2 (default: the suite's)")
	fs.StringVar(&ov.datasets, "datasets", "", "comma-separated datasets, name or name:typesize (default: the suite's)")
	fs.StringVar(&ov.codecs, "codecs", "", "comma-separated codecs (default: the suite's)")
	fs.StringVar(&ov.filters, "filters", "", "comma-separated filters: noshuffle, shuffle, bitshuffle (default: the suite's)")
	fs.StringVar(&ov.levels, "levels", "", "comma-separated compression levels (default: the suite's)")
	fs.StringVar(&ov.sizes, "sizes", "", "comma-separated input sizes, e.g. 4KiB,1MiB (default: the suite's)")
	fs.StringVar(&ov.threads, "threads", "", "comma-separated thread counts (default: the suite's)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 0 {
		return usagef("run takes no arguments")
	}
	s, ok := suites()[*name]
	if !ok {
		return usagef("-suite %q: want quick or full", *name)
	}
	if *rounds > 0 {
		s.rounds = *rounds
	}
	if err := ov.apply(&s); err != nil {
		return err
	}
	var txt bytes.Buffer
	r := &runner{results: results{Machine: describeMachine(), Suite: s.name, Started: time.Now()},
		out: io.MultiWriter(stdout, &txt), log: stderr, procs: runtime.GOMAXPROCS(0)}
	if *match != "" {
		re, err := regexp.Compile(*match)
		if err != nil {
			return usagef("-match: %v", err)
		}
		r.match = re
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	r.header()
	p := &pass{rounds: s.rounds}
	if err := r.chunks(s, p); err != nil {
		return err
	}
	if err := r.kernels(s, p); err != nil {
		return err
	}
	if err := p.flush(); err != nil {
		return err
	}
	if err := r.service(s); err != nil {
		return err
	}
	r.Seconds = time.Since(r.Started).Seconds()
	fmt.Fprintf(stderr, "suite %s: %.1fs\n", s.name, r.Seconds)
	if err := os.WriteFile(filepath.Join(*out, "bench.txt"), txt.Bytes(), 0o644); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r.results, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "bench.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	html, err := renderReport(&r.results)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "report.html"), html, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "results.md"), renderResults(&r.results), 0o644); err != nil {
		return err
	}
	var wrote []string
	for _, f := range []string{"bench.txt", "bench.json", "report.html", "results.md"} {
		wrote = append(wrote, filepath.Join(*out, f))
	}
	fmt.Fprintf(stderr, "wrote %s\n", strings.Join(wrote, ", "))
	return nil
}
