// Package blosclz implements BloscLZ, the default codec of the Blosc
// compressors: a FastLZ-derived LZ77 format with 32-byte literal runs,
// 13-bit near distances and 16-bit far distances.
//
// Decompress reads every stream that c-blosc 1.x (BloscLZ 2.5.1) and c-blosc2
// (BloscLZ 2.5.3) write. Compress produces the same bytes as BloscLZ 2.5.1,
// the version inside c-blosc 1.21, including its decision to give up on
// data that does not compress well enough for the level (an entropy probe
// over the end of the input): when Compress returns 0 a Blosc chunk stores
// the stream raw, exactly where c-blosc would. CompressBlosc2 does the same
// for BloscLZ 2.5.3 and c-blosc2.
//
// The functions are safe for concurrent use and do not allocate: the hash
// tables live on the stack. An Encoder keeps its table between calls,
// which pays on short inputs.
package blosclz

import "errors"

// ErrCorrupt is wrapped by every error Decompress returns: the stream is
// truncated, refers to bytes before the start of the output, or decodes to
// more bytes than dst holds.
var ErrCorrupt = errors.New("blosclz: corrupt stream")

// MaxLevel is the highest compression level; levels above it act as it.
const MaxLevel = 9

// Compress compresses src into dst at level 1..9 with c-blosc's meaning of
// clevel for BloscLZ, and returns the length of the stream written, or 0
// when the stream would not fit in len(dst) or the level's entropy
// threshold says the data is not worth compressing. Inputs shorter than 16
// bytes, outputs shorter than 66 bytes and levels below 1 also give 0, as in
// C. Compress never writes past len(dst), but may use all of it as scratch:
// bytes after the returned length, or all of dst when it returns 0, are
// unspecified.
//
// Compress is BloscLZ as c-blosc 1.21 calls it for the streams of a split
// block (the usual case: the chunk header's bit 4 clear); see CompressBlock
// for the other case. To decide exactly as c-blosc does, give dst a length
// of len(src): c-blosc offers no more room, and stores a block raw when the
// stream does not come out shorter.
func Compress(dst, src []byte, level int) int {
	return compress(dst, src, level, true, false, nil)
}

// CompressBlock is Compress with the remaining argument c-blosc 1.21 passes
// to BloscLZ: split is false when the chunk stores each block as a single
// stream (header flag bit 4, "not split", set). An unsplit block is encoded
// with shorter minimum matches, so the bytes differ from Compress's.
func CompressBlock(dst, src []byte, level int, split bool) int {
	return compress(dst, src, level, split, false, nil)
}

// CompressBlosc2 is BloscLZ 2.5.3, the version inside c-blosc2, which writes
// different bytes from 2.5.1 (it probes more of the input, more so at higher
// levels, and always asks for matches of at least 4 bytes; the split state
// no longer matters). Use it to reproduce c-blosc2's chunks exactly; either
// version's streams decode with Decompress. Its results and limits are
// those of Compress.
func CompressBlosc2(dst, src []byte, level int) int {
	return compress(dst, src, level, true, true, nil)
}

// Encoder is Compress, CompressBlock and CompressBlosc2 with a hash table
// kept between calls: a new table is 64 KiB to clear (at levels 3 to 9),
// more than the work of encoding the few hundred bytes of a split stream
// of a small block, while an Encoder's entries are numbered so that those
// of earlier calls read as empty, and it is cleared only once every 4 GiB
// of input (so is its entropy probe's table, 8 or 32 KiB to clear). The
// output is the functions'. The zero Encoder is ready to use; it is not
// safe for concurrent use.
type Encoder struct {
	t table // the encoder's
	p table // the entropy probe's
}

// Compress is the package's Compress.
func (e *Encoder) Compress(dst, src []byte, level int) int {
	return compress(dst, src, level, true, false, e)
}

// CompressBlock is the package's CompressBlock.
func (e *Encoder) CompressBlock(dst, src []byte, level int, split bool) int {
	return compress(dst, src, level, split, false, e)
}

// CompressBlosc2 is the package's CompressBlosc2.
func (e *Encoder) CompressBlosc2(dst, src []byte, level int) int {
	return compress(dst, src, level, true, true, e)
}
