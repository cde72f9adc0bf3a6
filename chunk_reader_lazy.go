package blosc

import (
	"fmt"
	"io"
	"slices"
	"sync"
)

// lazyChunk is what a ChunkReader of a frame file's chunk keeps to read
// the chunk's blocks as reads first need them. Its buffers are reused
// from chunk to chunk.
type lazyChunk struct {
	mu     sync.Mutex
	r      io.ReaderAt
	at     int64  // where the chunk starts in r
	have   int    // buf[:have] was read when the chunk was opened
	loaded []bool // per block: its bytes are in buf
	sorted []int  // the block starts in order, which bound each block's bytes
	buf    []byte // the chunk's bytes where read (cbytes long)
	spans  [][2]int
	head   [partialProbe]byte
}

// OpenChunk opens chunk i of s in r, in place of the chunk r read, reusing
// r's buffers. A committed chunk of a frame file (OpenFrame, OpenFrameFile)
// is read as c-blosc2 reads its lazy chunks: its header and block starts
// now, each block's bytes when a read first needs them. Other chunks (in
// memory, in a sparse frame's files, special, small, or of a kind read
// whole) are taken whole. A reader opened this way must not be read from
// by several goroutines at once.
func (s *SChunk) OpenChunk(r *ChunkReader, i int) error {
	return s.readData(func() error { return s.openChunk(r, i) })
}

func (s *SChunk) openChunk(r *ChunkReader, i int) error {
	if err := s.checkIndex(i); err != nil {
		return err
	}
	r.lazy = false
	if f := s.file; f != nil && s.sparse == nil {
		if _, inMemory := f.r.(frameBytes); !inMemory {
			off, err := s.offsetAt(i)
			if err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			if off >= 0 && off < f.region && (off < s.pendBase || !f.dirty) && !f.broken {
				end, exact, err := s.chunkEnd(i, off)
				if err != nil {
					return fmt.Errorf("chunk %d: %w", i, err)
				}
				ok, err := r.openLazy(f, off, end, exact)
				if err != nil {
					return fmt.Errorf("chunk %d: %w", i, err)
				}
				if ok {
					return nil
				}
			}
		}
	}
	c, err := s.chunk(i)
	if err != nil {
		return err
	}
	return r.Reset(c)
}

// openLazy opens the committed chunk at region offset off of f lazily;
// ok is false when it is better read whole (as readPartial decides).
func (r *ChunkReader) openLazy(f *frameFile, off, ext int64, exact bool) (ok bool, err error) {
	if !exact {
		ext = f.region
	}
	if ext-off <= 2*partialProbe || ext > f.region {
		return false, nil
	}
	lz := r.lz
	if lz == nil {
		lz = new(lazyChunk)
		r.lz = lz
	}
	at := f.base + f.hlen + off
	if err := readFull(f.r, lz.head[:], at); err != nil {
		return true, err
	}
	raw := decodeHeader2(lz.head[:])
	if raw.cbytes < header2Len || int64(raw.cbytes) > ext-off || raw.flags&flagsExtended != flagsExtended ||
		raw.special() != specialNone || raw.vlBlocks() || raw.useDict() || raw.blocksize <= 0 {
		return false, nil
	}
	lz.buf = sized(lz.buf, raw.cbytes)
	buf := lz.buf
	lz.have = copy(buf, lz.head[:])
	h, err := parseHeader2(buf)
	if err != nil {
		return true, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	nblocks, _ := h.nblocks()
	if h.memcpyed() {
		nblocks = 0 // the data follows the header: reads read their bytes
	}
	dataStart := header2Len + 4*int64(nblocks)
	if dataStart > int64(len(buf)) {
		return true, fmt.Errorf("%w: %d block starts in a %d-byte chunk", ErrCorrupt, nblocks, len(buf))
	}
	if dataStart > int64(lz.have) {
		if err := readFull(f.r, buf[lz.have:dataStart], at+int64(lz.have)); err != nil {
			return true, err
		}
		lz.have = int(dataStart)
	}
	c, err := openChunk2Partial(buf)
	if err != nil {
		return true, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	lz.sorted = lz.sorted[:0]
	for j := range c.nblocks {
		lz.sorted = append(lz.sorted, c.bstart(j))
	}
	slices.Sort(lz.sorted)
	lz.loaded = slices.Grow(lz.loaded[:0], c.nblocks)[:c.nblocks]
	clear(lz.loaded)
	lz.r, lz.at = f.r, at
	r.c, r.lazy = c, true
	return true, nil
}

// load reads the bytes of the blocks holding data bytes [lo, hi) (and
// block 0 under delta) that are not read yet.
func (r *ChunkReader) load(lo, hi int) error {
	lz, c := r.lz, &r.c
	if c.h.memcpyed() {
		from, to := max(header2Len+lo, lz.have), header2Len+hi
		if to > len(lz.buf) {
			return fmt.Errorf("%w: a memcpyed chunk of %d bytes holds no data bytes [%d, %d)", ErrCorrupt, len(lz.buf), lo, hi)
		}
		if from < to {
			return readFull(lz.r, lz.buf[from:to], lz.at+int64(from))
		}
		return nil
	}
	bs := c.h.blocksize
	first, last := lo/bs, (hi-1)/bs
	lz.spans = lz.spans[:0]
	if c.pipe.has(Delta) && first > 0 {
		r.want(0)
	}
	for j := first; j <= last; j++ {
		r.want(j)
	}
	return r.readWanted()
}

// loadBlocks reads the bytes of the listed blocks that are not read yet
// (schunkhook.LoadBlocks), with block 0 under delta.
func (r *ChunkReader) loadBlocks(blocks []int64) error {
	lz, c := r.lz, &r.c
	if c.h.memcpyed() || c.h.special() != specialNone || c.h.vlBlocks() {
		return nil // no blocks to read apart: ReadAt reads what it needs
	}
	lz.spans = lz.spans[:0]
	for k, j := range blocks {
		if k == 0 && c.pipe.has(Delta) {
			r.want(0)
		}
		if j >= 0 && j < int64(c.nblocks) {
			r.want(int(j))
		}
	}
	return r.readWanted()
}

// want adds the byte range of block j to the ranges readWanted reads,
// unless it was read already. Gathering the blocks' ranges first, then
// reading them with one call per run of adjacent ranges, reads a run of
// blocks (a compressor writes a chunk's blocks one after the other) at
// once.
func (r *ChunkReader) want(j int) {
	lz, c := r.lz, &r.c
	if j >= c.nblocks || lz.loaded[j] {
		return
	}
	lz.loaded[j] = true
	a := c.bstart(j)
	b := len(lz.buf)
	if k, _ := slices.BinarySearch(lz.sorted, a+1); k < len(lz.sorted) {
		b = lz.sorted[k]
	}
	if a = max(a, lz.have); a < b {
		lz.spans = append(lz.spans, [2]int{a, b})
	}
}

// readWanted reads the ranges want gathered.
func (r *ChunkReader) readWanted() error {
	lz := r.lz
	spans := lz.spans
	slices.SortFunc(spans, func(x, y [2]int) int { return x[0] - y[0] })
	for k := 0; k < len(spans); {
		a, b := spans[k][0], spans[k][1]
		for k++; k < len(spans) && spans[k][0] == b; k++ {
			b = spans[k][1]
		}
		if err := readFull(lz.r, lz.buf[a:b], lz.at+int64(a)); err != nil {
			clear(lz.loaded) // a later read reads them again
			return err
		}
	}
	return nil
}
