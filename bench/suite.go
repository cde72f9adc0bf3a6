package main

import (
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

type dataset struct {
	name     string
	typesize int
}

// suite is one set of configurations: the product of its lists is timed.
type suite struct {
	name     string
	formats  []blosc.Format
	datasets []dataset
	codecs   []blosc.Codec
	filters  []string
	clevels  []int
	sizes    []int
	threads  []int
	// rounds is how many samples each figure gets; opTime how long each
	// operation runs within a round.
	rounds int
	opTime time.Duration

	kernelTypesizes []int
	kernelSizes     []int

	serviceGoroutines []int
	serviceSizes      []int
	serviceTime       time.Duration
}

// filters are the pipelines timed, by name: one shuffle or none, the
// pipelines both C libraries run.
var filters = map[string]blosc.Filter{"noshuffle": blosc.NoFilter, "shuffle": blosc.ByteShuffle, "bitshuffle": blosc.BitShuffle}

func suites() map[string]suite {
	allThreads := []int{1}
	if p := runtime.GOMAXPROCS(0); p > 1 {
		allThreads = append(allThreads, p)
	}
	return map[string]suite{
		// quick proves the harness and gives a first look in well under
		// two minutes on two loaded cores.
		"quick": {
			name:     "quick",
			formats:  []blosc.Format{blosc.FormatBlosc1},
			datasets: []dataset{{"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}},
			codecs:   []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd},
			filters:  []string{"shuffle"},
			clevels:  []int{5},
			sizes:    []int{4 << 10, 256 << 10, 4 << 20},
			threads:  []int{1},
			// 20 rounds, not 10: runs of 20 agree with each other
			// within 5% for far more figures by their medians, at
			// twice the time (docs/benchmarks.md, "How a run is
			// timed").
			rounds: 20,
			opTime: 6 * time.Millisecond,

			kernelTypesizes: []int{1, 2, 4, 8, 16},
			kernelSizes:     []int{256 << 10},

			serviceGoroutines: []int{1, 2, 16, 64},
			serviceSizes:      []int{4 << 10, 16 << 10, 64 << 10},
			serviceTime:       150 * time.Millisecond,
		},
		// full is every dimension of the comparison with the C
		// libraries; it takes hours (run it on an otherwise idle
		// machine).
		"full": {
			name:    "full",
			formats: []blosc.Format{blosc.FormatBlosc1, blosc.FormatBlosc2},
			datasets: append([]dataset{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"rand_s1", 8}, {"text", 1}, {"runs", 4}},
				realWorld()...),
			codecs:  []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Zlib, blosc.Zstd},
			filters: []string{"noshuffle", "shuffle", "bitshuffle"},
			clevels: []int{1, 5, 9},
			sizes:   []int{4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20},
			threads: allThreads,
			rounds:  10,
			opTime:  10 * time.Millisecond,

			kernelTypesizes: []int{1, 2, 3, 4, 7, 8, 12, 16, 32},
			kernelSizes:     []int{4 << 10, 256 << 10, 64 << 20},

			serviceGoroutines: []int{1, 2, 16, 64},
			serviceSizes:      []int{4 << 10, 16 << 10, 64 << 10},
			serviceTime:       time.Second,
		},
	}
}

// realWorld are the noisy, real-world-like datasets (golden.RealWorld)
// with their natural typesizes: sensor series, timestamps, sparse arrays
// and records of mixed fields.
func realWorld() []dataset {
	var ds []dataset
	for _, name := range golden.RealWorld {
		ds = append(ds, dataset{name, golden.RealWorldTypesize[name]})
	}
	return ds
}

// overrides are run's flags that replace one dimension of the suite.
type overrides struct {
	formats, datasets, codecs, filters, levels, sizes, threads string
}

// typesizes are the datasets' natural element sizes (cmd/blosc bench's).
var typesizes = map[string]int{
	"arange_i64": 8, "linspace_f64": 8, "f32_noise": 4, "rand_s1": 8, "text": 1,
	"runs": 4, "rec12": 4, "arange_i16": 2, "arange_i32": 4, "zeros": 8,
}

func init() {
	for name, ts := range golden.RealWorldTypesize {
		typesizes[name] = ts
	}
}

func (ov overrides) apply(s *suite) error {
	if ov.formats != "" {
		s.formats = nil
		for _, f := range splitList(ov.formats) {
			switch f {
			case "chunk1":
				s.formats = append(s.formats, blosc.FormatBlosc1)
			case "chunk2":
				s.formats = append(s.formats, blosc.FormatBlosc2)
			default:
				return usagef("-formats: %q is not chunk1 or chunk2", f)
			}
		}
	}
	if ov.datasets != "" {
		s.datasets = nil
		for _, d := range splitList(ov.datasets) {
			name, tsText, hasTS := strings.Cut(d, ":")
			ts, known := typesizes[name]
			if hasTS {
				v, err := strconv.Atoi(tsText)
				if err != nil || v < 1 || v > 255 {
					return usagef("-datasets: bad typesize in %q", d)
				}
				ts = v
			} else if !known {
				ts = 1
			}
			if _, err := golden.Pattern(name, 1); err != nil {
				return usagef("-datasets: %v", err)
			}
			s.datasets = append(s.datasets, dataset{name, ts})
		}
	}
	if ov.codecs != "" {
		s.codecs = nil
		for _, c := range splitList(ov.codecs) {
			cc, err := blosc.ParseCodec(c)
			if err != nil {
				return usagef("-codecs: %v", err)
			}
			s.codecs = append(s.codecs, cc)
		}
	}
	if ov.filters != "" {
		s.filters = nil
		for _, f := range splitList(ov.filters) {
			if _, ok := filters[f]; !ok {
				return usagef("-filters: %q is not noshuffle, shuffle or bitshuffle", f)
			}
			s.filters = append(s.filters, f)
		}
	}
	var err error
	if ov.levels != "" {
		if s.clevels, err = intList("-levels", ov.levels, 0, 9); err != nil {
			return err
		}
	}
	if ov.threads != "" {
		if s.threads, err = intList("-threads", ov.threads, 1, 1024); err != nil {
			return err
		}
	}
	if ov.sizes != "" {
		s.sizes = nil
		for _, f := range splitList(ov.sizes) {
			n, err := parseSize(f)
			if err != nil {
				return err
			}
			s.sizes = append(s.sizes, n)
		}
	}
	return nil
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

func intList(flag, s string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < lo || v > hi {
			return nil, usagef("%s: %q is not in %d..%d", flag, f, lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseSize reads a byte count with an optional KiB or MiB suffix.
func parseSize(f string) (int, error) {
	mult, num := 1, f
	switch {
	case strings.HasSuffix(f, "KiB"):
		mult, num = 1<<10, strings.TrimSuffix(f, "KiB")
	case strings.HasSuffix(f, "MiB"):
		mult, num = 1<<20, strings.TrimSuffix(f, "MiB")
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > blosc.MaxBufferSize/mult {
		return 0, usagef("-sizes: %q is not a positive count of bytes, KiB or MiB", f)
	}
	return n * mult, nil
}
