package main

import (
	"bytes"
	"fmt"
	"io"
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
}

var (
	kernelTypesizes = []int{1, 2, 3, 4, 7, 8, 12, 16}
	kernelSizes     = "4KiB,256KiB,64MiB"
)

// extraKernel is a kernel from outside this module (c-blosc's, under the
// cblosc tag) timed in the same run as ours. usable reports the bytes of
// an n-byte buffer it can transform at ts (C bit-shuffles whole groups of 8
// elements only), 0 when it cannot run; the row's GB/s counts those bytes.
type extraKernel struct {
	family, name string
	usable       func(n, ts int) int
	shuffle      func(dst, src []byte, ts int)
	unshuffle    func(dst, src []byte, ts int)
}

// extraKernels is filled by build-tagged files (ckernels.go).
var extraKernels []extraKernel

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
		t := measure(budget, func() { copy(dst, src) })
		rows = append(rows, kernelBenchRow{Family: "memcpy", Kernel: "-", Bytes: size,
			ShuffleGBps: gbps(size, t), UnshuffleGBps: gbps(size, t)})
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
				for _, k := range ks {
					if !k.Available() {
						continue
					}
					k.Shuffle(dst, src, ts)
					if !bytes.Equal(dst, ref) {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d disagrees with the portable kernel", family, k.Name(), ts, size)
					}
					k.Unshuffle(back, dst, ts)
					if !bytes.Equal(back, src) {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d does not invert", family, k.Name(), ts, size)
					}
					sh := measure(budget, func() { k.Shuffle(dst, src, ts) })
					un := measure(budget, func() { k.Unshuffle(back, dst, ts) })
					rows = append(rows, kernelBenchRow{Family: family, Kernel: k.Name(), Typesize: ts, Bytes: size,
						ShuffleGBps: gbps(size, sh), UnshuffleGBps: gbps(size, un)})
				}
				for _, x := range extraKernels {
					m := 0
					if x.family == family {
						m = x.usable(size, ts)
					}
					if m == 0 {
						continue
					}
					x.shuffle(dst[:m], src[:m], ts)
					if !bytes.Equal(dst[:m], ref[:m]) && m == size {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d disagrees with the portable kernel", family, x.name, ts, size)
					}
					x.unshuffle(back[:m], dst[:m], ts)
					if !bytes.Equal(back[:m], src[:m]) {
						return nil, fmt.Errorf("%s kernel %s ts=%d size=%d does not invert", family, x.name, ts, size)
					}
					sh := measure(budget, func() { x.shuffle(dst[:m], src[:m], ts) })
					un := measure(budget, func() { x.unshuffle(back[:m], dst[:m], ts) })
					rows = append(rows, kernelBenchRow{Family: family, Kernel: x.name, Typesize: ts, Bytes: m,
						ShuffleGBps: gbps(m, sh), UnshuffleGBps: gbps(m, un)})
				}
			}
		}
	}
	return rows, nil
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
	fmt.Fprintln(tw, "family\tkernel\tts\tbytes\tshuffle GB/s\tunshuffle GB/s\t")
	for _, r := range rep.Kernels {
		ts := fmt.Sprint(r.Typesize)
		if r.Family == "memcpy" {
			ts = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.2f\t\n", r.Family, r.Kernel, ts, r.Bytes, r.ShuffleGBps, r.UnshuffleGBps)
	}
	tw.Flush()
}
