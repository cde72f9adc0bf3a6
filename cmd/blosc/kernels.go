package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goblosc/blosc/internal/cpu"
)

type kernelBenchRow struct {
	Family        string  `json:"family"`
	Kernel        string  `json:"kernel"`
	Typesize      int     `json:"typesize"`
	Bytes         int     `json:"bytes"`
	ShuffleGBps   float64 `json:"shuffle_gbps"`
	UnshuffleGBps float64 `json:"unshuffle_gbps"`
	// The speeds over a memcpy of the same size timed just before this
	// typesize's rows (0 on the memcpy row).
	ShuffleVsMemcpy   float64 `json:"shuffle_vs_memcpy,omitempty"`
	UnshuffleVsMemcpy float64 `json:"unshuffle_vs_memcpy,omitempty"`
}

var (
	kernelTypesizes = []int{1, 2, 3, 4, 7, 8, 12, 16}
	kernelSizes     = "4KiB,256KiB,64MiB"
)

// extraKernel is a kernel timed by benchKernels. usable reports the bytes
// of an n-byte buffer it can transform at ts, 0 when it cannot run; the
// row's GB/s counts those bytes. (The C libraries' kernels are timed by
// the bench module: go run -tags cblosc ./bench run.)
type extraKernel struct {
	family, name string
	usable       func(n, ts int) int
	shuffle      func(dst, src []byte, ts int)
	unshuffle    func(dst, src []byte, ts int)
}

// parseSizes reads a comma-separated list of byte counts with an optional
// KiB or MiB suffix.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		mult := 1
		num := f
		switch {
		case strings.HasSuffix(f, "KiB"):
			mult, num = 1<<10, strings.TrimSuffix(f, "KiB")
		case strings.HasSuffix(f, "MiB"):
			mult, num = 1<<20, strings.TrimSuffix(f, "MiB")
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 || n > (1<<30)/mult {
			return nil, usagef("size %q: want a positive count of bytes, KiB or MiB up to 1 GiB", f)
		}
		out = append(out, n*mult)
	}
	if len(out) == 0 {
		return nil, usagef("no sizes given")
	}
	return out, nil
}

// benchKernels times every registered kernel this CPU runs, for each family,
// typesize and size, with a memcpy row per size as the physical limit. Each
// kernel's output is checked against the portable kernel's before timing.
//
// Memory-bound rows drift with whatever else the machine does (on a shared
// VM a 64 MiB memcpy ranges over a third of its speed from one second to
// the next), so each kernel is timed in rounds that alternate memcpy,
// shuffle and unshuffle, and its ratio is the median over the rounds of
// its speed over that round's memcpy: a slow spell then hits both sides of
// a pair, and one lucky or unlucky round does not decide the figure. The
// GB/s columns are the best round; the memcpy row shows the best memcpy of
// the size, the strictest baseline.
func benchKernels(sizes []int, budget time.Duration) ([]kernelBenchRow, error) {
	var rows []kernelBenchRow
	for _, size := range sizes {
		src := make([]byte, size)
		for i := range src {
			src[i] = byte(i*7 + i>>9)
		}
		dst := make([]byte, size)
		back := make([]byte, size)
		ref := make([]byte, size)
		memcpyRow := len(rows)
		rows = append(rows, kernelBenchRow{Family: "memcpy", Kernel: "-", Bytes: size})
		for _, family := range []string{"shuffle", "bitshuffle"} {
			ks := cpu.Kernels(family)
			if len(ks) == 0 {
				return nil, fmt.Errorf("no %s kernels registered", family)
			}
			for _, ts := range kernelTypesizes {
				if family == "shuffle" && ts == 1 {
					continue // a byte shuffle of 1-byte elements is a copy
				}
				ks[0].Shuffle(ref, src, ts) // the portable kernel comes first
				var timed []extraKernel
				for _, k := range ks {
					if k.Available() {
						timed = append(timed, extraKernel{family: family, name: k.Name(),
							usable: func(n, _ int) int { return n }, shuffle: k.Shuffle, unshuffle: k.Unshuffle})
					}
				}
				for _, k := range timed {
					m := k.usable(size, ts)
					if m == 0 {
						continue
					}
					d, s, b := dst[:m], src[:m], back[:m]
					k.shuffle(d, s, ts)
					// A kernel that covers only part of the buffer (C's bit
					// shuffle) writes a different layout than the whole
					// buffer's, so only its inverse is checked.
					if m == size && !bytes.Equal(d, ref) {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d disagrees with the portable kernel", family, k.name, ts, size)
					}
					k.unshuffle(b, d, ts)
					if !bytes.Equal(b, s) {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d does not invert", family, k.name, ts, size)
					}
					row := kernelBenchRow{Family: family, Kernel: k.name, Typesize: ts, Bytes: m}
					var shRatio, unRatio [ratioRounds]float64
					for r := range ratioRounds {
						// memcpy copies the kernel's m bytes, so a partial
						// kernel is compared with a copy of what it moved.
						mc := gbps(m, measure(budget/ratioRounds, func() { copy(dst[:m], src[:m]) }))
						sh := gbps(m, measure(budget/ratioRounds, func() { k.shuffle(d, s, ts) }))
						un := gbps(m, measure(budget/ratioRounds, func() { k.unshuffle(b, d, ts) }))
						if m == size {
							rows[memcpyRow].ShuffleGBps = max(rows[memcpyRow].ShuffleGBps, mc)
							rows[memcpyRow].UnshuffleGBps = rows[memcpyRow].ShuffleGBps
						}
						row.ShuffleGBps, row.UnshuffleGBps = max(row.ShuffleGBps, sh), max(row.UnshuffleGBps, un)
						shRatio[r], unRatio[r] = sh/mc, un/mc
					}
					row.ShuffleVsMemcpy, row.UnshuffleVsMemcpy = median(shRatio[:]), median(unRatio[:])
					rows = append(rows, row)
				}
			}
		}
	}
	return rows, nil
}

// ratioRounds is how many alternating memcpy/kernel rounds decide a
// kernel row's ratio to memcpy.
const ratioRounds = 5

// median sorts v and returns its middle value (v has an odd length).
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

func printKernelTable(w io.Writer, rep benchReport) {
	fmt.Fprintf(w, "cpu: %s  %s/%s  %s  active kernel: %s\n", rep.CPU, rep.GOOS, rep.GOARCH, rep.Go, rep.Kernel)
	var missing []string
	for _, f := range []string{"shuffle", "bitshuffle"} {
		for _, k := range cpu.Kernels(f) {
			if !k.Available() {
				missing = append(missing, f+"/"+k.Name())
			}
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "compiled in but not runnable on this CPU: %v\n", missing)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "family\tkernel\tts\tbytes\tshuffle GB/s\tunshuffle GB/s\tx memcpy\t")
	for _, r := range rep.Kernels {
		ts, vs := fmt.Sprint(r.Typesize), fmt.Sprintf("%.2f/%.2f", r.ShuffleVsMemcpy, r.UnshuffleVsMemcpy)
		if r.Family == "memcpy" {
			ts, vs = "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.2f\t%s\t\n", r.Family, r.Kernel, ts, r.Bytes, r.ShuffleGBps, r.UnshuffleGBps, vs)
	}
	tw.Flush()
}
