package bitshuffle

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMeasureKernels times every usable kernel per typesize against a
// memcpy of the same size in the same process, and prints one line per
// (size, typesize, kernel): the median over rounds of the kernel's speed
// over the round's memcpy, shuffling and unshuffling, and the best GB/s.
// It decides the per-typesize dispatch table (see dispatch_amd64.go) and
// runs only when asked, being a measurement, never a pass/fail check:
//
//	BITSHUFFLE_MEASURE=1 go test -run TestMeasureKernels -v ./bitshuffle
//
// BITSHUFFLE_MEASURE_SIZES (default 256KiB,64MiB), _TS (default 1-16) and
// _ROUNDS (default 7) narrow or widen it, and _KERNELS (default all)
// names the kernels to time. The row "dispatch" is what
// Shuffle and Unshuffle run at the active kernel.
func TestMeasureKernels(t *testing.T) {
	if os.Getenv("BITSHUFFLE_MEASURE") == "" {
		t.Skip("SKIPPED: a measurement; set BITSHUFFLE_MEASURE=1 to run it")
	}
	sizes := []int{256 << 10, 64 << 20}
	if s := os.Getenv("BITSHUFFLE_MEASURE_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			mult := 1
			switch {
			case strings.HasSuffix(f, "KiB"):
				mult, f = 1<<10, strings.TrimSuffix(f, "KiB")
			case strings.HasSuffix(f, "MiB"):
				mult, f = 1<<20, strings.TrimSuffix(f, "MiB")
			}
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, n*mult)
		}
	}
	var typesizes []int
	for ts := 1; ts <= 16; ts++ {
		typesizes = append(typesizes, ts)
	}
	if s := os.Getenv("BITSHUFFLE_MEASURE_TS"); s != "" {
		typesizes = nil
		for _, f := range strings.Split(s, ",") {
			ts, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			typesizes = append(typesizes, ts)
		}
	}
	rounds := 7
	if s := os.Getenv("BITSHUFFLE_MEASURE_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	usable, _ := usableKernels()
	type runner struct {
		name     string
		sh, unsh func(dst, src []byte, ts int)
	}
	var runners []runner
	only := os.Getenv("BITSHUFFLE_MEASURE_KERNELS")
	for _, k := range usable {
		if only != "" && !slices.Contains(strings.Split(only, ","), k.String()) {
			continue
		}
		runners = append(runners, runner{k.String(),
			func(d, s []byte, ts int) { shuffleWith(k, d, s, ts) },
			func(d, s []byte, ts int) { unshuffleWith(k, d, s, ts) }})
	}
	runners = append(runners, runner{"dispatch", Shuffle, Unshuffle})
	t.Logf("active kernel %s; ratio = median over %d rounds of kernel GB/s / memcpy GB/s of the round", Kernel(), rounds)
	t.Logf("%8s %3s %-12s %6s %6s %7s %7s %7s", "size", "ts", "kernel", "sh/mc", "un/mc", "sh GB/s", "un GB/s", "mc GB/s")
	for _, n := range sizes {
		src, dst, back := make([]byte, n), make([]byte, n), make([]byte, n)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 0; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(src[i:], rng.Uint64())
		}
		copy(dst, src)
		copy(back, src)
		budget := 20 * time.Millisecond
		for _, ts := range typesizes {
			for _, r := range runners {
				shR, unR := make([]float64, rounds), make([]float64, rounds)
				var shBest, unBest, mcBest float64
				for i := range rounds {
					mc := gbpsOf(n, budget, func() { copy(back, src) })
					sh := gbpsOf(n, budget, func() { r.sh(dst, src, ts) })
					un := gbpsOf(n, budget, func() { r.unsh(back, dst, ts) })
					shR[i], unR[i] = sh/mc, un/mc
					shBest, unBest, mcBest = max(shBest, sh), max(unBest, un), max(mcBest, mc)
				}
				slices.Sort(shR)
				slices.Sort(unR)
				t.Logf("%8s %3d %-12s %6.2f %6.2f %7.2f %7.2f %7.2f", sizeName(n), ts, r.name,
					shR[rounds/2], unR[rounds/2], shBest, unBest, mcBest)
			}
		}
	}
}

func sizeName(n int) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return strconv.Itoa(n)
}

// gbpsOf runs f repeatedly for about budget and returns the best GB/s of
// three timed stretches.
func gbpsOf(n int, budget time.Duration, f func()) float64 {
	f()
	reps := 1
	for {
		start := time.Now()
		for range reps {
			f()
		}
		if time.Since(start) >= budget/8 {
			break
		}
		reps *= 2
	}
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		for range reps {
			f()
		}
		best = min(best, time.Since(start)/time.Duration(reps))
	}
	return float64(n) / best.Seconds() / 1e9
}
