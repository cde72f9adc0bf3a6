package main

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/golden"
)

// calibrate returns how many calls of f take about d (at least one),
// after a call that warms caches, pools and lazily built codec state. The
// per-call time it goes by is the fastest of three estimates, so a stall
// of the machine while calibrating does not shrink every later batch.
func calibrate(d time.Duration, f func()) int {
	f()
	per := time.Duration(math.MaxInt64)
	for range 3 {
		for n := 1; ; n *= 2 {
			el := timeN(n, f)
			if el >= d/8 || n >= 1<<24 {
				per = min(per, el/time.Duration(n))
				break
			}
		}
	}
	return max(1, min(int(d/max(per, time.Nanosecond)), 1<<26))
}

func timeN(n int, f func()) time.Duration {
	t0 := time.Now()
	for i := 0; i < n; i++ {
		f()
	}
	return max(time.Since(t0), time.Nanosecond)
}

// batches is how many parts a round's calls are timed in; the round's
// figure is the fastest part's, the one least disturbed by other work.
const batches = 4

// timeBatch times one batch of nf calls of f beside one of nm calls of
// memcpy and returns nanoseconds per call (timeCalls); mper and per are
// the calls' calibrated times.
func timeBatch(nm int, mper time.Duration, memcpy func(), nf int, per time.Duration, f func()) (tm, tf float64) {
	return timeCalls(nm, mper, memcpy), timeCalls(nf, per, f)
}

// longCall is the time from which a call is timed on its own; a batch of
// such calls shorter than fewBelow makes at least longCalls of them.
const (
	longCall  = 20 * time.Microsecond
	longCalls = 4
	fewBelow  = 4 * time.Millisecond
)

// timeCalls returns the nanoseconds a call of f takes in a batch of n
// calls of about per each.
//
// Short calls are timed together, and a batch of several starts with an
// untimed one that brings its buffers back into the caches the previous
// group's calls evicted.
//
// Long calls (longCall and more: the chunks of 256 KiB and up) are timed
// one by one, at least longCalls of them below fewBelow, and the batch's
// figure is the fastest. Their times vary far more than short ones': a
// 4 MiB decompression called back to back in one process keeps its best
// time, but its average moves with the second and the process far more
// than a loop of multiplications or a memcpy does. A batch of one or two
// such calls, timed together after the previous group's work had filled
// the caches, followed those swings, and read well below the same calls
// timed one by one (docs/benchmarks.md, "How a run is timed"). From
// fewBelow a cold start is a small part of a call, and more calls would
// double the suite's time.
func timeCalls(n int, per time.Duration, f func()) float64 {
	if per < longCall {
		if n > 1 {
			f()
		}
		return float64(timeN(n, f).Nanoseconds()) / float64(n)
	}
	if per < fewBelow {
		n = max(n, longCalls)
	}
	best := time.Duration(math.MaxInt64)
	for range n {
		t0 := time.Now()
		f()
		best = min(best, time.Since(t0))
	}
	return float64(max(best, time.Nanosecond).Nanoseconds())
}

// perCall is the time of one of the iters calls that take about d.
func perCall(d time.Duration, iters int) time.Duration { return d / time.Duration(max(iters, 1)) }

// pageSize is the alignment every timed buffer starts at.
const pageSize = 4096

// aligned returns n zero bytes (capacity n) that start at a page boundary.
// Where the allocator puts a small buffer changes from run to run, and a
// copy of 4 KiB takes one of several times depending on where its source
// and destination fall within their pages; with every buffer page-aligned
// the same configuration times the same in every run.
//
// Buffers of hugeMin bytes and more start at a 2 MiB boundary instead, and
// ask the kernel for huge pages (adviseHuge). Which physical pages a
// buffer of 4 KiB pages gets changes from process to process, and with
// them which of its lines compete for the same cache sets: decompressing
// a 4 MiB linspace_f64 chunk took one of two quite different times from
// run to run while a memcpy of the same bytes did not move, and huge pages
// made the runs agree (docs/benchmarks.md). Such a buffer takes 2 MiB more
// than n (footprint).
func aligned(n int) []byte {
	align := pageSize
	if n >= hugeMin {
		align = hugePage
	}
	b := make([]byte, n+align)
	pad := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & uintptr(align-1))
	b = b[pad : pad+n : pad+n]
	if n >= hugeMin {
		adviseHuge(b)
		clear(b) // fault the pages in now, as huge ones where the kernel has them
	}
	return b
}

// hugePage is the size of a huge page on the platforms adviseHuge serves;
// hugeMin the buffer size from which aligned asks for them.
const (
	hugePage = 2 << 20
	hugeMin  = 64 << 10
)

// footprint is the memory aligned(n) takes, which a pass's budget counts.
func footprint(n int) int {
	if n >= hugeMin {
		return n + hugePage
	}
	return n + pageSize
}

// alignedCopy returns a page-aligned copy of b.
func alignedCopy(b []byte) []byte {
	c := aligned(len(b))
	copy(c, b)
	return c
}

// sizeName writes a byte count as the names do: 4KiB, 64MiB, 100B.
func sizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// nameSafe makes an engine or kernel name one part of a benchmark name:
// no slash (the sub-benchmark separator), no space (the field separator).
func nameSafe(s string) string { return strings.NewReplacer("/", "-", " ", "_", "=", "-").Replace(s) }

func formatName(f blosc.Format) string {
	if f == blosc.FormatBlosc2 {
		return "chunk2"
	}
	return "chunk1"
}

// timedOp is one operation of one engine, timed in every round.
type timedOp struct {
	engine, op string
	f          func()
	err        *error
	iters      int
}

// group is one configuration's operations, each timed in every round with
// a memcpy of the configuration's input beside it.
type group struct {
	held   int // bytes of buffers the group keeps until its pass ends
	bytes  int // the size memcpy copies
	memcpy func()
	nm     int           // memcpy calls a round
	mper   time.Duration // a memcpy call's calibrated time
	fs     []func()
	iters  []int
	per    []time.Duration // a call's calibrated time
	// emit records round's figures: tf[i] is the nanoseconds a call of
	// fs[i] took, tm[i] a memcpy of bytes in the same round.
	emit func(round int, tm, tf []float64) error
}

// passBudget bounds the buffers the groups of one pass hold.
const passBudget = 512 << 20

// pass times groups round by round: every round times each group once, so
// a configuration's samples spread over the whole pass (the whole quick
// suite but its service case) rather than a few hundred milliseconds of
// it. This machine shares its cores with other
// tenants, and a stretch of a few seconds at two thirds of the usual speed
// otherwise lands on some configurations of a run and not on others; the
// median over rounds then sees the same mix of good and bad stretches in
// every configuration, and runs agree with each other.
type pass struct {
	rounds int
	groups []*group
	held   int
}

// add queues g, first timing the queued groups when g would take the pass
// over its budget.
func (p *pass) add(g *group) error {
	if len(p.groups) > 0 && p.held+g.held > passBudget {
		if err := p.flush(); err != nil {
			return err
		}
	}
	p.groups = append(p.groups, g)
	p.held += g.held
	return nil
}

// flush times the queued groups and lets go of them. A round's batches
// of one operation are spread over the round (every group's first batch,
// then every group's second, ...), so a stall of the machine that lasts
// longer than one batch spoils one of them, not the round's figure.
func (p *pass) flush() error {
	for round := 0; round < p.rounds; round++ {
		tms, tfs := make([][]float64, len(p.groups)), make([][]float64, len(p.groups))
		for gi, g := range p.groups {
			tms[gi], tfs[gi] = make([]float64, len(g.fs)), make([]float64, len(g.fs))
			for i := range g.fs {
				tms[gi][i], tfs[gi][i] = math.Inf(1), math.Inf(1)
			}
		}
		for range batches {
			for gi, g := range p.groups {
				pm := max(1, g.nm/batches)
				for i, f := range g.fs {
					tm, tf := timeBatch(pm, g.mper, g.memcpy, max(1, g.iters[i]/batches), g.per[i], f)
					tms[gi][i], tfs[gi][i] = min(tms[gi][i], tm), min(tfs[gi][i], tf)
				}
			}
		}
		// The reference is the round's fastest memcpy of each size, the
		// same for every configuration of that size.
		fastest := map[int]float64{}
		for gi, g := range p.groups {
			for _, t := range tms[gi] {
				if f, ok := fastest[g.bytes]; !ok || t < f {
					fastest[g.bytes] = t
				}
			}
		}
		for gi, g := range p.groups {
			for i := range tms[gi] {
				tms[gi][i] = fastest[g.bytes]
			}
			if err := g.emit(round, tms[gi], tfs[gi]); err != nil {
				return err
			}
		}
	}
	p.groups, p.held = nil, 0
	return nil
}

// chunks times every configuration of the suite: each engine that runs
// it compresses and decompresses, and a memcpy of the input is timed in
// the same rounds as the ratio's reference.
func (r *runner) chunks(s suite, p *pass) error {
	for _, format := range s.formats {
		for _, ds := range s.datasets {
			for _, size := range s.sizes {
				var src []byte
				for _, codec := range s.codecs {
					for _, fname := range s.filters {
						for _, level := range s.clevels {
							for _, th := range s.threads {
								o := blosc.Options{Format: format, Codec: codec, Level: level, Typesize: ds.typesize, Threads: th}
								o.Filters[blosc.MaxFilters-1] = filters[fname]
								base := fmt.Sprintf("Blosc/format=%s/ds=%s/n=%s/codec=%s/filter=%s/clevel=%d/threads=%d",
									formatName(format), ds.name, sizeName(size), codec, fname, level, th)
								if !r.wanted(base) {
									continue
								}
								if src == nil {
									var err error
									if src, err = golden.Pattern(ds.name, size); err != nil {
										return err
									}
									src = alignedCopy(src)
								}
								g, err := r.chunkGroup(s, base, ds, fname, o, src)
								if err != nil {
									return fmt.Errorf("%s: %w", base, err)
								}
								if err := p.add(g); err != nil {
									return err
								}
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// chunkGroup checks each engine's round trip of one configuration and
// returns its operations to time.
func (r *runner) chunkGroup(s suite, base string, ds dataset, fname string, o blosc.Options, src []byte) (*group, error) {
	var ops []*timedOp
	ratios := map[string]float64{}
	held := 2 * footprint(len(src))
	for _, e := range allEngines() {
		if !e.Supports(o) {
			continue
		}
		fns, err := e.Open(o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name, err)
		}
		comp := aligned(blosc.CompressBound(len(src)))[:0]
		out := aligned(len(src))[:0]
		c, err := fns.Compress(comp, src)
		if err != nil {
			return nil, fmt.Errorf("%s compress: %w", e.Name, err)
		}
		chunk := alignedCopy(c)
		d, err := fns.Decompress(out, chunk)
		if err != nil || !bytes.Equal(d, src) {
			return nil, fmt.Errorf("%s: the round trip lost data (%v)", e.Name, err)
		}
		held += footprint(cap(comp)) + footprint(cap(out)) + footprint(len(chunk))
		name := nameSafe(e.Name)
		ratios[name] = float64(len(src)) / float64(len(chunk))
		var cerr, derr error
		ops = append(ops,
			&timedOp{engine: name, op: "compress", err: &cerr, f: func() {
				if _, err := fns.Compress(comp, src); err != nil {
					cerr = err
				}
			}},
			&timedOp{engine: name, op: "decompress", err: &derr, f: func() {
				if _, err := fns.Decompress(out, chunk); err != nil {
					derr = err
				}
			}})
	}
	dst := aligned(len(src))
	memcpy := func() { copy(dst, src) }
	// Every operation's batches alternate with memcpy batches of half its
	// time: the ratio compares two things timed side by side.
	g := &group{held: held, bytes: len(src), memcpy: memcpy, nm: calibrate(s.opTime/2, memcpy)}
	g.mper = perCall(s.opTime/2, g.nm)
	for _, op := range ops {
		op.iters = calibrate(s.opTime, op.f)
		g.fs = append(g.fs, op.f)
		g.iters = append(g.iters, op.iters)
		g.per = append(g.per, perCall(s.opTime, op.iters))
	}
	g.emit = func(round int, tms, tfs []float64) error {
		for i, op := range ops {
			tm, t := tms[i], tfs[i]
			if *op.err != nil {
				return fmt.Errorf("%s: %s %s: %w", base, op.engine, op.op, *op.err)
			}
			smp := sample{Name: base + "/op=" + op.op + "/engine=" + op.engine, Format: formatName(o.Format), Dataset: ds.name,
				Typesize: ds.typesize, Bytes: len(src), Codec: o.Codec.String(), Filter: fname, Clevel: o.Level, Threads: o.Threads,
				Op: op.op, Engine: op.engine, Round: round, Iters: op.iters, NsPerOp: t, MBps: float64(len(src)) / t * 1e3,
				XMemcpy: tm / t, Ratio: ratios[op.engine]}
			r.Samples = append(r.Samples, smp)
			r.line(smp.Name, smp.Iters, smp.NsPerOp, "ns/op", smp.MBps, "MB/s", smp.XMemcpy, "x-memcpy", smp.Ratio, "ratio")
		}
		tm := slices.Min(append(tms, math.Inf(1)))
		mc := sample{Name: "Memcpy/n=" + sizeName(len(src)), Dataset: ds.name, Bytes: len(src), Op: "copy", Engine: "memcpy",
			Round: round, Iters: g.nm, NsPerOp: tm, MBps: float64(len(src)) / tm * 1e3, XMemcpy: 1}
		r.Memcpy = append(r.Memcpy, mc)
		r.line(mc.Name, g.nm, mc.NsPerOp, "ns/op", mc.MBps, "MB/s")
		return nil
	}
	return g, nil
}

// kernels times every shuffle and bit-shuffle kernel this CPU runs (ours
// from the kernel registry, and the C libraries' when built in) at each
// typesize, with a memcpy of the same buffer in every round. Each
// kernel's output is checked against the portable kernel's first.
func (r *runner) kernels(s suite, p *pass) error {
	for _, size := range s.kernelSizes {
		src := aligned(size)
		for i := range src {
			src[i] = byte(i*7 + i>>9)
		}
		dst, back, ref, cp := aligned(size), aligned(size), aligned(size), aligned(size)
		held := 5 * footprint(size) // counted with this size's first group
		for _, family := range []string{"shuffle", "bitshuffle"} {
			ks := cpu.Kernels(family)
			if len(ks) == 0 {
				return fmt.Errorf("no %s kernels registered", family)
			}
			for _, ts := range s.kernelTypesizes {
				if family == "shuffle" && ts == 1 {
					continue // a byte shuffle of 1-byte elements is a copy
				}
				base := fmt.Sprintf("Kernel/family=%s/ts=%d/n=%s", family, ts, sizeName(size))
				if !r.wanted(base) {
					continue
				}
				ks[0].Shuffle(ref, src, ts) // the portable kernel comes first
				var timed []extraKernel
				for _, k := range ks {
					if k.Available() {
						timed = append(timed, extraKernel{family: family, name: k.Name(),
							usable: func(n, _ int) int { return n }, shuffle: k.Shuffle, unshuffle: k.Unshuffle})
					}
				}
				for _, x := range extraKernels {
					if x.family == family {
						timed = append(timed, x)
					}
				}
				type kop struct {
					kernel, op string
					m          int
					f          func()
					iters      int
				}
				var ops []*kop
				for _, k := range timed {
					m := k.usable(size, ts)
					if m == 0 {
						continue
					}
					d, sr, b := dst[:m], src[:m], back[:m]
					k.shuffle(d, sr, ts)
					// A kernel that covers only part of the buffer (C's bit
					// shuffle) writes another layout than the whole
					// buffer's, so only its inverse is checked.
					if m == size && !bytes.Equal(d, ref) {
						return fmt.Errorf("%s kernel %s ts=%d size=%d disagrees with the portable kernel", family, k.name, ts, size)
					}
					k.unshuffle(b, d, ts)
					if !bytes.Equal(b, sr) {
						return fmt.Errorf("%s kernel %s ts=%d size=%d does not invert", family, k.name, ts, size)
					}
					name := nameSafe(k.name)
					ops = append(ops, &kop{kernel: name, op: "shuffle", m: m, f: func() { k.shuffle(d, sr, ts) }},
						&kop{kernel: name, op: "unshuffle", m: m, f: func() { k.unshuffle(b, d, ts) }})
				}
				memcpy := func() { copy(cp, src) }
				g := &group{held: held, bytes: len(src), memcpy: memcpy, nm: calibrate(s.opTime/2, memcpy)}
				g.mper = perCall(s.opTime/2, g.nm)
				held = 0
				for _, op := range ops {
					op.iters = calibrate(s.opTime, op.f)
					g.fs = append(g.fs, op.f)
					g.iters = append(g.iters, op.iters)
					g.per = append(g.per, perCall(s.opTime, op.iters))
				}
				g.emit = func(round int, tms, ts2 []float64) error {
					tm := slices.Min(append(tms, math.Inf(1)))
					mc := kernelSample{Name: base + "/kernel=memcpy/op=copy", Family: family, Kernel: "memcpy", Typesize: ts, Bytes: size, Buffer: size,
						Op: "copy", Round: round, Iters: g.nm, NsPerOp: tm, MBps: float64(size) / tm * 1e3, XMemcpy: 1}
					r.Kernels = append(r.Kernels, mc)
					r.line(mc.Name, g.nm, mc.NsPerOp, "ns/op", mc.MBps, "MB/s")
					for i, op := range ops {
						t, tm := ts2[i], tms[i]
						ks := kernelSample{Name: base + "/kernel=" + op.kernel + "/op=" + op.op, Family: family, Kernel: op.kernel,
							Typesize: ts, Bytes: op.m, Buffer: size, Op: op.op, Round: round, Iters: op.iters, NsPerOp: t,
							MBps: float64(op.m) / t * 1e3, XMemcpy: (float64(op.m) / t) / (float64(size) / tm)}
						r.Kernels = append(r.Kernels, ks)
						r.line(ks.Name, ks.Iters, ks.NsPerOp, "ns/op", ks.MBps, "MB/s", ks.XMemcpy, "x-memcpy")
					}
					return nil
				}
				if err := p.add(g); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
