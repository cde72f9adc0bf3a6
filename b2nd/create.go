package b2nd

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/schunkhook"
)

// Params describe a new array.
type Params struct {
	Shape []int64
	// ChunkShape and BlockShape are the shapes of the chunks and of their
	// blocks; nil chooses them as python-blosc2 does (DefaultShapes).
	ChunkShape, BlockShape []int32
	// DType is the NumPy dtype string stored in the metalayer; "" stores
	// "|u1" for items of one byte and "|V<n>" (raw bytes) for larger ones.
	DType string
	// Itemsize is the size of an item in bytes, 1 to 255; 0 takes it from
	// DType (which must then be a plain NumPy type string).
	Itemsize int
	// Options are the chunk options (codec, level, filters, threads);
	// Format, Typesize and Blocksize are set from the shapes.
	Options blosc.Options
	// Path, when not empty, makes the array a frame file there (replacing
	// any file), or with Sparse a sparse frame in the directory Path
	// (which must not exist); else the array is held in memory.
	Path   string
	Sparse bool
}

// itemsize resolves the item size and dtype of p.
func (p *Params) itemsize() (int, string, error) {
	n, dtype := p.Itemsize, p.DType
	if n == 0 {
		if dtype == "" {
			n = 1
		} else {
			var err error
			if n, err = DTypeItemsize(dtype); err != nil {
				return 0, "", err
			}
		}
	}
	if n < 1 || n > blosc.MaxTypesize {
		return 0, "", fmt.Errorf("%w: item size %d (1 to %d)", blosc.ErrInvalidOptions, n, blosc.MaxTypesize)
	}
	if dtype == "" {
		dtype = defaultDType
		if n > 1 {
			dtype = fmt.Sprintf("|V%d", n)
		}
	}
	return n, dtype, nil
}

// create makes an array of p's shape with no chunks yet.
func create(p Params) (*Array, error) {
	itemsize, dtype, err := p.itemsize()
	if err != nil {
		return nil, err
	}
	chunks, blocks := p.ChunkShape, p.BlockShape
	if chunks == nil || blocks == nil {
		if chunks, blocks, err = DefaultShapes(p.Shape, chunks, blocks, itemsize); err != nil {
			return nil, err
		}
	}
	g, err := newGeom(p.Shape, chunks, blocks, itemsize)
	if err != nil {
		return nil, err
	}
	m := Meta{Shape: append([]int64(nil), p.Shape...), ChunkShape: append([]int32(nil), chunks...), BlockShape: append([]int32(nil), blocks...),
		DTypeFormat: DTypeNumPy, DType: dtype, HasDType: true}
	raw, err := m.Marshal()
	if err != nil {
		return nil, err
	}
	o := p.Options
	o.Format = blosc.FormatBlosc2
	o.Typesize = itemsize
	o.Blocksize = g.blockBytes
	so := blosc.SChunkOptions{Options: o, ChunkSize: g.chunkBytes}
	a := &Array{meta: m, g: g, opts: o}
	switch {
	case p.Path == "":
		a.sc, err = blosc.NewSChunk(so)
	case p.Sparse:
		a.sc, err = blosc.CreateSparseFrame(p.Path, so)
	default:
		var f *os.File
		if f, err = os.Create(p.Path); err != nil {
			return nil, err
		}
		if a.sc, err = blosc.CreateFrameFile(f, so); err != nil {
			f.Close()
			return nil, err
		}
		a.file = f
	}
	if err != nil {
		return nil, err
	}
	if err := a.sc.AddMetalayer(MetaName, raw); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// fillSpecial makes every chunk a special one, as c-blosc2's array_new
// does with blosc2_schunk_fill_special.
func fillSpecial(p Params, kind blosc.Special, value []byte) (*Array, error) {
	a, err := create(p)
	if err != nil {
		return nil, err
	}
	if a.g.nitems != 0 {
		if err := a.sc.AppendSpecial(kind, a.g.nchunks*a.g.chunkItems, value); err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// Zeros returns a new array of zeros (special chunks that store no data).
func Zeros(p Params) (*Array, error) { return fillSpecial(p, blosc.SpecialZeros, nil) }

// NaNs returns a new array of NaNs (items of 4 or 8 bytes) in special
// chunks.
func NaNs(p Params) (*Array, error) { return fillSpecial(p, blosc.SpecialNaN, nil) }

// Uninit returns a new array whose content is undefined (special chunks;
// this package reads them as zeros).
func Uninit(p Params) (*Array, error) { return fillSpecial(p, blosc.SpecialUninit, nil) }

// Full returns a new array with every item value (Itemsize bytes), in
// chunks that store the value once.
func Full(p Params, value []byte) (*Array, error) {
	a, err := create(p)
	if err != nil {
		return nil, err
	}
	if len(value) != a.g.itemsize {
		a.Close()
		return nil, fmt.Errorf("%w: a fill value of %d bytes for items of %d", blosc.ErrInvalidOptions, len(value), a.g.itemsize)
	}
	if a.g.nitems != 0 {
		// c-blosc2's b2nd_full fills the chunks with zeros first, then
		// replaces each with a repeated-value chunk whose header gives the
		// array's block size: its partial reads go by that block size.
		c, err := blosc.ValueChunk(nil, a.g.chunkBytes, value)
		if err == nil {
			binary.LittleEndian.PutUint32(c[8:], uint32(a.g.blockBytes))
			err = a.appendCopies(c)
		}
		if err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// appendCopies appends chunk c to every chunk of a new array, in changes
// of batchBytes of data at most.
func (a *Array) appendCopies(c []byte) error {
	perBatch := max(1, batchBytes/max(a.g.chunkBytes, 1))
	for done := int64(0); done < a.g.nchunks; {
		err := a.sc.Batch(func() error {
			for k := 0; k < perBatch && done < a.g.nchunks; k++ {
				if err := a.sc.AppendChunk(c); err != nil {
					return err
				}
				done++
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// FromBuffer returns a new array holding data, the items in C order.
func FromBuffer(p Params, data []byte) (*Array, error) {
	a, err := create(p)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != a.Nbytes() {
		a.Close()
		return nil, fmt.Errorf("%w: %d bytes for an array of %d", blosc.ErrInvalidOptions, len(data), a.Nbytes())
	}
	if err := a.writeChunks(data, make([]int64, a.NDim()), a.meta.Shape, true); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// AppendFrame appends the array's contiguous frame (what c-blosc2's
// b2nd_to_cframe returns) to dst and returns the extended slice.
func (a *Array) AppendFrame(dst []byte) ([]byte, error) {
	if err := a.rlock(); err != nil {
		return nil, err
	}
	defer a.runlock()
	return a.sc.AppendFrame(dst)
}

// WriteTo writes the array's contiguous frame (a .b2nd file's bytes).
func (a *Array) WriteTo(w io.Writer) (int64, error) {
	if err := a.rlock(); err != nil {
		return 0, err
	}
	defer a.runlock()
	return a.sc.WriteTo(w)
}

// batchBytes is how many bytes of chunks a file's change gathers before it
// is written: a change's new chunks wait in memory until it commits.
const batchBytes = 64 << 20

// writeChunks stores the slice [start, stop) of src in the chunks it
// touches, storage order: appended (a new array, every chunk in turn)
// or replacing the chunks there are, each read first unless the slice
// covers it. Chunks go in groups: first filled (the slice's items copied
// into their blocks), then compressed, one chunk a thread, then stored
// in order. Filling is a third of the work: compressing one chunk at a
// time on several threads would leave it to one. Chunks side by side
// along the last dimension that the slice covers whole are filled
// together, row by row across them (see copyChunks), their rows shared
// among the threads. Where the root package has a kernel for the
// chunks' shuffle, a chunk that the slice covers whole and that has no
// padding is not filled at all: it is compressed straight from src's
// rows (schunkhook.CompressRows), the same bytes.
func (a *Array) writeChunks(src []byte, start, stop []int64, appending bool) error {
	g := a.g
	for i := range start {
		if start[i] == stop[i] {
			return nil
		}
	}
	nd := g.ndim()
	cb := g.chunkBytes
	perBatch := max(1, batchBytes/max(cb, 1))
	threads := a.opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	slots := threads
	if nd > 0 {
		// Room for the chunks side by side the slice touches along the
		// last dimension, as many as make rows of fuseRowBytes (past
		// that, a row is read at full speed), up to fuseBytes of them.
		last := nd - 1
		across := (stop[last]+g.chunk[last]-1)/g.chunk[last] - start[last]/g.chunk[last]
		fuse := min(across, max(1, fuseRowBytes/(g.chunk[last]*int64(g.itemsize))), int64(max(1, fuseBytes/max(cb, 1))))
		slots = max(slots, int(fuse))
	}
	slots = max(1, min(slots, perBatch))
	if cap(a.chunk) < slots*cb {
		a.chunk = make([]byte, slots*cb)
	}
	for len(a.comps) < slots {
		a.comps = append(a.comps, nil)
	}
	sliceShape := make([]int64, nd)
	for i := range sliceShape {
		sliceShape[i] = stop[i] - start[i]
	}
	walks := make([]*sliceWalk, slots)
	for k := range walks {
		walks[k] = newSliceWalk(g, start, stop)
	}
	w := newSliceWalk(g, start, stop)
	bb := int64(g.blockBytes)
	// Whole chunks that the slice covers are compressed from src where
	// a kernel shuffles a block's rows straight from there (see
	// schunkhook.CompressRows), unfilled: filling them was a quarter of
	// a 2-D make, and the compression read each chunk again.
	direct := nd > 0 && schunkhook.CompressesRows(&a.opts)
	var brows []schunkhook.BlockRows
	var isDirect []bool
	if direct {
		brows = make([]schunkhook.BlockRows, slots)
		isDirect = make([]bool, slots)
		nblocks := g.chunkItems / g.blockItems
		for k := range brows {
			r := &brows[k]
			r.Src, r.Row, r.Dims = src, g.block[nd-1], nd-1
			r.Blocks = make([]int64, nblocks)
			for i, st := 0, int64(1); i < nd; i++ {
				if i > 0 {
					r.Counts[nd-1-i], r.Strides[nd-1-i] = g.block[nd-1-i], st
				}
				st *= sliceShape[nd-1-i]
			}
		}
	}
	// fill copies the slice's part of wk's current chunk into buf (which
	// holds the chunk's bytes if the slice does not cover it), block by
	// block: a chunk with padding, or one the slice covers in part.
	fill := func(wk *sliceWalk, buf []byte) {
		if appending || wk.chunkCovered() {
			clear(buf)
		}
		wk.blocks(func(nblock int64) error {
			copyBlockIn(buf[nblock*bb:(nblock+1)*bb], g.block, wk.origin, src, sliceShape, start, stop, g.itemsize)
			return nil
		})
	}
	// A fill task is rows [r0, r1) of the n chunks from job k on, whole
	// ones side by side (n = 0: job k's chunk, block by block).
	type fillTask struct {
		k, n   int
		r0, r1 int64
	}
	var tasks []fillTask
	rows := g.chunkRows()
	jobs := make([]int64, 0, slots)
	coords := make([]int64, slots*nd)
	errs := make([]error, slots)
	total := int64(1) // chunks the write touches
	for i := range start {
		total *= (stop[i]+g.chunk[i]-1)/g.chunk[i] - start[i]/g.chunk[i]
	}
	var made, madeBytes int64
	reserved := false            // the first Reserve, with a margin, is made
	var reserving sync.WaitGroup // a Reserve at work on another goroutine
	// group fills and compresses the chunks of jobs (their walk
	// coordinates in coords), then stores them in order.
	group := func() error {
		whole := func(k int) bool { return walks[k].chunkCovered() && walks[k].chunkWhole() }
		tasks = tasks[:0]
		for k := 0; k < len(jobs); {
			wk := walks[k]
			copy(wk.cc, coords[k*nd:(k+1)*nd])
			if !appending && !wk.chunkCovered() {
				if _, err := a.sc.ReadAt(a.chunk[k*cb:(k+1)*cb], jobs[k]*int64(cb)); err != nil {
					return fmt.Errorf("b2nd: chunk %d: %w", jobs[k], err)
				}
			}
			if direct {
				isDirect[k] = whole(k)
				if isDirect[k] {
					placeBlocks(&brows[k], g, wk.cc, start, sliceShape)
					k++
					continue
				}
			}
			if !whole(k) {
				tasks = append(tasks, fillTask{k: k})
				k++
				continue
			}
			// The run of whole chunks side by side from k on.
			n := 1
			for ; nd > 0 && k+n < len(jobs); n++ {
				next, prev := coords[(k+n)*nd:(k+n+1)*nd], coords[(k+n-1)*nd:(k+n)*nd]
				copy(walks[k+n].cc, next)
				if direct || !whole(k+n) || next[nd-1] != prev[nd-1]+1 || !slices.Equal(next[:nd-1], prev[:nd-1]) {
					break
				}
			}
			parts := int64(min(threads, max(1, int(rows))))
			for p := range parts {
				tasks = append(tasks, fillTask{k: k, n: n, r0: rows * p / parts, r1: rows * (p + 1) / parts})
			}
			k += n
		}
		parallel(len(tasks), threads, func(t int) {
			ft := tasks[t]
			wk := walks[ft.k]
			buf := a.chunk[ft.k*cb:]
			if ft.n == 0 {
				fill(wk, buf[:cb])
				return
			}
			var co [MaxDim]int64
			for i := range nd {
				co[i] = wk.cc[i] * g.chunk[i]
			}
			copyChunks(buf[:ft.n*cb], int64(ft.n), g, co[:nd], src, sliceShape, start, true, ft.r0, ft.r1)
		})
		// The threads are shared among the chunks of the group: a
		// group of one chunk (a last one, or an array of few chunks)
		// compresses it on all of them.
		opts := a.opts
		opts.Threads = max(1, threads/len(jobs))
		parallel(len(jobs), threads, func(k int) {
			buf := a.chunk[k*cb : (k+1)*cb]
			if direct && isDirect[k] {
				var ok bool
				a.comps[k], ok, errs[k] = schunkhook.CompressRows(a.comps[k][:0], &brows[k], &opts)
				if ok || errs[k] != nil {
					return
				}
				fill(walks[k], buf)
			}
			a.comps[k], errs[k] = blosc.Compress(a.comps[k][:0], buf, opts)
		})
		reserving.Wait()
		for k, nchunk := range jobs {
			if errs[k] != nil {
				return fmt.Errorf("b2nd: chunk %d: %w", nchunk, errs[k])
			}
			made, madeBytes = made+1, madeBytes+int64(len(a.comps[k]))
			var err error
			if appending {
				err = a.sc.AppendChunk(a.comps[k])
			} else {
				err = a.sc.UpdateChunk(int(nchunk), a.comps[k])
			}
			if err != nil {
				return err
			}
		}
		jobs = jobs[:0]
		if appending && made > 0 {
			// Room for the chunks still to come, at the ratio so far
			// and, the first time, an eighth more (nothing to do while
			// there is room). The first group sets it: waiting for a
			// MiB of chunks had the region double from the first chunk
			// on, and the margin asked again of later estimates grew
			// it once more near the end (a 2-D make of 64 MiB cleared
			// 17 MB and copied 7 MB for a 6.5 MB frame; now 10 MB and
			// 1 MB, in room of 9 MB, the first chunks of that array
			// compressing least).
			if left := total - made; left > 0 {
				est := madeBytes / made * left
				if !reserved {
					est += est / 8
					reserved = true
				}
				if threads <= 1 {
					schunkhook.Reserve(a.sc, est)
				} else {
					// Beside the next group's fill and compression,
					// which do not touch the super-chunk: clearing a
					// new buffer of the whole array's size took the
					// time of a few chunks, with the other threads
					// idle.
					reserving.Add(1)
					go func() {
						defer reserving.Done()
						schunkhook.Reserve(a.sc, est)
					}()
				}
			}
		}
		return nil
	}
	// Group the chunks into changes of about batchBytes each, so that a
	// frame file is written in a few crash-safe steps.
	for more := w.firstChunk(); more; {
		err := a.sc.Batch(func() error {
			defer reserving.Wait() // before the change ends
			for k := 0; more && k < perBatch; k++ {
				copy(coords[len(jobs)*nd:], w.cc)
				jobs = append(jobs, w.nchunk())
				if len(jobs) == slots {
					if err := group(); err != nil {
						return err
					}
				}
				more = w.nextChunk()
			}
			if len(jobs) > 0 {
				return group()
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// placeBlocks sets r.Blocks to where the blocks of the chunk at chunk
// coordinates cc start in the C-order box [start, ...) of sliceShape
// items that covers it whole, in the chunk's order of blocks.
func placeBlocks(r *schunkhook.BlockRows, g *geom, cc, start, sliceShape []int64) {
	nd := g.ndim()
	var stride, idx [MaxDim]int64
	base := int64(0)
	for i, st := nd-1, int64(1); i >= 0; i-- {
		stride[i] = st
		base += (cc[i]*g.chunk[i] - start[i]) * st
		st *= sliceShape[i]
	}
	for j := range r.Blocks {
		r.Blocks[j] = base
		for i := nd - 1; i >= 0; i-- {
			base += g.block[i] * stride[i]
			if idx[i]++; idx[i] < g.blocksIn[i] {
				break
			}
			base -= idx[i] * g.block[i] * stride[i]
			idx[i] = 0
		}
	}
}

// fuseRowBytes and fuseBytes bound the chunks a write fills together
// side by side: the bytes of a row across them, and of the chunks.
const (
	fuseRowBytes = 8 << 10
	fuseBytes    = 8 << 20
)

// parallel calls fn(0) to fn(n-1) on up to threads goroutines.
func parallel(n, threads int, fn func(i int)) {
	if threads <= 1 || n <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(threads, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// SetSlice writes src (the items of [start, stop) in C order) into the
// array: each chunk the slice touches is read (unless the slice covers
// it), changed and compressed again. A frame file or sparse frame is
// changed in crash-safe steps of a few dozen MiB of chunks each.
func (a *Array) SetSlice(src []byte, start, stop []int64) (err error) {
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock(&err)
	return a.setSlice(src, start, stop)
}

func (a *Array) setSlice(src []byte, start, stop []int64) error {
	n, err := a.g.checkSlice(start, stop)
	if err != nil {
		return err
	}
	if len(src) != n {
		return fmt.Errorf("%w: %d bytes for a slice of %d", blosc.ErrInvalidOptions, len(src), n)
	}
	return a.writeChunks(src, start, stop, false)
}
