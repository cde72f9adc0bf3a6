package main

import (
	"strings"
	"testing"
)

// syntheticResults is a run of two Blosc1 configurations with c-blosc
// beside Go, one Blosc2 configuration Go alone ran, and one kernel, with
// figures chosen so that every median and ratio is known.
func syntheticResults() *results {
	r := &results{Suite: "quick", Machine: machine{CPU: "Test CPU 9000", Cores: 2, Threads: 4, GOOS: "linux", GOARCH: "amd64",
		GOMAXPROCS: 4, Go: "go1.99", Kernel: "avx2", Peers: []string{"c-blosc-1.21.3"}}}
	add := func(base, format, engine, op string, ratio float64, xs ...float64) {
		for i, x := range xs {
			r.Samples = append(r.Samples, sample{Name: base + "/op=" + op + "/engine=" + engine, Format: format,
				Engine: engine, Op: op, Round: i, XMemcpy: x, Ratio: ratio})
		}
	}
	const c1a = "Blosc/format=chunk1/ds=text/n=4KiB/codec=lz4/filter=shuffle/clevel=5/threads=1"
	const c1b = "Blosc/format=chunk1/ds=f32_noise/n=4KiB/codec=lz4/filter=shuffle/clevel=5/threads=1"
	const c1c = "Blosc/format=chunk1/ds=text/n=256KiB/codec=lz4/filter=shuffle/clevel=5/threads=1"
	const c2 = "Blosc/format=chunk2/ds=text/n=4KiB/codec=zstd/filter=shuffle/clevel=5/threads=1"
	// Medians: Go compress 0.4 (of 0.3, 0.4, 0.9), decompress 0.6; C 0.2 and 0.3.
	add(c1a, "chunk1", "go", "compress", 3.5, 0.3, 0.4, 0.9)
	add(c1a, "chunk1", "go", "decompress", 3.5, 0.6, 0.5, 0.7)
	add(c1a, "chunk1", "c-blosc-1.21.3", "compress", 3.5, 0.2, 0.2, 0.2)
	add(c1a, "chunk1", "c-blosc-1.21.3", "decompress", 3.5, 0.3, 0.3, 0.3)
	add(c1b, "chunk1", "go", "compress", 1.25, 0.1)
	add(c1b, "chunk1", "go", "decompress", 1.25, 0.5)
	add(c1b, "chunk1", "c-blosc-1.21.3", "compress", 1.25, 0.4)
	add(c1b, "chunk1", "c-blosc-1.21.3", "decompress", 1.25, 0.25)
	add(c1c, "chunk1", "go", "compress", 5, 0.25)
	add(c1c, "chunk1", "go", "decompress", 5, 0.5)
	add(c2, "chunk2", "go", "compress", 4, 0.05)
	add(c2, "chunk2", "go", "decompress", 4, 0.2)
	for i, x := range []float64{0.8, 0.7, 0.75} {
		r.Kernels = append(r.Kernels,
			kernelSample{Family: "shuffle", Kernel: "memcpy", Typesize: 4, Buffer: 256 << 10, Op: "copy", Round: i, XMemcpy: 1},
			kernelSample{Family: "shuffle", Kernel: "avx2", Typesize: 4, Buffer: 256 << 10, Op: "shuffle", Round: i, XMemcpy: x},
			kernelSample{Family: "shuffle", Kernel: "avx2", Typesize: 4, Buffer: 256 << 10, Op: "unshuffle", Round: i, XMemcpy: x / 2})
	}
	return r
}

func TestResultsMarkdown(t *testing.T) {
	got := string(renderResults(syntheticResults()))
	for _, want := range []string{
		"Machine: Test CPU 9000, 2 cores (4 threads), linux/amd64, GOMAXPROCS 4, go1.99, shuffle kernel avx2; C peers: c-blosc-1.21.3.",
		// The varying parts become columns, the shared ones the title.
		"Format chunk1: n 4KiB, codec lz4, filter shuffle, clevel 5, threads 1\n",
		"| ds | ratio | compress x memcpy | decompress x memcpy | compress Go/c-blosc-1.21.3 | decompress Go/c-blosc-1.21.3 |\n",
		"| text | 3.50 | 0.400 | 0.600 | 2.00 | 2.00 |\n",
		"| f32_noise | 1.25 | 0.100 | 0.500 | 0.25 | 2.00 |\n",
		// Another size is another table, and one C did not run has no
		// C columns.
		"Format chunk1: ds text, n 256KiB, codec lz4, filter shuffle, clevel 5, threads 1\n\n| ratio | compress x memcpy | decompress x memcpy |\n| --- | --- | --- |\n| 5.00 | 0.250 | 0.500 |\n",
		// One configuration: nothing varies, every part is in the title,
		// and no C column for a format no C library ran.
		"Format chunk2: ds text, n 4KiB, codec zstd, filter shuffle, clevel 5, threads 1\n",
		"| ratio | compress x memcpy | decompress x memcpy |\n| --- | --- | --- |\n| 4.00 | 0.0500 | 0.200 |\n",
		"| family | kernel | size | ts 4 |\n",
		"| shuffle | avx2 | 256KiB | 0.75 / 0.38 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("results.md lacks %q; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "memcpy | 256KiB") {
		t.Error("memcpy listed as a kernel")
	}
	// Every table row has as many cells as its header.
	var cols int
	for _, line := range strings.Split(got, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := strings.Count(line, "|")
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row %q has %d bars, header %d", line, n, cols)
		}
	}
}

func TestResultsWithoutPeers(t *testing.T) {
	r := syntheticResults()
	r.Machine.Peers = nil
	var keep []sample
	for _, s := range r.Samples {
		if s.Engine == "go" {
			keep = append(keep, s)
		}
	}
	r.Samples, r.Kernels = keep, nil
	got := string(renderResults(r))
	if !strings.Contains(got, "C peers: none") || strings.Contains(got, "Go/c-blosc") || strings.Contains(got, "Kernels") {
		t.Errorf("without peers or kernels:\n%s", got)
	}
}
