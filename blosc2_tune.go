package blosc

// c-blosc2's block-size tuner (stune.c) and split rule, so that chunks get
// the same blocks, and hence the same ratios, as C's.

const (
	stuneL1         = 32 * 1024
	stuneMaxStreams = 16
)

// hasShuffle2 is c-blosc2's BLOSC_DOSHUFFLE flag: a byte shuffle anywhere
// in the pipeline.
func hasShuffle2(filters [MaxFilters]Filter) bool {
	for _, f := range filters {
		if f == ByteShuffle {
			return true
		}
	}
	return false
}

// splitBlock2 is c-blosc2's split_block: whether each block is stored as
// typesize streams.
func splitBlock2(mode SplitMode, c Codec, level int, filters [MaxFilters]Filter, typesize, blocksize int) bool {
	switch mode {
	case SplitAlways:
		return true
	case SplitNever:
		return false
	}
	fast := c == BloscLZ || c == LZ4 || (c == Zstd && level <= 5)
	return fast && hasShuffle2(filters) && typesize <= stuneMaxStreams && blocksize/typesize >= minBufferSize2
}

// blocksize2 is blosc_stune_next_blocksize: the block size for nbytes of
// input, or the forced one (rounded down to whole elements, which the C
// library does internally but does not record in the header).
func blocksize2(nbytes, typesize, level int, c Codec, filters [MaxFilters]Filter, mode SplitMode, forced int) int {
	if nbytes < typesize {
		return 1
	}
	bs := nbytes
	if forced > 0 {
		bs = forced
	} else {
		if nbytes >= stuneL1 {
			bs = stuneL1
			if isHCR(c) {
				bs *= 2
			}
			switch level {
			case 0:
				bs /= 4
			case 1:
				bs /= 2
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
		if level > 0 && splitBlock2(mode, c, level, filters, typesize, nbytes) {
			switch level {
			case 1, 2, 3:
				bs = 32 * 1024
			case 4, 5, 6:
				bs = 64 * 1024
			case 7:
				bs = 128 * 1024
			case 8:
				bs = 256 * 1024
			default:
				bs = 512 * 1024
			}
			bs *= typesize
			bs = min(bs, 4*1024*1024)
			bs = max(bs, 32*1024)
		}
	}
	bs = min(bs, nbytes)
	if bs > typesize {
		bs = bs / typesize * typesize
	}
	return bs
}
