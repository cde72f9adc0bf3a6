package main

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/engines"
	"github.com/goblosc/blosc/internal/golden"
)

// serviceResult is the service case for one engine, goroutine count,
// buffer size and operation: the latency of single calls.
type serviceResult struct {
	Name       string  `json:"name"`
	Engine     string  `json:"engine"`
	Goroutines int     `json:"goroutines"`
	Bytes      int     `json:"bytes"`
	Op         string  `json:"op"`
	Calls      int     `json:"calls"`
	MeanNs     float64 `json:"mean_ns"`
	P50Ns      float64 `json:"p50_ns"`
	P99Ns      float64 `json:"p99_ns"`
	P999Ns     float64 `json:"p99_9_ns"`
	MaxNs      float64 `json:"max_ns"`
	// AllocsPerCall and BytesPerCall count the Go heap (both operations of
	// a pair together, so they are the same on the two rows of a case).
	AllocsPerCall float64 `json:"allocs_per_call"`
	BytesPerCall  float64 `json:"bytes_per_call"`
	// MBps is the throughput of all goroutines together.
	MBps float64 `json:"mb_per_s"`
}

// service is the latency-sensitive use: each of N goroutines compresses
// and decompresses its own small buffers, one call at a time, through
// contexts it made once and reuses (blosc.NewCompressor and
// NewDecompressor; each C library's context calls the same way), and
// every call is timed. The options are a service's usual: LZ4, level 5,
// byte shuffle, one thread per call.
func (r *runner) service(s suite) error {
	for _, e := range allEngines() {
		for _, size := range s.serviceSizes {
			src, err := golden.Pattern("linspace_f64", size)
			if err != nil {
				return err
			}
			src = alignedCopy(src)
			o := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Threads: 1}
			o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
			if !e.Supports(o) {
				continue
			}
			for _, g := range s.serviceGoroutines {
				base := fmt.Sprintf("Service/engine=%s/goroutines=%d/n=%s", nameSafe(e.Name), g, sizeName(size))
				if !r.wanted(base) {
					continue
				}
				res, err := serviceCase(e, o, src, g, s.serviceTime)
				if err != nil {
					return fmt.Errorf("%s: %w", base, err)
				}
				for _, x := range res {
					x.Name = base + "/op=" + x.Op
					x.Engine = nameSafe(e.Name)
					r.Service = append(r.Service, x)
					r.line(x.Name, x.Calls, x.MeanNs, "ns/op", x.P50Ns, "p50-ns", x.P99Ns, "p99-ns", x.P999Ns, "p99.9-ns",
						x.MBps, "MB/s", x.AllocsPerCall, "allocs/op", x.BytesPerCall, "B/op")
				}
			}
		}
	}
	return nil
}

func serviceCase(e engines.Engine, o blosc.Options, src []byte, goroutines int, d time.Duration) ([]serviceResult, error) {
	type worker struct {
		fns       engines.Funcs
		comp, out []byte
		lat       [2][]time.Duration // compress, decompress
		err       error
	}
	ws := make([]*worker, goroutines)
	for i := range ws {
		fns, err := e.Open(o)
		if err != nil {
			return nil, err
		}
		w := &worker{fns: fns, comp: aligned(blosc.CompressBound(len(src)))[:0], out: aligned(len(src))[:0]}
		// A warm-up pair: contexts, pools and codec state are built here,
		// as a long-running service has them built.
		c, err := fns.Compress(w.comp, src)
		if err == nil {
			var back []byte
			back, err = fns.Decompress(w.out, c)
			if err == nil && !bytes.Equal(back, src) {
				err = fmt.Errorf("the round trip lost data")
			}
		}
		if err != nil {
			return nil, err
		}
		// Room for the calls of the whole run, so recording allocates
		// nothing while the heap is counted.
		w.lat[0] = make([]time.Duration, 0, 1<<16)
		w.lat[1] = make([]time.Duration, 0, 1<<16)
		ws[i] = w
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(w.lat[0]) < cap(w.lat[0]) {
				t0 := time.Now()
				c, err := w.fns.Compress(w.comp, src)
				t1 := time.Now()
				if err == nil {
					_, err = w.fns.Decompress(w.out, c)
				}
				t2 := time.Now()
				if err != nil {
					w.err = err
					return
				}
				w.lat[0] = append(w.lat[0], t1.Sub(t0))
				w.lat[1] = append(w.lat[1], t2.Sub(t1))
				if t2.After(deadline) {
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	var out []serviceResult
	for op, name := range []string{"compress", "decompress"} {
		var all []time.Duration
		for _, w := range ws {
			if w.err != nil {
				return nil, w.err
			}
			all = append(all, w.lat[op]...)
		}
		slices.Sort(all)
		var sum time.Duration
		for _, l := range all {
			sum += l
		}
		n := len(all)
		pct := func(p float64) float64 { return float64(all[min(n-1, int(p*float64(n)))].Nanoseconds()) }
		calls := float64(n)
		out = append(out, serviceResult{Goroutines: goroutines, Bytes: len(src), Op: name, Calls: n,
			MeanNs: float64(sum.Nanoseconds()) / calls, P50Ns: pct(0.50), P99Ns: pct(0.99), P999Ns: pct(0.999),
			MaxNs: float64(all[n-1].Nanoseconds()), AllocsPerCall: float64(after.Mallocs-before.Mallocs) / calls,
			BytesPerCall: float64(after.TotalAlloc-before.TotalAlloc) / calls,
			MBps:         float64(n) * float64(len(src)) / elapsed.Seconds() / 1e6})
	}
	return out, nil
}
