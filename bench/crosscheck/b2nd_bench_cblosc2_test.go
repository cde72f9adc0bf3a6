//go:build cblosc2 && cgo

package crosscheck

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// b2ndBenchBytes is the size of the arrays BenchmarkB2NDVersusC makes:
// GOBLOSC_B2ND_BENCH_MB MiB, 16 MiB by default so that a plain run stays
// short (docs/b2nd.md's command sets 256 MiB).
func b2ndBenchBytes(b *testing.B) int {
	if s := os.Getenv("GOBLOSC_B2ND_BENCH_MB"); s != "" {
		mb, err := strconv.Atoi(s)
		if err != nil || mb <= 0 {
			b.Fatalf("GOBLOSC_B2ND_BENCH_MB=%q", s)
		}
		return mb << 20
	}
	return 16 << 20
}

// b2ndBox is a slice a benchmark reads.
type b2ndBox struct {
	name        string
	start, stop []int64
}

// b2ndBoxes are the slices of about 1% of an array of shape that
// BenchmarkB2NDVersusC reads: a band of whole rows (the first dimension
// cut), a band of whole columns (the last dimension cut) and a box in the
// middle whose sides are each the same fraction of the array's.
func b2ndBoxes(shape []int64) []b2ndBox {
	nd := len(shape)
	band := func(axis int) b2ndBox {
		start, stop := make([]int64, nd), append([]int64(nil), shape...)
		w := max(1, (shape[axis]+50)/100)
		start[axis] = (shape[axis] - w) / 2
		stop[axis] = start[axis] + w
		return b2ndBox{start: start, stop: stop}
	}
	rows, cols := band(0), band(nd-1)
	rows.name, cols.name = "rows", "cols"
	cube := b2ndBox{name: "cube", start: make([]int64, nd), stop: make([]int64, nd)}
	for i, s := range shape {
		// 0.1 of each side in 2-D; 1/4, 1/5, 1/5 in 3-D.
		div := int64(10)
		if nd == 3 {
			div = 5
			if i == 0 {
				div = 4
			}
		}
		side := s / div
		cube.start[i] = (s - side) / 2
		cube.stop[i] = cube.start[i] + side
	}
	return []b2ndBox{rows, cols, cube}
}

// b2ndBenchType is the element type of BenchmarkB2NDVersusC's arrays:
// float64 (linspace_f64), or float32 (f32_noise) when
// GOBLOSC_B2ND_BENCH_TYPE is f4, int16 (arange_i16) when it is i2, which
// time the kernels of 4- and 2-byte items.
func b2ndBenchType(b *testing.B) (dtype, pattern string, itemsize int) {
	switch s := os.Getenv("GOBLOSC_B2ND_BENCH_TYPE"); s {
	case "", "f8":
		return "<f8", "linspace_f64", 8
	case "f4":
		return "<f4", "f32_noise", 4
	case "i2":
		return "<i2", "arange_i16", 2
	default:
		b.Fatalf("GOBLOSC_B2ND_BENCH_TYPE=%q", s)
	}
	return "", "", 0
}

// BenchmarkB2NDVersusC alternates Go and c-blosc2 on 2-D and 3-D float64
// arrays (see b2ndBenchBytes and b2ndBenchType), LZ4 and zstd over a byte shuffle, at 1 and
// 2 threads: making the array from C-order data (b2nd_from_cbuffer),
// reading it whole (b2nd_to_cbuffer) and reading slices of 1% of it
// (b2nd_get_slice_cbuffer: a band of rows, a band of columns, a box),
// both sides reading c-blosc2's frame, in memory and from a file. It
// reports the c/go time ratios of the best of each (above 1: Go is
// faster) and each side's GB/s (of the array, or of the slice). At one
// thread it also reports the ratios of the best CPU times of the
// benchmark's thread ("-cpu-c/go"), which both sides run on alone: on a
// shared machine they move much less than the wall-clock ones.
func BenchmarkB2NDVersusC(b *testing.B) {
	n := b2ndBenchBytes(b)
	_, pattern, itemsize := b2ndBenchType(b)
	items := int64(n / itemsize)
	sets := []struct {
		name           string
		shape          []int64
		chunks, blocks []int32
	}{
		{"2d", []int64{items / 1024, 1024}, []int32{512, 512}, []int32{64, 64}},
		{"3d", []int64{items / (128 * 128), 128, 128}, []int32{64, 64, 64}, []int32{16, 16, 16}},
	}
	for _, set := range sets {
		for _, codec := range []blosc.Codec{blosc.LZ4, blosc.Zstd} {
			for _, th := range []int{1, 2} {
				name := fmt.Sprintf("n=%dMiB/%s/%s/%s/threads=%d", n>>20, set.name, pattern, codec, th)
				b.Run(name, func(b *testing.B) { benchB2NDSet(b, set.shape, set.chunks, set.blocks, codec, th) })
			}
		}
	}
}

func benchB2NDSet(b *testing.B, shape []int64, chunks, blocks []int32, codec blosc.Codec, th int) {
	nitems := int64(1)
	for _, s := range shape {
		nitems *= s
	}
	dtype, pattern, itemsize := b2ndBenchType(b)
	in := golden.MustPattern(b, pattern, int(nitems)*itemsize)
	level := 5
	if codec == blosc.Zstd {
		level = 1
	}
	o := blosc.Options{Codec: codec, Level: level, Typesize: itemsize, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: th}
	p := b2nd.Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, DType: dtype, Options: o}
	cp := cParams(o)
	boxes := b2ndBoxes(shape)
	out := make([]byte, len(in))
	sl := make([]byte, len(in))
	var tGm, tCm, tGr, tCr frametest.Best
	tGs := make([]frametest.Best, 2*len(boxes)) // per box: in memory, from the file
	tCs := make([]frametest.Best, 2*len(boxes))
	// The same, in CPU time of the thread (one thread only).
	var uGm, uCm, uGr, uCr frametest.Best
	uGs := make([]frametest.Best, 2*len(boxes))
	uCs := make([]frametest.Best, 2*len(boxes))
	useCPU := th == 1
	if useCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	// timed times f into wall, and into cpu at one thread.
	timed := func(wall, cpu *frametest.Best, f func() error) error {
		c0, ok := cputime.Thread()
		err := wall.Time(f)
		if c1, _ := cputime.Thread(); useCPU && ok {
			if d := frametest.Best(c1 - c0); *cpu == 0 || d < *cpu {
				*cpu = d
			}
		}
		return err
	}
	ca, err := cblosc2.ArrayFromCBuffer(cp, shape, chunks, blocks, dtype, in)
	if err != nil {
		b.Fatal(err)
	}
	cframe, err := ca.Frame()
	ca.Free()
	if err != nil {
		b.Fatal(err)
	}
	// The same frame as a file, both sides reading it lazily (from the
	// page cache).
	path := filepath.Join(b.TempDir(), "a.b2nd")
	if err := os.WriteFile(path, cframe, 0o644); err != nil {
		b.Fatal(err)
	}
	gf, err := b2nd.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer gf.Close()
	gf.SetThreads(th)
	// What each slice reads of the file (untimed): the bytes a reader
	// through a counting io.ReaderAt reads, against the compressed bytes
	// of the blocks the slice touches and the chunks they lie in, counted
	// from the chunks' block starts.
	gm0, err := b2nd.OpenBytes(cframe)
	if err != nil {
		b.Fatal(err)
	}
	readKB := map[string]float64{}
	for _, box := range boxes {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		cr := &countingReaderAt{r: f}
		ga, err := b2nd.OpenReaderAt(cr, int64(len(cframe)))
		if err != nil {
			b.Fatal(err)
		}
		ga.SetThreads(th)
		opened := cr.n.Load()
		if _, err := ga.GetSlice(nil, box.start, box.stop); err != nil {
			b.Fatal(err)
		}
		read := cr.n.Load() - opened
		f.Close()
		blocksBytes, nchunks := b2ndTouchedBytes(b, gm0.SChunk(), shape, chunks, blocks, box.start, box.stop)
		// A lazy chunk reads its first 4 KiB (its header and block
		// starts) before its blocks: more than that is a defect.
		if read > blocksBytes+nchunks*4096 {
			b.Fatalf("%s: a slice read %d bytes of the file; its blocks hold %d, in %d chunks", box.name, read, blocksBytes, nchunks)
		}
		readKB[box.name+"file-read-KB"] = float64(read) / 1024
		readKB[box.name+"-blocks-KB"] = float64(blocksBytes) / 1024
	}
	cf, err := cblosc2.OpenArray(path)
	if err != nil {
		b.Fatal(err)
	}
	defer cf.Free()
	gm, err := b2nd.OpenBytes(cframe)
	if err != nil {
		b.Fatal(err)
	}
	gm.SetThreads(th)
	cm, err := cblosc2.ArrayFromFrame(cframe)
	if err != nil {
		b.Fatal(err)
	}
	defer cm.Free()
	for _, c := range []*cblosc2.Array{cm, cf} {
		if err := c.SetThreads(th); err != nil {
			b.Fatal(err)
		}
	}
	check := func(what string, err error) {
		if err != nil {
			b.Fatalf("%s: %v", what, err)
		}
	}
	round := func() {
		check("go make", timed(&tGm, &uGm, func() error { _, err := b2nd.FromBuffer(p, in); return err }))
		check("c make", timed(&tCm, &uCm, func() error {
			a, err := cblosc2.ArrayFromCBuffer(cp, shape, chunks, blocks, dtype, in)
			if err == nil {
				a.Free()
			}
			return err
		}))
		check("go read", timed(&tGr, &uGr, func() error { _, err := gm.Read(out); return err }))
		check("c read", timed(&tCr, &uCr, func() error { _, err := cm.ToCBuffer(out); return err }))
		// A slice is short next to a make: each is read a few times
		// per round, so that its best time is one from warm caches (and
		// not one a collection of the make's garbage interrupted).
		for range 4 {
			for i, box := range boxes {
				for j, ga := range []*b2nd.Array{gm, gf} {
					c := []*cblosc2.Array{cm, cf}[j]
					check("go "+box.name, timed(&tGs[2*i+j], &uGs[2*i+j], func() error { _, err := ga.GetSlice(sl, box.start, box.stop); return err }))
					check("c "+box.name, timed(&tCs[2*i+j], &uCs[2*i+j], func() error { _, err := c.GetSlice(sl, box.start, box.stop); return err }))
				}
			}
		}
	}
	round()
	for b.Loop() {
		round()
	}
	frametest.ReportSpeeds(b, len(in), map[string]frametest.Best{"go-make": tGm, "c-make": tCm, "go-read": tGr, "c-read": tCr})
	ratios := map[string][2]frametest.Best{"make-c/go": {tCm, tGm}, "read-c/go": {tCr, tGr}}
	for i, box := range boxes {
		ratios[box.name+"-c/go"] = [2]frametest.Best{tCs[2*i], tGs[2*i]}
		ratios[box.name+"file-c/go"] = [2]frametest.Best{tCs[2*i+1], tGs[2*i+1]}
	}
	if useCPU && uGm > 0 && uCm > 0 {
		ratios["make-cpu-c/go"] = [2]frametest.Best{uCm, uGm}
		ratios["read-cpu-c/go"] = [2]frametest.Best{uCr, uGr}
		for i, box := range boxes {
			ratios[box.name+"-cpu-c/go"] = [2]frametest.Best{uCs[2*i], uGs[2*i]}
			ratios[box.name+"file-cpu-c/go"] = [2]frametest.Best{uCs[2*i+1], uGs[2*i+1]}
		}
	}
	frametest.ReportRatios(b, ratios)
	for name, v := range readKB {
		b.ReportMetric(v, name)
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// b2ndTouchedBytes returns the compressed bytes of the blocks of sc's
// chunks that the slice [start, stop) of an array of shape in chunks and
// blocks of those shapes touches, from each chunk's header and block
// starts, and the number of chunks it touches.
func b2ndTouchedBytes(b *testing.B, sc *blosc.SChunk, shape []int64, chunks, blocks []int32, start, stop []int64) (total, nchunks int64) {
	nd := len(shape)
	grid := make([]int64, nd)    // chunks per dimension
	inChunk := make([]int64, nd) // blocks per dimension of a chunk
	for i := range nd {
		grid[i] = (shape[i] + int64(chunks[i]) - 1) / int64(chunks[i])
		inChunk[i] = (int64(chunks[i]) + int64(blocks[i]) - 1) / int64(blocks[i])
	}
	// each calls fn with every coordinate vector of the box [lo, hi).
	each := func(lo, hi []int64, fn func(c []int64)) {
		c := append([]int64(nil), lo...)
		for {
			fn(c)
			i := nd - 1
			for ; i >= 0; i-- {
				if c[i]++; c[i] < hi[i] {
					break
				}
				c[i] = lo[i]
			}
			if i < 0 {
				return
			}
		}
	}
	clo, chi := make([]int64, nd), make([]int64, nd)
	for i := range nd {
		clo[i], chi[i] = start[i]/int64(chunks[i]), (stop[i]+int64(chunks[i])-1)/int64(chunks[i])
	}
	each(clo, chi, func(cc []int64) {
		n := int64(0)
		for i := range nd {
			n = n*grid[i] + cc[i]
		}
		c, err := sc.Chunk(nil, int(n))
		if err != nil {
			b.Fatal(err)
		}
		nchunks++
		if c[2]&0x2 != 0 || c[31]&0x70 != 0 {
			// A copied (memcpyed) or special chunk has no block starts.
			total += int64(len(c))
			return
		}
		nbytes, bsize := binary.LittleEndian.Uint32(c[4:]), binary.LittleEndian.Uint32(c[8:])
		starts := make([]int64, (nbytes+bsize-1)/bsize)
		for j := range starts {
			starts[j] = int64(binary.LittleEndian.Uint32(c[32+4*j:]))
		}
		blo, bhi := make([]int64, nd), make([]int64, nd)
		for i := range nd {
			c0 := cc[i] * int64(chunks[i])
			lo, hi := max(start[i], c0)-c0, min(stop[i], c0+int64(chunks[i]))-c0
			blo[i], bhi[i] = lo/int64(blocks[i]), (hi+int64(blocks[i])-1)/int64(blocks[i])
		}
		each(blo, bhi, func(bc []int64) {
			k := int64(0)
			for i := range nd {
				k = k*inChunk[i] + bc[i]
			}
			end := int64(len(c))
			for _, s := range starts {
				if s > starts[k] && s < end {
					end = s
				}
			}
			total += end - starts[k]
		})
	})
	return total, nchunks
}
