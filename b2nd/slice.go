package b2nd

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/le"
	"github.com/goblosc/blosc/internal/schunkhook"
)

// checkSlice checks start and stop against the shape and returns the
// slice's size in bytes.
func (g *geom) checkSlice(start, stop []int64) (int, error) {
	if len(start) != g.ndim() || len(stop) != g.ndim() {
		return 0, fmt.Errorf("%w: a slice of %d and %d dimensions of a %d-dimensional array", blosc.ErrRange, len(start), len(stop), g.ndim())
	}
	n := int64(g.itemsize)
	for i := range start {
		if start[i] < 0 || start[i] > stop[i] || stop[i] > g.shape[i] {
			return 0, fmt.Errorf("%w: slice [%d, %d) of dimension %d of %d items", blosc.ErrRange, start[i], stop[i], i, g.shape[i])
		}
		n *= stop[i] - start[i] // no overflow: at most the array's size
	}
	if n > math.MaxInt {
		return 0, fmt.Errorf("%w: a slice of %d bytes", blosc.ErrTooLarge, n)
	}
	return int(n), nil
}

// sliceWalk visits the chunks a non-empty slice [start, stop) touches and,
// in each, the runs of consecutive stored blocks it touches, in storage
// order. For each block, visit gets the block's index in its chunk and the
// block's first array coordinates.
type sliceWalk struct {
	g           *geom
	start, stop []int64
	// scratch coordinates
	cc, clo, chi, bc, blo, bhi, origin []int64
}

func newSliceWalk(g *geom, start, stop []int64) *sliceWalk {
	w := new(sliceWalk)
	w.init(g, start, stop, make([]int64, 7*g.ndim()))
	return w
}

// init sets w up over buf (7 coordinates per dimension).
func (w *sliceWalk) init(g *geom, start, stop, buf []int64) {
	n := g.ndim()
	w.g, w.start, w.stop = g, start, stop
	w.cc, w.clo, w.chi = buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n]
	w.bc, w.blo, w.bhi = buf[3*n:4*n:4*n], buf[4*n:5*n:5*n], buf[5*n:6*n:6*n]
	w.origin = buf[6*n : 7*n : 7*n]
}

// firstChunk makes the first chunk the slice touches the current one.
func (w *sliceWalk) firstChunk() bool {
	g := w.g
	for i := range g.ndim() {
		w.clo[i] = w.start[i] / g.chunk[i]
		w.chi[i] = (w.stop[i] + g.chunk[i] - 1) / g.chunk[i]
	}
	copy(w.cc, w.clo)
	return true
}

// nextChunk moves to the next chunk the slice touches, or reports there
// is none.
func (w *sliceWalk) nextChunk() bool {
	for i := w.g.ndim() - 1; i >= 0; i-- {
		if w.cc[i]++; w.cc[i] < w.chi[i] {
			return true
		}
		w.cc[i] = w.clo[i]
	}
	return false
}

// nchunk returns the current chunk's index.
func (w *sliceWalk) nchunk() int64 {
	var n int64
	for i, c := range w.cc {
		n += c * w.g.chunkStrides[i]
	}
	return n
}

// chunkCovered reports whether the slice covers every item of the current
// chunk that lies inside the array.
func (w *sliceWalk) chunkCovered() bool {
	g := w.g
	for i := range g.ndim() {
		lo := w.cc[i] * g.chunk[i]
		hi := min(lo+g.chunk[i], g.shape[i])
		if lo < w.start[i] || hi > w.stop[i] {
			return false
		}
	}
	return true
}

// chunkWhole reports whether the current chunk's stored bytes are all
// items of the array: the chunk lies inside the array and its blocks
// tile it exactly, so it has no padding.
func (w *sliceWalk) chunkWhole() bool {
	g := w.g
	for i := range g.ndim() {
		if (w.cc[i]+1)*g.chunk[i] > g.shape[i] || g.extChunk[i] != g.chunk[i] {
			return false
		}
	}
	return true
}

// blocks calls fn for every block of the current chunk the slice touches,
// in storage order, with the block's index in the chunk; w.origin holds
// the block's first array coordinates during the call.
func (w *sliceWalk) blocks(fn func(nblock int64) error) error {
	for more := w.firstBlock(); more; more = w.nextBlock() {
		if err := fn(w.nblock()); err != nil {
			return err
		}
	}
	return nil
}

// firstBlock makes the first block of the current chunk the slice touches
// the current one.
func (w *sliceWalk) firstBlock() bool {
	g := w.g
	for i := range g.ndim() {
		c0 := w.cc[i] * g.chunk[i]
		lo := max(w.start[i], c0) - c0
		hi := min(w.stop[i], c0+g.chunk[i]) - c0
		w.blo[i] = lo / g.block[i]
		w.bhi[i] = (hi + g.block[i] - 1) / g.block[i]
	}
	copy(w.bc, w.blo)
	return true
}

// nextBlock moves to the chunk's next block the slice touches, or reports
// there is none.
func (w *sliceWalk) nextBlock() bool {
	for i := w.g.ndim() - 1; i >= 0; i-- {
		if w.bc[i]++; w.bc[i] < w.bhi[i] {
			return true
		}
		w.bc[i] = w.blo[i]
	}
	return false
}

// nblock returns the current block's index in its chunk, and sets
// w.origin to its first array coordinates.
func (w *sliceWalk) nblock() int64 {
	g := w.g
	var n int64
	for i := range g.ndim() {
		n += w.bc[i] * g.blockStrides[i]
		w.origin[i] = w.cc[i]*g.chunk[i] + w.bc[i]*g.block[i]
	}
	return n
}

// maxRunBytes bounds the scratch GetSlice decodes a run of consecutive
// blocks into (one block when blocks are larger).
const maxRunBytes = 8 << 20

// GetSlice returns the items of [start, stop) (one start and stop per
// dimension) in C order, reusing dst when it has room. It decodes only the
// chunks the slice touches and, within them, only the blocks it touches;
// a frame in a file reads only those chunks' bytes (and, where the frame
// layer can, only those blocks').
func (a *Array) GetSlice(dst []byte, start, stop []int64) ([]byte, error) {
	if err := a.rlock(); err != nil {
		return nil, err
	}
	defer a.runlock()
	return a.getSlice(dst, start, stop)
}

func (a *Array) getSlice(dst []byte, start, stop []int64) ([]byte, error) {
	g := a.g
	n, err := g.checkSlice(start, stop)
	if err != nil {
		return nil, err
	}
	out := dst[:cap(dst)]
	if len(out) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	if n == 0 {
		return out, nil
	}
	if g.ndim() == 0 {
		if _, err := a.sc.ReadAt(out, 0); err != nil {
			return nil, fmt.Errorf("b2nd: %w", err)
		}
		return out, nil
	}
	nchunks := int64(1)
	for i := range start {
		nchunks *= (stop[i]+g.chunk[i]-1)/g.chunk[i] - start[i]/g.chunk[i]
	}
	threads := a.opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = int(min(int64(threads), nchunks, int64(n/parallelMinBytes)))
	if threads <= 1 {
		r := a.sliceReader(out, start, stop)
		var err error
		for more := r.w.firstChunk(); more && err == nil; more = r.w.nextChunk() {
			err = r.chunk(r.w.nchunk())
		}
		a.putReader(r)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	if err := a.getParallel(out, start, stop, nchunks, threads); err != nil {
		return nil, err
	}
	return out, nil
}

// getParallel is GetSlice's read of nchunks chunks by several workers,
// each with its own walk and scratch (the chunks' parts of out are
// disjoint).
func (a *Array) getParallel(out []byte, start, stop []int64, nchunks int64, threads int) error {
	g := a.g
	r0 := a.sliceReader(out, start, stop)
	coords := make([]int64, 0, nchunks*int64(g.ndim()))
	for more := r0.w.firstChunk(); more; more = r0.w.nextChunk() {
		coords = append(coords, r0.w.cc...)
	}
	a.putReader(r0)
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := a.sliceReader(out, start, stop)
			defer a.putReader(r)
			for !failed.Load() {
				k := next.Add(1) - 1
				if k >= nchunks {
					return
				}
				copy(r.w.cc, coords[k*int64(g.ndim()):])
				if err := r.chunk(r.w.nchunk()); err != nil {
					errs[t] = err
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// parallelMinBytes is the least slice size per worker worth a goroutine.
const parallelMinBytes = 256 << 10

// sliceReader copies the blocks of a slice out of the chunks, one chunk at
// a time; each worker of a parallel GetSlice has its own. The array keeps
// them for the next reads, so that a slice read allocates nothing.
type sliceReader struct {
	a                       *Array
	out                     []byte
	sliceShape, start, stop []int64
	w                       sliceWalk
	scratch                 []byte
	cr                      blosc.ChunkReader
	cur                     int64             // the chunk cr reads, or -1
	run                     []int64           // the blocks of the current run
	origins                 []int64           // and their first array coordinates
	gatherFn                func(*[16][]byte) // r.gatherStreams, made once
	blocks                  []int64           // the blocks load reads
	coords                  [10 * MaxDim]int64
}

// sliceReader returns a reader of [start, stop) into out, from the pool.
func (a *Array) sliceReader(out []byte, start, stop []int64) *sliceReader {
	r, _ := a.readers.Get().(*sliceReader)
	if r == nil {
		r = &sliceReader{a: a}
	}
	nd := len(start)
	r.out, r.cur = out, -1
	c := r.coords[:]
	r.start, r.stop, r.sliceShape = c[:nd:nd], c[nd:2*nd:2*nd], c[2*nd:3*nd:3*nd]
	copy(r.start, start)
	copy(r.stop, stop)
	for i := range nd {
		r.sliceShape[i] = stop[i] - start[i]
	}
	r.w.init(a.g, r.start, r.stop, c[3*nd:10*nd])
	r.run, r.origins = r.run[:0], r.origins[:0]
	return r
}

// putReader returns r to the pool, without the caller's buffer.
func (a *Array) putReader(r *sliceReader) {
	r.out = nil
	a.readers.Put(r)
}

// chunk copies the slice's part of chunk nchunk (the walk's current
// chunk) out.
func (r *sliceReader) chunk(nchunk int64) error {
	g := r.a.g
	if g.chunkBytes <= maxRunBytes && r.w.chunkCovered() && r.w.chunkWhole() {
		// The whole chunk, copied out in the slice's order (see copyChunk).
		if err := r.open(nchunk); err != nil {
			return err
		}
		if cap(r.scratch) < g.chunkBytes {
			r.scratch = make([]byte, g.chunkBytes)
		}
		buf := r.scratch[:g.chunkBytes]
		if _, err := r.cr.ReadAt(buf, 0); err != nil {
			return fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
		}
		origin := r.w.origin
		for i := range g.ndim() {
			origin[i] = r.w.cc[i] * g.chunk[i]
		}
		copyChunk(buf, g, origin, r.out, r.sliceShape, r.start, false)
		return nil
	}
	if err := r.load(nchunk); err != nil {
		return err
	}
	bb := int64(g.blockBytes)
	for more := r.w.firstBlock(); more; more = r.w.nextBlock() {
		nblock := r.w.nblock()
		if lo, hi := r.span(r.w.origin); 4*r.need(r.w.origin) <= hi-lo || r.unshufflesRows(r.w.origin, hi-lo) {
			// A few items spread through the block (a band of columns):
			// they are gathered from its decoded streams, nothing else
			// unshuffled and no copy made of the block's part. Their
			// span is most of the block, which a partial read would
			// unshuffle whole, then copy out row by row. A box of
			// the block (most of each of a part of its rows) goes the
			// same way where a kernel unshuffles its rows from the
			// streams straight into the output (see unshufflesRows).
			if err := r.flush(nchunk); err != nil {
				return err
			}
			if ok, err := r.gather(nchunk, nblock); err != nil {
				return err
			} else if ok {
				continue
			}
		}
		if lo, hi := r.span(r.w.origin); hi-lo < bb && (4*(hi-lo) <= bb || r.readsPart(nchunk, nblock*bb+lo, hi-lo)) {
			// Part of the block (a plane of a 3-D block, a third of the
			// rows of a 2-D one): only its bytes are read, which decodes
			// the block's streams but unshuffles only the part. Where a
			// kernel unshuffles the part straight into buf
			// (schunkhook.ReadsPart), that beats decoding the block
			// whole at any size of part: a band of 41 rows of a 2-D
			// array, which needs a third of each block it touches, went
			// 15% faster (CPU time of BenchmarkGetSliceShapes/2d/rows)
			// and no other slice lost. Elsewhere a part over a quarter
			// of the block is decoded whole, then copied out, a copy
			// more than a run does: up to 8% slower for the 2-D box
			// under -tags purego, so those parts join runs.
			if err := r.flush(nchunk); err != nil {
				return err
			}
			if err := r.part(nchunk, nblock, lo, hi); err != nil {
				return err
			}
			continue
		}
		// A run ends at a gap, or where its scratch would pass
		// maxRunBytes (or one block, if blocks are larger).
		if len(r.run) > 0 && (r.run[len(r.run)-1]+1 != nblock || int64(len(r.run)+1)*bb > max(bb, maxRunBytes)) {
			if err := r.flush(nchunk); err != nil {
				return err
			}
		}
		r.run = append(r.run, nblock)
		r.origins = append(r.origins, r.w.origin...)
	}
	return r.flush(nchunk)
}

// flush reads the run of consecutive blocks of chunk nchunk and copies
// each block's part of the slice out.
func (r *sliceReader) flush(nchunk int64) error {
	if len(r.run) == 0 {
		return nil
	}
	g := r.a.g
	bb := int64(g.blockBytes)
	size := int64(len(r.run)) * bb
	if int64(cap(r.scratch)) < size {
		r.scratch = make([]byte, size)
	}
	buf := r.scratch[:size]
	if err := r.open(nchunk); err != nil {
		return err
	}
	if _, err := r.cr.ReadAt(buf, r.run[0]*bb); err != nil {
		return fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
	}
	nd := g.ndim()
	for k := range r.run {
		origin := r.origins[k*nd : (k+1)*nd]
		copyBlockOut(r.out, r.sliceShape, r.start, r.stop, buf[int64(k)*bb:int64(k+1)*bb], g.block, origin, g.itemsize)
	}
	r.run, r.origins = r.run[:0], r.origins[:0]
	return nil
}

// span returns the bytes of the block whose first item sits at array
// coordinates origin from the slice's first item in it to its last.
func (r *sliceReader) span(origin []int64) (lo, hi int64) {
	g := r.a.g
	var first, last int64
	stride := int64(g.itemsize)
	for i := g.ndim() - 1; i >= 0; i-- {
		l := max(r.start[i], origin[i]) - origin[i]
		h := min(r.stop[i], origin[i]+g.block[i]) - origin[i]
		first += l * stride
		last += (h - 1) * stride
		stride *= g.block[i]
	}
	return first, last + int64(g.itemsize)
}

// load reads the compressed bytes of the blocks of chunk nchunk that the
// slice touches, when the chunk is read lazily from a frame file: runs
// of adjacent blocks with one read each (schunkhook.LoadBlocks), where
// reading the parts of blocks one at a time read the file once a block.
func (r *sliceReader) load(nchunk int64) error {
	if err := r.open(nchunk); err != nil {
		return err
	}
	if lazy, _ := schunkhook.LoadBlocks(&r.cr, nil); !lazy {
		return nil
	}
	r.blocks = r.blocks[:0]
	for more := r.w.firstBlock(); more; more = r.w.nextBlock() {
		r.blocks = append(r.blocks, r.w.nblock())
	}
	if _, err := schunkhook.LoadBlocks(&r.cr, r.blocks); err != nil {
		return fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
	}
	return nil
}

// unshufflesRows reports whether the slice's items in the block whose
// first item sits at array coordinates origin, span bytes from the first
// to the last, are read through schunkhook.UnshuffleRows: they are not
// contiguous in the block (a box of the block, not a band of whole rows)
// or the block is whole but its rows are not contiguous in the slice (a
// band of rows wider than a block), their rows have at least
// unshuffleRowsMin items, and a kernel takes such rows of items of the
// array's size (at AVX2 rows of 16 items or more).
// Unshuffling a 3-D box's part of each block into scratch and copying
// its rows out (rows of 16 items or fewer) had been over a quarter of
// the box's time, and unshuffled the parts of rows outside the box too.
// Whole blocks had been decoded a run at a time and copied out a row at
// a time: through the kernel a 2-D band of 292 rows of 64x64 blocks
// reads a third faster, a 3-D one of 18 planes a tenth faster
// (BenchmarkGetSliceShapes/*/rowswide, CPU time). A contiguous part of
// a block (a band of a few planes of 3-D blocks) stays with the partial
// read, which unshuffles it straight into the slice in one piece: a
// sixth faster than through the kernel row by row.
func (r *sliceReader) unshufflesRows(origin []int64, span int64) bool {
	g := r.a.g
	last := g.ndim() - 1
	row := min(r.stop[last], origin[last]+g.block[last]) - max(r.start[last], origin[last])
	apart := r.need(origin) < span || span == int64(g.blockBytes) && row < r.stop[last]-r.start[last]
	return row >= unshuffleRowsMin && apart && schunkhook.UnshufflesRows(g.itemsize, row)
}

// unshuffleRowsMin is the fewest items of a row that gatherND hands to
// schunkhook.UnshuffleRows; rows of one item (a band one item thick
// along a 3-D array's last axis) are gathered in Go, which the kernel's
// call and masks per row made a quarter slower. From two items on the
// kernel wins (BenchmarkGatherRows): a 2-D band of columns (five items a
// row of a 64x64 block) went a sixth faster in CPU time.
const unshuffleRowsMin = 2

// need returns the bytes of the slice in the block whose first item sits
// at array coordinates origin.
func (r *sliceReader) need(origin []int64) int64 {
	g := r.a.g
	n := int64(g.itemsize)
	for i := range g.ndim() {
		n *= min(r.stop[i], origin[i]+g.block[i]) - max(r.start[i], origin[i])
	}
	return n
}

// gather copies the slice's items in block nblock of chunk nchunk (the
// walk's current block) out of the block's decoded streams
// (schunkhook.ReadBlockStreams) and reports whether the block was one
// whose streams it could read: shuffled whole items of 2 to 16 bytes.
func (r *sliceReader) gather(nchunk, nblock int64) (bool, error) {
	g := r.a.g
	if g.itemsize < 2 || g.itemsize > 16 {
		return false, nil
	}
	if err := r.open(nchunk); err != nil {
		return false, err
	}
	if r.gatherFn == nil {
		r.gatherFn = r.gatherStreams
	}
	ok, err := schunkhook.ReadBlockStreams(&r.cr, nblock, g.itemsize, r.gatherFn)
	if err != nil {
		return false, fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
	}
	return ok, nil
}

// gatherStreams copies the slice's items in the walk's current block out
// of the block's shuffle streams.
func (r *sliceReader) gatherStreams(streams *[16][]byte) {
	g := r.a.g
	nd := g.ndim()
	origin := r.w.origin
	var cnt, so, bo [MaxDim]int64
	for i := range nd {
		l := max(r.start[i], origin[i])
		h := min(r.stop[i], origin[i]+g.block[i])
		cnt[i] = h - l
		so[i], bo[i] = l-r.start[i], l-origin[i]
	}
	gatherND(r.out, r.sliceShape, so[:nd], streams, g.itemsize, g.block, bo[:nd], cnt[:nd])
}

// gatherND is copyND from a C-order array of srcShape items of ts bytes
// held as the ts streams of its byte shuffle: byte j of item e is
// streams[j][e].
func gatherND(dst []byte, dstShape, dstOff []int64, streams *[16][]byte, ts int, srcShape, srcOff, cnt []int64) {
	nd := len(cnt)
	for _, c := range cnt {
		if c == 0 {
			return
		}
	}
	var dstStride, srcStride [MaxDim]int64 // in items
	ds, ss := int64(1), int64(1)
	for i := nd - 1; i >= 0; i-- {
		dstStride[i], srcStride[i] = ds, ss
		ds *= dstShape[i]
		ss *= srcShape[i]
	}
	var dp, sp int64
	for i := range nd {
		dp += dstOff[i] * dstStride[i]
		sp += srcOff[i] * srcStride[i]
	}
	// Rows of the innermost dimension left go in a tight loop, as in
	// copyND: a band one item wide along the last axis of a 3-D array
	// is rows of one item, 256 of them in a block of 16^3.
	row := cnt[nd-1]
	n1, ds1, ss1 := int64(1), int64(0), int64(0)
	if nd > 1 {
		n1, ds1, ss1 = cnt[nd-2], dstStride[nd-2], srcStride[nd-2]
	}
	var idx [MaxDim]int64
	for {
		if row >= unshuffleRowsMin && schunkhook.UnshuffleRows(dst, streams, ts, dp, sp, row, n1, ds1, ss1) {
			// Unshuffled by a kernel, straight into dst.
		} else if ts == 8 {
			gatherRows8(dst, streams, dp, sp, row, n1, ds1, ss1)
		} else {
			for k := range n1 {
				gatherRow(dst[(dp+k*ds1)*int64(ts):(dp+k*ds1+row)*int64(ts)], streams, ts, sp+k*ss1)
			}
		}
		if !nextOuter(&idx, cnt, &dstStride, &srcStride, nd-3, &dp, &sp) {
			return
		}
	}
}

// gatherRows8 is gatherND's rows for 8-byte items: n1 rows of row items,
// the first at item dp of dst and item sp of the streams, the next ds1
// and ss1 items on.
//
// Rows of several items (a band of columns of a 2-D array: five items a
// row of a 64x64 block) take eight items at a time: one 8-byte load from
// each stream, a transpose of the 8x8 bytes in registers, then the row's
// items stored. The rows' ranges are checked once, so that the loads and
// stores go through internal/le unchecked where it can: with a bounds
// check on each, the eight streams' pointers and lengths did not fit the
// registers, and gathering item by item cost as much as the LZ4 decoding
// of the block.
func gatherRows8(dst []byte, streams *[16][]byte, dp, sp, row, n1, ds1, ss1 int64) {
	if row <= 0 || n1 <= 0 {
		return
	}
	s0, s1, s2, s3 := streams[0], streams[1], streams[2], streams[3]
	s4, s5, s6, s7 := streams[4], streams[5], streams[6], streams[7]
	n := int64(min(len(s0), len(s1), len(s2), len(s3), len(s4), len(s5), len(s6), len(s7)))
	// With strides not negative the last row ends furthest.
	if sp < 0 || dp < 0 || ss1 < 0 || ds1 < 0 || sp+(n1-1)*ss1+row > n || 8*(dp+(n1-1)*ds1+row) > int64(len(dst)) {
		// Not from gatherND: the checked copy, to fail loudly.
		for k := range n1 {
			gatherRow(dst[(dp+k*ds1)*8:(dp+k*ds1+row)*8], streams, 8, sp+k*ss1)
		}
		return
	}
	if row == 1 {
		// A band one item thick along the last axis of a 3-D array:
		// 256 rows of one item in a block of 16^3.
		for range n1 {
			e := int(sp)
			le.Store64(dst, int(8*dp), uint64(le.Load8(s0, e))|uint64(le.Load8(s1, e))<<8|
				uint64(le.Load8(s2, e))<<16|uint64(le.Load8(s3, e))<<24|
				uint64(le.Load8(s4, e))<<32|uint64(le.Load8(s5, e))<<40|
				uint64(le.Load8(s6, e))<<48|uint64(le.Load8(s7, e))<<56)
			dp += ds1
			sp += ss1
		}
		return
	}
	for range n1 {
		k := int64(0)
		if row >= gatherWideMin {
			for ; k < row && sp+k+8 <= n; k += 8 {
				e := int(sp + k)
				x0, x1 := le.Load64(s0, e), le.Load64(s1, e)
				x2, x3 := le.Load64(s2, e), le.Load64(s3, e)
				x4, x5 := le.Load64(s4, e), le.Load64(s5, e)
				x6, x7 := le.Load64(s6, e), le.Load64(s7, e)
				// Transpose the 8x8 bytes (row j: x_j's bytes in
				// little-endian order) so that byte j of x_i is byte i of
				// the loaded x_j: three rounds swap the bytes, 16-bit and
				// 32-bit pieces off the diagonal of pairs of rows.
				const m8, m16, m32 = 0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff
				t0, t1, t2, t3 := (x0>>8^x1)&m8, (x2>>8^x3)&m8, (x4>>8^x5)&m8, (x6>>8^x7)&m8
				x0, x1, x2, x3 = x0^t0<<8, x1^t0, x2^t1<<8, x3^t1
				x4, x5, x6, x7 = x4^t2<<8, x5^t2, x6^t3<<8, x7^t3
				t0, t1, t2, t3 = (x0>>16^x2)&m16, (x1>>16^x3)&m16, (x4>>16^x6)&m16, (x5>>16^x7)&m16
				x0, x2, x1, x3 = x0^t0<<16, x2^t0, x1^t1<<16, x3^t1
				x4, x6, x5, x7 = x4^t2<<16, x6^t2, x5^t3<<16, x7^t3
				t0, t1, t2, t3 = (x0>>32^x4)&m32, (x1>>32^x5)&m32, (x2>>32^x6)&m32, (x3>>32^x7)&m32
				x0, x4, x1, x5 = x0^t0<<32, x4^t0, x1^t1<<32, x5^t1
				x2, x6, x3, x7 = x2^t2<<32, x6^t2, x3^t3<<32, x7^t3
				// Store the row's items, eight or as many as it has left.
				d, left := int(8*(dp+k)), row-k
				le.Store64(dst, d, x0)
				if left > 1 {
					le.Store64(dst, d+8, x1)
				}
				if left > 2 {
					le.Store64(dst, d+16, x2)
				}
				if left > 3 {
					le.Store64(dst, d+24, x3)
				}
				if left > 4 {
					le.Store64(dst, d+32, x4)
				}
				if left > 5 {
					le.Store64(dst, d+40, x5)
				}
				if left > 6 {
					le.Store64(dst, d+48, x6)
				}
				if left > 7 {
					le.Store64(dst, d+56, x7)
				}
			}
		}
		for ; k < row; k++ {
			e := int(sp + k)
			le.Store64(dst, int(8*(dp+k)), uint64(le.Load8(s0, e))|uint64(le.Load8(s1, e))<<8|
				uint64(le.Load8(s2, e))<<16|uint64(le.Load8(s3, e))<<24|
				uint64(le.Load8(s4, e))<<32|uint64(le.Load8(s5, e))<<40|
				uint64(le.Load8(s6, e))<<48|uint64(le.Load8(s7, e))<<56)
		}
		dp += ds1
		sp += ss1
	}
}

// gatherWideMin is the fewest items of a row that gatherRows8 takes
// eight at a time: a transpose costs about as much as three items taken
// one by one.
const gatherWideMin = 3

// gatherRow fills dst with the len(dst)/ts items from item e on of the
// streams of a byte shuffle of ts-byte items.
func gatherRow(dst []byte, streams *[16][]byte, ts int, e int64) {
	n := int64(len(dst) / ts)
	for j := range ts {
		for k, b := range streams[j][e : e+n] {
			dst[k*ts+j] = b
		}
	}
}

// part reads bytes [lo, hi) of block nblock of chunk nchunk (the walk's
// current block) and copies the slice's items in them out.
func (r *sliceReader) part(nchunk, nblock, lo, hi int64) error {
	g := r.a.g
	bb := int64(g.blockBytes)
	if int64(cap(r.scratch)) < bb {
		r.scratch = make([]byte, bb)
	}
	buf := r.scratch[:bb]
	if err := r.open(nchunk); err != nil {
		return err
	}
	if _, err := r.cr.ReadAt(buf[lo:hi], nblock*bb+lo); err != nil {
		return fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
	}
	copyBlockOut(r.out, r.sliceShape, r.start, r.stop, buf, g.block, r.w.origin, g.itemsize)
	return nil
}

// readsPart reports whether reading the n bytes at off of chunk nchunk
// (inside one block) unshuffles only them (schunkhook.ReadsPart).
func (r *sliceReader) readsPart(nchunk, off, n int64) bool {
	return r.open(nchunk) == nil && schunkhook.ReadsPart(&r.cr, off, int(n))
}

// open makes chunk nchunk the one r.cr reads. One reader per chunk: a
// chunk in memory is decoded where it lies, a frame file's is read lazily
// (its header and block starts once, then the blocks the runs need), a
// sparse frame's chunk file once.
func (r *sliceReader) open(nchunk int64) error {
	if nchunk == r.cur {
		return nil
	}
	g := r.a.g
	r.cur = -1
	if err := r.a.sc.OpenChunk(&r.cr, int(nchunk)); err != nil {
		return fmt.Errorf("b2nd: chunk %d: %w", nchunk, err)
	}
	if r.cr.Nbytes() != g.chunkBytes {
		return fmt.Errorf("%w: chunk %d holds %d bytes, not the %d of a chunk of the array", blosc.ErrCorrupt, nchunk, r.cr.Nbytes(), g.chunkBytes)
	}
	r.cur = nchunk
	return nil
}

// Read returns the whole array in C order, reusing dst when it has room.
func (a *Array) Read(dst []byte) ([]byte, error) {
	if err := a.rlock(); err != nil {
		return nil, err
	}
	defer a.runlock()
	return a.getSlice(dst, make([]int64, len(a.meta.Shape)), a.meta.Shape)
}

// copyBlockOut copies the part of a block (of blockShape items, whose
// first item sits at array coordinates origin) inside the slice
// [start, stop) into out, the slice in C order.
func copyBlockOut(out []byte, sliceShape, start, stop []int64, block []byte, blockShape, origin []int64, itemsize int) {
	nd := len(start)
	var cnt, so, bo [MaxDim]int64
	for i := range nd {
		l := max(start[i], origin[i])
		h := min(stop[i], origin[i]+blockShape[i])
		cnt[i] = h - l
		so[i], bo[i] = l-start[i], l-origin[i]
	}
	copyND(out, sliceShape, so[:nd], block, blockShape, bo[:nd], cnt[:nd], itemsize)
}

// copyBlockIn copies the part of the slice [start, stop) (src, in C order)
// that lies in a block (of blockShape items, whose first item sits at
// array coordinates origin) into the block.
func copyBlockIn(block []byte, blockShape, origin []int64, src []byte, sliceShape, start, stop []int64, itemsize int) {
	nd := len(start)
	var cnt, so, bo [MaxDim]int64
	for i := range nd {
		l := max(start[i], origin[i])
		h := min(stop[i], origin[i]+blockShape[i])
		cnt[i] = h - l
		so[i], bo[i] = l-start[i], l-origin[i]
	}
	copyND(block, blockShape, bo[:nd], src, sliceShape, so[:nd], cnt[:nd], itemsize)
}

// copyND copies the box of cnt items per dimension at offset dstOff of a
// C-order array of dstShape items into dst, from offset srcOff of the
// C-order array src of srcShape items.
func copyND(dst []byte, dstShape, dstOff []int64, src []byte, srcShape, srcOff, cnt []int64, itemsize int) {
	nd := len(cnt)
	if nd == 0 {
		copy(dst[:itemsize], src)
		return
	}
	for _, c := range cnt {
		if c == 0 {
			return
		}
	}
	// Merge trailing dimensions both arrays hold whole into one row.
	last := nd - 1
	row := cnt[last] * int64(itemsize)
	for last > 0 && cnt[last] == dstShape[last] && cnt[last] == srcShape[last] {
		last--
		row *= cnt[last]
	}
	var dstStride, srcStride [MaxDim]int64
	ds, ss := int64(itemsize), int64(itemsize)
	for i := nd - 1; i >= 0; i-- {
		dstStride[i], srcStride[i] = ds, ss
		ds *= dstShape[i]
		ss *= srcShape[i]
	}
	var dp, sp int64
	for i := range nd {
		dp += dstOff[i] * dstStride[i]
		sp += srcOff[i] * srcStride[i]
	}
	var idx [MaxDim]int64
	if last == 0 {
		copyRow(dst[dp:], src[sp:], row)
		return
	}
	// The rows of the innermost dimension left in a tight loop, short
	// ones copied inline: a band one item wide along the last axis of a
	// 3-D array is rows of one item, and calling copy for each made its
	// slices 10% slower (CPU time of BenchmarkGetSliceShapes/3d/cols).
	n1, ds1, ss1 := cnt[last-1], dstStride[last-1], srcStride[last-1]
	for {
		for range n1 {
			copyRow(dst[dp:], src[sp:], row)
			dp += ds1
			sp += ss1
		}
		dp -= n1 * ds1
		sp -= n1 * ss1
		if !nextOuter(&idx, cnt, &dstStride, &srcStride, last-2, &dp, &sp) {
			return
		}
	}
}

// copyChunk copies between a chunk's stored bytes (chunk, which has no
// padding: see sliceWalk.chunkWhole) and the C-order box [start, ...) of
// sliceShape items (box) that covers it; co is the chunk's first array
// coordinates. in copies the box into the chunk, else the chunk into the
// box. It goes row by row of the box, each row a piece of a row of
// several blocks, so that the box (the caller's large buffer) is read or
// written in its order while the scattered accesses stay in the chunk,
// which the caches hold; block by block, small rows of the box are
// visited far apart (rows of 16 items of a 3-D block are a plane's width
// apart), and copying them took twice as long.
func copyChunk(chunk []byte, g *geom, co []int64, box []byte, sliceShape, start []int64, in bool) {
	copyChunks(chunk, 1, g, co, box, sliceShape, start, in, 0, g.chunkRows())
}

// chunkRows returns the rows of a chunk: its items over its last
// dimension's.
func (g *geom) chunkRows() int64 {
	rows := int64(1)
	for i := range g.ndim() - 1 {
		rows *= g.chunk[i]
	}
	return rows
}

// copyChunks is copyChunk for n chunks side by side along the last
// dimension (chunk j at chunks[j*chunkBytes:], its first coordinates co
// but for the last, co[last] + j*chunk[last]), and for their rows
// [r0, r1) only (a row: the chunks' items at given coordinates but for
// the last). A row of the box then runs across all n chunks: making a
// 3-D array of two chunks across its planes, a chunk's rows of 512 bytes
// sit 1 KiB apart in the box, and reading them chunk by chunk fetched
// the box at half the speed of reading whole rows of both (the
// prefetchers read the other half of each row too, then lost it).
// Workers that split a chunk's rows copy in parallel.
func copyChunks(chunks []byte, n int64, g *geom, co []int64, box []byte, sliceShape, start []int64, in bool, r0, r1 int64) {
	nd := g.ndim()
	if nd == 0 {
		if in {
			copy(chunks[:g.itemsize], box)
		} else {
			copy(box[:g.itemsize], chunks)
		}
		return
	}
	last := nd - 1
	isz := int64(g.itemsize)
	var boxStride, inner, idx [MaxDim]int64
	bs, is := isz, isz
	for i := last; i >= 0; i-- {
		boxStride[i], inner[i] = bs, is
		bs *= sliceShape[i]
		is *= g.block[i]
	}
	// idx: the coordinates in the chunk of row r0.
	for i, r := last-1, r0; i >= 0; i-- {
		idx[i] = r % g.chunk[i]
		r /= g.chunk[i]
	}
	bb := int64(g.blockBytes)
	cb := int64(g.chunkBytes)
	piece := g.block[last] * isz
	pieces := g.chunk[last] / g.block[last]
	span := g.chunk[last] * isz // a chunk's part of a row of the box
	for r := r0; r < r1; r++ {
		bo := (co[last] - start[last]) * isz
		var blk, off int64
		for i := range last {
			bo += (co[i] - start[i] + idx[i]) * boxStride[i]
			blk += idx[i] / g.block[i] * g.blockStrides[i]
			off += idx[i] % g.block[i] * inner[i]
		}
		co0 := blk*bb + off
		for j := range n {
			c, b := co0+j*cb, bo+j*span
			if in {
				for k := range pieces {
					copyRow(chunks[c+k*bb:], box[b+k*piece:], piece)
				}
			} else {
				for k := range pieces {
					copyRow(box[b+k*piece:], chunks[c+k*bb:], piece)
				}
			}
		}
		for i := last - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < g.chunk[i] {
				break
			}
			idx[i] = 0
		}
	}
}

// copyRow copies the first n bytes of src to dst, the short sizes of
// single items inline.
func copyRow(dst, src []byte, n int64) {
	switch n {
	case 8:
		*(*[8]byte)(dst) = *(*[8]byte)(src)
	case 4:
		*(*[4]byte)(dst) = *(*[4]byte)(src)
	case 16:
		*(*[16]byte)(dst) = *(*[16]byte)(src)
	case 2:
		*(*[2]byte)(dst) = *(*[2]byte)(src)
	case 1:
		dst[0] = src[0]
	case 128:
		*(*[128]byte)(dst) = *(*[128]byte)(src)
	case 64:
		*(*[64]byte)(dst) = *(*[64]byte)(src)
	default:
		copy(dst[:n], src[:n])
	}
}

// nextOuter steps the odometer idx over dimensions top down to 0 (the
// dimensions outside the inner loops), moving the offsets dp and sp by
// the strides, and reports false once every step is taken.
func nextOuter(idx *[MaxDim]int64, cnt []int64, dstStride, srcStride *[MaxDim]int64, top int, dp, sp *int64) bool {
	for i := top; i >= 0; i-- {
		idx[i]++
		*dp += dstStride[i]
		*sp += srcStride[i]
		if idx[i] < cnt[i] {
			return true
		}
		*dp -= cnt[i] * dstStride[i]
		*sp -= cnt[i] * srcStride[i]
		idx[i] = 0
	}
	return false
}
