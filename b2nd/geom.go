package b2nd

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/goblosc/blosc"
)

// geom is the layout of an array in its super-chunk, as c-blosc2's
// update_shape computes it. The array is cut into chunks of chunk items
// per dimension (the grid covers extShape, shape rounded up to whole
// chunks); each chunk is stored as extChunk items per dimension (the chunk
// rounded up to whole blocks), made of blocks of block items, the blocks
// in C order and each block's items in C order. Chunks are stored in C
// order of the chunk grid.
type geom struct {
	shape, chunk, block []int64
	extShape, extChunk  []int64
	chunksIn, blocksIn  []int64 // the chunk grid; the block grid of a chunk
	chunkStrides        []int64 // of the chunk grid, in chunks
	blockStrides        []int64 // of a chunk's block grid, in blocks
	nitems              int64
	nchunks             int64
	chunkItems          int64 // items of a stored (padded) chunk
	blockItems          int64
	itemsize            int
	chunkBytes          int // bytes of a stored chunk
	blockBytes          int
}

func mulCheck(a, b int64) (int64, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// newGeom checks a shape, chunk shape and block shape as c-blosc2 does when
// it opens an array (b2nd_from_schunk), with every product checked for
// overflow, and lays them out for items of itemsize bytes.
func newGeom(shape []int64, chunk, block []int32, itemsize int) (*geom, error) {
	n := len(shape)
	if n > MaxDim || len(chunk) != n || len(block) != n {
		return nil, fmt.Errorf("%w: shape, chunk shape and block shape of %d, %d and %d dimensions (at most %d)", blosc.ErrInvalidOptions, n, len(chunk), len(block), MaxDim)
	}
	if itemsize <= 0 {
		return nil, fmt.Errorf("%w: item size %d", blosc.ErrInvalidOptions, itemsize)
	}
	g := &geom{
		shape: append([]int64(nil), shape...), chunk: make([]int64, n), block: make([]int64, n),
		extShape: make([]int64, n), extChunk: make([]int64, n),
		chunksIn: make([]int64, n), blocksIn: make([]int64, n),
		chunkStrides: make([]int64, n), blockStrides: make([]int64, n),
		nitems: 1, chunkItems: 1, blockItems: 1, itemsize: itemsize,
	}
	extItems, chunkNitems := int64(1), int64(1)
	for i := range n {
		s, c, b := shape[i], int64(chunk[i]), int64(block[i])
		if s < 0 || c < 0 || b < 0 {
			return nil, fmt.Errorf("%w: dimension %d: shape %d, chunk %d, block %d", blosc.ErrInvalidOptions, i, s, c, b)
		}
		if (c == 0 || b == 0) && (s != 0 || c != 0) {
			return nil, fmt.Errorf("%w: dimension %d: shape %d, chunk %d, block %d (an empty chunk or block only in an empty dimension)", blosc.ErrInvalidOptions, i, s, c, b)
		}
		g.chunk[i], g.block[i] = c, b
		if c != 0 {
			g.extShape[i] = s
			if r := s % c; r != 0 {
				if s > math.MaxInt64-c {
					return nil, fmt.Errorf("%w: dimension %d of %d items does not round up to chunks of %d", blosc.ErrInvalidOptions, i, s, c)
				}
				g.extShape[i] = s + c - r
			}
			g.extChunk[i] = c
			if r := c % b; r != 0 {
				g.extChunk[i] = c + b - r
			}
			g.chunksIn[i] = g.extShape[i] / c
			g.blocksIn[i] = g.extChunk[i] / b
		}
		var ok1, ok2, ok3, ok4, ok5 bool
		g.nitems, ok1 = mulCheck(g.nitems, s)
		extItems, ok2 = mulCheck(extItems, g.extShape[i])
		g.chunkItems, ok3 = mulCheck(g.chunkItems, g.extChunk[i])
		chunkNitems, ok4 = mulCheck(chunkNitems, c)
		g.blockItems, ok5 = mulCheck(g.blockItems, b)
		if !(ok1 && ok2 && ok3 && ok4 && ok5) || chunkNitems > math.MaxInt32 || g.blockItems > math.MaxInt32 {
			return nil, fmt.Errorf("%w: the products of shape %v, chunk shape %v, block shape %v overflow", blosc.ErrInvalidOptions, shape, chunk, block)
		}
	}
	if chunkNitems > 0 {
		g.nchunks = extItems / chunkNitems
	}
	cb, ok := mulCheck(g.chunkItems, int64(itemsize))
	if !ok || cb > blosc.MaxBufferSize {
		return nil, fmt.Errorf("%w: chunks of %d items of %d bytes (a chunk holds at most %d bytes)", blosc.ErrTooLarge, g.chunkItems, itemsize, blosc.MaxBufferSize)
	}
	if _, ok := mulCheck(g.nitems, int64(itemsize)); !ok {
		return nil, fmt.Errorf("%w: %d items of %d bytes", blosc.ErrTooLarge, g.nitems, itemsize)
	}
	g.chunkBytes = int(cb)
	g.blockBytes = int(g.blockItems) * itemsize
	if n > 0 {
		g.chunkStrides[n-1], g.blockStrides[n-1] = 1, 1
		for i := n - 2; i >= 0; i-- {
			g.chunkStrides[i] = g.chunkStrides[i+1] * g.chunksIn[i+1]
			g.blockStrides[i] = g.blockStrides[i+1] * g.blocksIn[i+1]
		}
	}
	return g, nil
}

// ndim returns the number of dimensions.
func (g *geom) ndim() int { return len(g.shape) }
