package blosc

import (
	"fmt"
)

// Constants of c-blosc 1.x's block layout.
const (
	// minBufferSize: inputs below it are stored memcpyed, and a block
	// is split only if it holds at least this many elements.
	minBufferSize = 128
	// maxSplits is the largest typesize whose blocks are split.
	maxSplits = 16
	// l1 is the cache size c-blosc sizes automatic blocks from.
	l1 = 32 << 10
)

// isHCR reports the codecs c-blosc 1.x gives larger blocks, being meant for
// high compression ratios.
func isHCR(c Codec) bool { return c == LZ4HC || c == Zlib || c == Zstd }

// splitBlock is c-blosc 1.x's split_block: whether blocks are written as
// typesize separate streams. SplitDefault is c-blosc 1.x's default,
// FORWARD_COMPAT.
func splitBlock(mode SplitMode, c Codec, typesize, blocksize int) bool {
	switch mode {
	case SplitAlways:
		return true
	case SplitNever:
		return false
	case SplitAuto:
		return (c == BloscLZ || c == Snappy) && typesize <= maxSplits && blocksize/typesize >= minBufferSize
	default:
		return c != Zstd && typesize <= maxSplits && blocksize/typesize >= minBufferSize
	}
}

// computeBlocksize is c-blosc 1.21's compute_blocksize, so that our chunks
// have the block size, and therefore the layout, C gives them.
func computeBlocksize(mode SplitMode, c Codec, clevel, typesize, nbytes, forced int) int {
	if nbytes < typesize {
		return 1
	}
	bs := nbytes
	if forced > 0 {
		bs = forced
		if bs < minBufferSize {
			bs = minBufferSize
		}
		if bs > maxBlocksize {
			bs = maxBlocksize
		}
	} else if nbytes >= l1 {
		bs = l1
		if isHCR(c) {
			bs *= 2
		}
		switch clevel {
		case 0:
			bs /= 4
		case 1:
			bs /= 2
		case 2:
		case 3:
			bs *= 2
		case 4, 5:
			bs *= 4
		case 6, 7, 8:
			bs *= 8
		case 9:
			bs *= 8
			if isHCR(c) {
				bs *= 2
			}
		}
	}
	// Splitting codecs get blocks typesize times larger, within bounds.
	if clevel > 0 && splitBlock(mode, c, typesize, bs) {
		if bs > 1<<18 {
			bs = 1 << 18
		}
		bs *= typesize
		if bs < 1<<16 {
			bs = 1 << 16
		}
		if bs > 1<<20 {
			bs = 1 << 20
		}
	}
	if bs > nbytes {
		bs = nbytes
	}
	if bs > typesize {
		bs = bs / typesize * typesize
	}
	return bs
}

// params is a validated compression setup.
type params struct {
	codec     Codec
	clevel    int
	typesize  int
	filter    Filter // NoFilter, ByteShuffle or BitShuffle
	blocksize int    // forced, 0 for automatic
	split     SplitMode
	threads   int
	format    Format
	// Blosc2 only: the whole pipeline.
	filters    [MaxFilters]Filter
	filterMeta [MaxFilters]uint8
	codecMeta  uint8
	dict       bool
}

func (o *Options) params() (params, error) {
	p := params{
		codec:     o.Codec,
		clevel:    o.Level,
		typesize:  o.Typesize,
		blocksize: o.Blocksize,
		split:     o.SplitMode,
		threads:   o.Threads,
		format:    o.Format,
	}
	if p.typesize == 0 {
		p.typesize = 1
	}
	if o.Format == FormatBlosc2 {
		return o.params2(p)
	}
	if o.Dict {
		return p, fmt.Errorf("%w: dictionaries need a Blosc2 chunk", ErrInvalidOptions)
	}
	if o.Format != FormatBlosc1 {
		return p, fmt.Errorf("%w: writing format %s is not implemented", ErrUnsupported, o.Format)
	}
	if int(o.Codec) >= len(codecNames) {
		return p, fmt.Errorf("%w: codec %s", ErrInvalidOptions, o.Codec)
	}
	if o.Level < 0 || o.Level > 9 {
		return p, fmt.Errorf("%w: level %d outside 0..9", ErrInvalidOptions, o.Level)
	}
	if p.typesize < 1 || p.typesize > MaxTypesize {
		return p, fmt.Errorf("%w: typesize %d outside 1..%d", ErrInvalidOptions, o.Typesize, MaxTypesize)
	}
	if o.Blocksize < 0 {
		return p, fmt.Errorf("%w: blocksize %d", ErrInvalidOptions, o.Blocksize)
	}
	if o.SplitMode > SplitForwardCompat {
		return p, fmt.Errorf("%w: split mode %d", ErrInvalidOptions, o.SplitMode)
	}
	if o.Threads < 0 {
		return p, fmt.Errorf("%w: threads %d", ErrInvalidOptions, o.Threads)
	}
	for i, f := range o.Filters {
		switch f {
		case NoFilter:
		case ByteShuffle, BitShuffle:
			if p.filter != NoFilter {
				return p, fmt.Errorf("%w: a Blosc1 chunk takes one shuffle filter, got %v", ErrInvalidOptions, o.Filters)
			}
			p.filter = f
		default:
			return p, fmt.Errorf("%w: filter %s in slot %d: a Blosc1 chunk takes only shuffle or bitshuffle", ErrInvalidOptions, f, i)
		}
		if o.FilterMeta[i] != 0 {
			return p, fmt.Errorf("%w: filter meta needs a Blosc2 chunk", ErrInvalidOptions)
		}
	}
	return p, nil
}

// layout is the shape of one chunk being written.
type layout struct {
	nbytes, blocksize, nblocks, leftover int
	flags                                uint8
	memcpyed                             bool
	split                                bool // full blocks stored as typesize streams
}

func (p *params) layout(nbytes int) layout {
	var l layout
	l.nbytes = nbytes
	l.blocksize = computeBlocksize(p.split, p.codec, p.clevel, p.typesize, nbytes, p.blocksize)
	if nbytes > 0 {
		l.nblocks = nbytes / l.blocksize
		l.leftover = nbytes % l.blocksize
		if l.leftover > 0 {
			l.nblocks++
		}
	}
	flags := codecCode(p.codec) << 5
	switch p.filter {
	case ByteShuffle:
		flags |= flagShuffle
	case BitShuffle:
		flags |= flagBitShuffle
	}
	splitFlag := splitBlock(p.split, p.codec, p.typesize, l.blocksize)
	if !splitFlag {
		flags |= flagDontSplit
	}
	if p.clevel == 0 || nbytes < minBufferSize {
		flags |= flagMemcpyed
		l.memcpyed = true
	}
	l.flags = flags
	// Write the streams a reader will look for. c-blosc 1.x's writer
	// splits whenever the flag says so, but its reader also requires the
	// typesize and elements-per-block bounds; where they disagree (forced
	// splitting of large types or small blocks) C writes chunks it cannot
	// read back, and we write what it reads.
	l.split = splitFlag && p.typesize <= maxSplits && l.blocksize/p.typesize >= minBufferSize
	return l
}

// blockLen is the uncompressed size of block j.
func (l *layout) blockLen(j int) int {
	if j == l.nblocks-1 && l.leftover > 0 {
		return l.leftover
	}
	return l.blocksize
}
