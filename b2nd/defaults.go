package b2nd

import (
	"fmt"
	"runtime"

	"github.com/goblosc/blosc"
	"github.com/klauspost/cpuid/v2"
)

// CacheSizes are the cache sizes in bytes python-blosc2 sizes chunks and
// blocks from; 0 means unknown.
type CacheSizes struct {
	L1D, L2, L3 int
}

// HostCaches returns this machine's cache sizes as cpuid reports them.
func HostCaches() CacheSizes {
	c := cpuid.CPU.Cache
	pos := func(n int) int { return max(n, 0) }
	return CacheSizes{L1D: pos(c.L1D), L2: pos(c.L2), L3: pos(c.L3)}
}

// maxBlocksize is c-blosc2's BLOSC2_MAXBLOCKSIZE.
const maxBlocksize = 536866816

// DefaultShapes returns the chunk and block shapes python-blosc2's
// compute_chunks_blocks chooses for an array of the given shape and item
// size on this machine; a non-nil chunks or blocks is taken as given (as
// python-blosc2 does, a given block shape without a chunk shape only
// gives the block's size, which is then spread over the dimensions anew).
func DefaultShapes(shape []int64, chunks, blocks []int32, itemsize int) (chunkShape, blockShape []int32, err error) {
	return defaultShapes(shape, chunks, blocks, itemsize, HostCaches(), runtime.GOOS, runtime.GOARCH)
}

// defaultShapes is compute_chunks_blocks for regular (not lossy) codecs,
// on a machine of the given caches, system and architecture.
func defaultShapes(shape []int64, chunks, blocks []int32, itemsize int, cs CacheSizes, goos, goarch string) ([]int32, []int32, error) {
	nd := len(shape)
	if (chunks != nil && len(chunks) != nd) || (blocks != nil && len(blocks) != nd) {
		return nil, nil, fmt.Errorf("%w: chunk or block shape of another number of dimensions than shape %v", blosc.ErrInvalidOptions, shape)
	}
	if itemsize <= 0 {
		return nil, nil, fmt.Errorf("%w: item size %d", blosc.ErrInvalidOptions, itemsize)
	}
	hasZero := false
	for _, s := range shape {
		hasZero = hasZero || s == 0
	}
	if hasZero && chunks == nil && blocks == nil {
		out := make([]int32, nd)
		for i, s := range shape {
			if s > 1<<31-1 {
				return nil, nil, fmt.Errorf("%w: dimension %d of %d items", blosc.ErrInvalidOptions, i, s)
			}
			out[i] = int32(s)
		}
		return out, append([]int32(nil), out...), nil
	}
	if chunks != nil && blocks != nil {
		for i := range blocks {
			if blocks[i] > chunks[i] {
				return nil, nil, fmt.Errorf("%w: block shape %v larger than chunk shape %v", blosc.ErrInvalidOptions, blocks, chunks)
			}
		}
		return append([]int32(nil), chunks...), append([]int32(nil), blocks...), nil
	}
	var blocksize int64
	if blocks == nil {
		blocksize = 32 << 10
		minBlocksize := blocksize
		switch {
		case goarch == "amd64":
			minBlocksize = int64(cs.L2 / 4)
			if cs.L2 >= 1<<21 {
				minBlocksize = int64(cs.L1D * 4)
			}
		case goos == "darwin" && goarch == "arm64":
			minBlocksize = int64(cs.L1D)
		case cs.L1D > 0:
			minBlocksize = int64(cs.L1D)
		}
		blocksize = max(blocksize, minBlocksize, int64(itemsize))
	} else {
		blocksize = int64(itemsize)
		for _, b := range blocks {
			blocksize *= int64(b)
			if blocksize > maxBlocksize {
				break
			}
		}
	}
	if blocksize > maxBlocksize {
		return nil, nil, fmt.Errorf("%w: blocks of %d bytes (at most %d)", blosc.ErrInvalidOptions, blocksize, maxBlocksize)
	}
	maxShape := shape
	if chunks != nil {
		maxShape = make([]int64, nd)
		for i, c := range chunks {
			maxShape[i] = int64(c)
		}
	}
	bl, err := partition(blocksize/int64(itemsize), maxShape, nil)
	if err != nil {
		return nil, nil, err
	}
	if chunks != nil {
		return append([]int32(nil), chunks...), toInt32(bl), nil
	}
	blocksize = int64(itemsize)
	for _, b := range bl {
		blocksize *= b
	}
	chunksize := chunkSizeFor(blocksize, cs, goos)
	if chunksize%blocksize != 0 {
		chunksize = chunksize / blocksize * blocksize
	}
	ch, err := partition(chunksize/int64(itemsize), shape, bl)
	if err != nil {
		return nil, nil, err
	}
	for i := range ch {
		c, b := ch[i], bl[i]
		if c%b != 0 {
			c = (c/b + 1) * b
		}
		ch[i] = min(shape[i], c)
	}
	return toInt32(ch), toInt32(bl), nil
}

func toInt32(v []int64) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x) // partition keeps parts at most a dimension or a 2 GiB item count
	}
	return out
}

// chunkSizeFor is python-blosc2's get_chunksize with its defaults
// (4 MiB to 64 MiB, four operands in the cache).
func chunkSizeFor(blocksize int64, cs CacheSizes, goos string) int64 {
	const l3Min, l3Max, reduc = 4 << 20, 1 << 26, 4
	chunksize := blocksize
	if blocksize*32 < l3Max {
		chunksize = blocksize * 32
	}
	if cs.L3 > 0 {
		if cs.L2 > 0 && cs.L3 > cs.L2 {
			chunksize = int64(cs.L3)
		}
		chunksize /= reduc
	}
	if l2 := int64(cs.L2); l2 > 0 && l2 > chunksize {
		if goos == "darwin" {
			chunksize = l2
		} else {
			chunksize = max(l2/reduc, chunksize)
		}
	}
	chunksize = max(chunksize, l3Min)
	chunksize = min(chunksize, blosc.MaxBufferSize)
	return max(chunksize, blocksize)
}

// partition is python-blosc2's compute_partition: it spreads nitems
// items over the dimensions from the last, each part a divisor of its
// dimension where one is near.
func partition(nitems int64, maxShape []int64, minPart []int64) ([]int64, error) {
	for _, s := range maxShape {
		if s == 0 {
			return nil, fmt.Errorf("%w: default shapes of a shape with an empty dimension", blosc.ErrInvalidOptions)
		}
	}
	if nitems == 0 {
		return nil, fmt.Errorf("%w: default shapes of empty parts", blosc.ErrInvalidOptions)
	}
	nd := len(maxShape)
	part := make([]int64, nd)
	for i := range part {
		part[i] = 1
	}
	left := nitems
	for i := nd - 1; i >= 0; i-- {
		if left <= 1 {
			break
		}
		size := maxShape[i]
		minSize := int64(1)
		if minPart != nil {
			minSize = minPart[i]
		}
		r := max(size, minSize)
		if r <= left {
			if size%r != 0 {
				r = nearestDivisor(size, r, false)
			}
		} else {
			r = max(left, minSize)
			nr := r
			if size%r != 0 {
				nr = nearestDivisor(size, r, true)
			}
			if r/2 < nr && nr < r*2 {
				r = nr
			}
		}
		part[i] = r
		left /= r
	}
	return part, nil
}

// nearestDivisor is python-blosc2's nearest_divisor: the divisor of a
// nearest b (searching down from b when a is large or strict is set).
func nearestDivisor(a, b int64, strict bool) int64 {
	if a > 100_000 || strict {
		for i := b; i > 0; i-- {
			if a%i == 0 {
				return i
			}
		}
		return 1
	}
	closest, minDiff := int64(1), a
	for i := int64(1); i*i <= a; i++ {
		if a%i != 0 {
			continue
		}
		if d := abs(i - b); d < minDiff {
			minDiff, closest = d, i
		}
		if d := abs(a/i - b); d < minDiff {
			minDiff, closest = d, a/i
		}
	}
	return closest
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
