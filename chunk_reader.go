package blosc

import (
	"fmt"

	"github.com/goblosc/blosc/internal/schunkhook"
)

func init() {
	schunkhook.ReadsPart = func(cr any, off int64, n int) bool {
		r, ok := cr.(*ChunkReader)
		return ok && r.c.readsPart(off, n)
	}
	schunkhook.LoadBlocks = func(cr any, blocks []int64) (bool, error) {
		r, ok := cr.(*ChunkReader)
		if !ok || !r.lazy {
			return false, nil
		}
		r.lz.mu.Lock()
		defer r.lz.mu.Unlock()
		return true, r.loadBlocks(blocks)
	}
	schunkhook.ReadBlockStreams = func(cr any, nblock int64, ts int, fn func(*[16][]byte)) (bool, error) {
		r, ok := cr.(*ChunkReader)
		if !ok {
			return false, nil
		}
		return r.blockStreams(nblock, ts, fn)
	}
	schunkhook.UnshufflesRows = unshufflesRows
	schunkhook.UnshuffleRows = unshuffleRowsStreams
}

// blockStreams is schunkhook.ReadBlockStreams.
func (r *ChunkReader) blockStreams(nblock int64, ts int, fn func(*[16][]byte)) (bool, error) {
	c := &r.c
	h := &c.h
	if h.special() != specialNone || h.memcpyed() || h.vlBlocks() || nblock < 0 || nblock >= int64(c.nblocks) || ts < 2 || ts > 16 {
		return false, nil
	}
	i := int(nblock)
	if t, ok := c.pipe.shuffleOnly(); !ok || t != ts || c.blockSize(i) != h.blocksize || h.blocksize%ts != 0 {
		return false, nil
	}
	nstreams, neblock, err := c.streams(i)
	if err != nil {
		return false, err
	}
	if r.lazy {
		r.lz.mu.Lock()
		defer r.lz.mu.Unlock()
		if err := r.load(i*h.blocksize, (i+1)*h.blocksize); err != nil {
			return false, err
		}
	}
	e := enginePool.Get().(*engine)
	defer enginePool.Put(e)
	st := &e.ws.b2
	if _, err := c.shuffledStreams(&st.parts, i, ts, nstreams, neblock, st, &e.ws); err != nil {
		return false, err
	}
	fn(&st.parts)
	// The chunk may be the caller's to drop: hold no pointer into it.
	clear(st.parts[:ts])
	return true, nil
}

// ChunkReader reads byte ranges of one Blosc2 chunk held in memory,
// opened once: the header and block starts are checked when it is
// opened, and each block's streams when a read decodes that block (as a
// frame file's partial reads check them), so that many small reads of a
// chunk cost only the blocks they touch. GetItem, by contrast, checks
// every stream of the chunk on each call. An N-dimensional slice reads a
// chunk's blocks this way, a few rows of blocks at a time.
type ChunkReader struct {
	c    chunk2
	lazy bool       // the chunk's blocks are read as first needed (OpenChunk)
	lz   *lazyChunk // kept for the next chunk opened lazily
}

// NewChunkReader opens the Blosc2 chunk at the start of src, which must
// not change while the reader is used.
func NewChunkReader(src []byte) (*ChunkReader, error) {
	c, err := openChunk2Partial(src)
	if err != nil {
		return nil, err
	}
	return &ChunkReader{c: c}, nil
}

// Reset opens the chunk in src in r in place of the one r read, so that
// one reader serves chunk after chunk without allocating.
func (r *ChunkReader) Reset(src []byte) error {
	r.lazy = false
	c, err := openChunk2Partial(src)
	if err != nil {
		r.c = chunk2{}
		return err
	}
	r.c = c
	return nil
}

// Nbytes returns the size of the chunk's data.
func (r *ChunkReader) Nbytes() int { return r.c.h.nbytes }

// ReadAt decodes bytes [off, off+len(p)) of the chunk's data into p,
// decoding only the blocks that hold them. Reads may run concurrently.
func (r *ChunkReader) ReadAt(p []byte, off int64) (int, error) {
	n := int64(r.c.h.nbytes)
	if off < 0 || off > n || int64(len(p)) > n-off {
		return 0, fmt.Errorf("%w: bytes [%d, %d+%d) of a chunk of %d", ErrRange, off, off, len(p), n)
	}
	if r.lazy && len(p) > 0 {
		r.lz.mu.Lock()
		defer r.lz.mu.Unlock()
		if err := r.load(int(off), int(off)+len(p)); err != nil {
			return 0, err
		}
	}
	e := enginePool.Get().(*engine)
	_, err := e.getBytesChunk2(p[:0:len(p)], &r.c, int(off), int(off)+len(p))
	enginePool.Put(e)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}
