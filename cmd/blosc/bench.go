package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goblosc/blosc"
	patterns "github.com/goblosc/blosc/internal/datasets"
	"github.com/goblosc/blosc/internal/engines"
	"github.com/klauspost/cpuid/v2"
)

type benchRow struct {
	Dataset         string  `json:"dataset"`
	Bytes           int     `json:"bytes"`
	Engine          string  `json:"engine"`
	Format          string  `json:"format,omitempty"`
	Codec           string  `json:"codec"`
	Level           int     `json:"level"`
	Shuffle         string  `json:"shuffle"`
	Typesize        int     `json:"typesize"`
	Threads         int     `json:"threads"`
	CompressedBytes int     `json:"compressed_bytes"`
	Ratio           float64 `json:"ratio"`
	CompressGBps    float64 `json:"compress_gbps"`
	DecompressGBps  float64 `json:"decompress_gbps"`
}

type benchReport struct {
	CPU     string           `json:"cpu"`
	GOOS    string           `json:"goos"`
	GOARCH  string           `json:"goarch"`
	Go      string           `json:"go"`
	Kernel  string           `json:"kernel"`
	Rows    []benchRow       `json:"rows,omitempty"`
	Kernels []kernelBenchRow `json:"kernels,omitempty"`
}

func runBench(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("bench")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	kernels := fs.Bool("kernels", false, "benchmark the shuffle and bit-shuffle kernels instead of chunks")
	size := fs.Int("size", 1<<20, "bytes per dataset")
	ksizes := fs.String("sizes", kernelSizes, "with -kernels: comma-separated buffer sizes (bytes, KiB, MiB)")
	dsList := fs.String("datasets", "", "comma-separated datasets (default: all of "+datasetNames()+")")
	codecList := fs.String("codecs", "", "comma-separated codecs (default: every codec the format has; chunk2 has no snappy)")
	shuffleList := fs.String("shuffles", "none,byte,bit", "comma-separated shuffle modes")
	level := fs.Int("level", 5, "compression level")
	levelList := fs.String("levels", "", "comma-separated compression levels, each benchmarked in turn (default: -level)")
	threads := fs.Int("threads", 1, "threads per chunk (0: all cores)")
	format := fs.String("format", defaultFormat, "chunk format")
	budget := fs.Duration("time", 150*time.Millisecond, "time spent measuring each operation")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("bench takes no arguments")
	}
	if *size < 1 || *size > blosc.MaxBufferSize {
		return usagef("-size %d: want 1..%d", *size, blosc.MaxBufferSize)
	}
	if *budget <= 0 {
		return usagef("-time must be positive")
	}
	rep := benchReport{CPU: cpuid.CPU.BrandName, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Go: runtime.Version(), Kernel: blosc.Kernel()}
	if *kernels {
		sizes, err := parseSizes(*ksizes)
		if err != nil {
			return err
		}
		rows, err := benchKernels(sizes, *budget)
		if err != nil {
			return err
		}
		rep.Kernels = rows
		if *asJSON {
			return writeJSON(stdout, rep)
		}
		printKernelTable(stdout, rep)
		return nil
	}
	levels := []int{*level}
	if *levelList != "" {
		levels = levels[:0]
		for _, l := range splitList(*levelList) {
			v, err := strconv.Atoi(l)
			if err != nil || v < 0 || v > 9 {
				return usagef("-levels: %q is not a level 0..9", l)
			}
			levels = append(levels, v)
		}
	}
	var err error
	rep.Rows, err = benchChunks(*dsList, *codecList, *shuffleList, *format, *size, levels, *threads, *budget)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	printChunkTable(stdout, rep)
	return nil
}

func datasetNames() string {
	var n []string
	for _, d := range patterns.Bench {
		n = append(n, d.Name)
	}
	return strings.Join(n, ",")
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func benchChunks(dsList, codecList, shuffleList, format string, size int, levels []int, threads int, budget time.Duration) ([]benchRow, error) {
	wanted := map[string]bool{}
	for _, d := range splitList(dsList) {
		wanted[d] = true
	}
	if codecList == "" {
		codecList = "blosclz,lz4,lz4hc,zlib,zstd"
		if format == "chunk1" {
			codecList += ",snappy"
		}
	}
	var codecs []blosc.Codec
	for _, c := range splitList(codecList) {
		cc, err := blosc.ParseCodec(c)
		if err != nil {
			return nil, usagef("-codecs: unknown codec %q", c)
		}
		codecs = append(codecs, cc)
	}
	shuffles := splitList(shuffleList)
	for _, s := range shuffles {
		if _, err := parseShuffle(s); err != nil {
			return nil, err
		}
	}
	// The C libraries' rows are in the bench module (go run -tags cblosc
	// ./bench run), which keeps cgo out of this one.
	list := []engines.Engine{engines.Go}
	var rows []benchRow
	found := 0
	for _, ds := range patterns.Bench {
		if len(wanted) > 0 && !wanted[ds.Name] {
			continue
		}
		found++
		src, err := patterns.Pattern(ds.Name, size)
		if err != nil {
			return nil, err
		}
		rows = append(rows, memcpyRow(ds.Name, src, budget))
		for _, codec := range codecs {
			for _, level := range levels {
				for _, sh := range shuffles {
					o, err := buildOptions(format, codec.String(), level, ds.Typesize, sh, 0, threads)
					if err != nil {
						return nil, err
					}
					for _, e := range list {
						if !e.Supports(o) {
							continue
						}
						row, err := benchOne(e, ds.Name, src, o, sh, format, budget)
						if err != nil {
							return nil, fmt.Errorf("%s %s %s/%d/%s: %w", e.Name, ds.Name, codec, level, sh, err)
						}
						rows = append(rows, row)
					}
				}
			}
		}
	}
	if found == 0 {
		return nil, usagef("-datasets %q matches none of %s", dsList, datasetNames())
	}
	return rows, nil
}

func benchOne(e engines.Engine, name string, src []byte, o blosc.Options, sh, format string, budget time.Duration) (benchRow, error) {
	fns, err := e.Open(o)
	if err != nil {
		return benchRow{}, err
	}
	comp := make([]byte, 0, blosc.CompressBound(len(src)))
	out := make([]byte, 0, len(src))
	var c []byte
	cs := measure(budget, func() {
		if err == nil {
			c, err = fns.Compress(comp, src)
		}
	})
	if err != nil {
		return benchRow{}, err
	}
	var d []byte
	ds := measure(budget, func() {
		if err == nil {
			d, err = fns.Decompress(out, c)
		}
	})
	if err != nil {
		return benchRow{}, err
	}
	if !bytes.Equal(d, src) {
		return benchRow{}, fmt.Errorf("round trip lost data")
	}
	return benchRow{
		Dataset: name, Bytes: len(src), Engine: e.Name, Format: format, Codec: o.Codec.String(), Level: o.Level,
		Shuffle: sh, Typesize: o.Typesize, Threads: o.Threads, CompressedBytes: len(c),
		Ratio:        float64(len(src)) / float64(len(c)),
		CompressGBps: gbps(len(src), cs), DecompressGBps: gbps(len(src), ds),
	}, nil
}

func memcpyRow(name string, src []byte, budget time.Duration) benchRow {
	dst := make([]byte, len(src))
	t := measure(budget, func() { copy(dst, src) })
	return benchRow{Dataset: name, Bytes: len(src), Engine: "memcpy", Codec: "-", Shuffle: "-", Ratio: 1,
		CompressedBytes: len(src), CompressGBps: gbps(len(src), t), DecompressGBps: gbps(len(src), t)}
}

// measure returns the fastest per-call time of f over several rounds that
// together take about budget: the minimum is the figure least disturbed by
// other work on a shared machine.
func measure(budget time.Duration, f func()) time.Duration {
	f() // warm up caches, pools and lazily built codec state
	const rounds = 5
	per := budget / rounds
	best := time.Duration(1<<63 - 1)
	n := 1
	for r := 0; r < rounds; r++ {
		for {
			start := time.Now()
			for i := 0; i < n; i++ {
				f()
			}
			el := time.Since(start)
			if el >= per/4 || n >= 1<<30 {
				if d := el / time.Duration(n); d < best {
					best = d
				}
				break
			}
			n *= 2
		}
	}
	if best <= 0 {
		best = 1
	}
	return best
}

func gbps(n int, d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printChunkTable(w io.Writer, rep benchReport) {
	fmt.Fprintf(w, "cpu: %s  %s/%s  %s  kernel: %s\n", rep.CPU, rep.GOOS, rep.GOARCH, rep.Go, rep.Kernel)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "dataset\tbytes\tengine\tcodec\tlevel\tshuffle\tts\tthreads\tratio\tcomp GB/s\tdecomp GB/s\t"
	fmt.Fprintln(tw, head)
	for _, r := range rep.Rows {
		lvl, ts, th := fmt.Sprint(r.Level), fmt.Sprint(r.Typesize), fmt.Sprint(r.Threads)
		if r.Engine == "memcpy" {
			lvl, ts, th = "-", "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t", r.Dataset, r.Bytes, r.Engine, r.Codec,
			lvl, r.Shuffle, ts, th, r.Ratio, r.CompressGBps, r.DecompressGBps)
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
