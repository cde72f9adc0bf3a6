package main

import (
	"runtime"
	"time"

	"github.com/goblosc/blosc"
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
			rounds:   6,
			opTime:   6 * time.Millisecond,

			kernelTypesizes: []int{1, 2, 4, 8, 16},
			kernelSizes:     []int{256 << 10},

			serviceGoroutines: []int{1, 2, 16, 64},
			serviceSizes:      []int{4 << 10, 16 << 10, 64 << 10},
			serviceTime:       150 * time.Millisecond,
		},
		// full is every dimension the issue names; it takes a while (run
		// it on an idle machine).
		"full": {
			name:     "full",
			formats:  []blosc.Format{blosc.FormatBlosc1, blosc.FormatBlosc2},
			datasets: []dataset{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"rand_s1", 8}, {"text", 1}, {"runs", 4}},
			codecs:   []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Zlib, blosc.Zstd},
			filters:  []string{"noshuffle", "shuffle", "bitshuffle"},
			clevels:  []int{1, 5, 9},
			sizes:    []int{4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20},
			threads:  allThreads,
			rounds:   10,
			opTime:   10 * time.Millisecond,

			kernelTypesizes: []int{1, 2, 3, 4, 7, 8, 12, 16, 32},
			kernelSizes:     []int{4 << 10, 256 << 10, 64 << 20},

			serviceGoroutines: []int{1, 2, 16, 64},
			serviceSizes:      []int{4 << 10, 16 << 10, 64 << 10},
			serviceTime:       time.Second,
		},
	}
}
