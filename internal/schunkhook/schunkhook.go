// Package schunkhook lets the packages beside the root one (b2nd) reach
// a super-chunk's or a chunk reader's internals that the public API does
// not offer. The root package sets the functions at init; the values are
// *blosc.SChunk or *blosc.ChunkReader, which this package cannot name
// without an import cycle.
package schunkhook

// Reserve makes room in an in-memory super-chunk for n more bytes of
// chunks, so that appending that many costs no growth of its buffer; it
// does nothing for a frame in a file or a sparse frame. A caller that
// knows how much it will append (b2nd making an array, from the ratio
// of its first chunks) saves the super-chunk doubling its buffer again
// and again, each time clearing a new one and copying the old.
var Reserve func(sc any, n int64)

// ReadsPart reports whether a *blosc.ChunkReader's ReadAt of the n bytes
// at off, which lie in one block of its chunk, unshuffles only them,
// straight into the caller's buffer: a kernel unshuffles the range's
// items from the block's decoded streams. A reader of parts of blocks
// (b2nd's slices) then reads any part that way; otherwise a part over a
// quarter of its block costs more read alone (the block is decoded
// whole, then the part copied out) than read with its whole block.
var ReadsPart func(cr any, off int64, n int) bool

// ReadBlockStreams decodes the streams of block nblock of a
// *blosc.ChunkReader's chunk when the block is a whole one whose only
// filter to undo is a byte shuffle of ts-byte items, ts dividing its
// size, and calls fn with the ts streams of that shuffle: byte j of item
// e of the block is streams[j][e]. It reports false, calling nothing,
// for any other block. The streams are valid only during fn, which must
// not change them (some are the chunk's own bytes). A slice that needs a
// few items spread through a block (a band one item wide along its last
// axis) gathers them from the streams, unshuffling nothing else.
var ReadBlockStreams func(cr any, nblock int64, ts int, fn func(streams *[16][]byte)) (bool, error)

// LoadBlocks reads the compressed bytes of the listed blocks of a
// *blosc.ChunkReader's chunk that is read lazily from a frame file (a
// reader of a chunk in memory reads nothing), adjacent blocks with one
// call, and reports whether the reader is lazy. A slice that reads its
// blocks one at a time (parts of them) loads them first this way: one
// read of a file per block was a tenth of a band's time.
var LoadBlocks func(cr any, blocks []int64) (bool, error)

// UnshuffleRows unshuffles n1 rows of row items of ts bytes from the
// streams of a byte shuffle (byte j of item e is streams[j][e], as
// ReadBlockStreams hands them) straight into their places in dst: row k
// from item sp+k*ss1 of the streams to item dp+k*ds1 of dst. It reports
// false, writing nothing, where no kernel takes rows of row ts-byte
// items (UnshufflesRows) or a row would lie outside the streams or dst. A
// slice that needs a box of a block (most of each row of a part of its
// rows) unshuffles just those rows into the output this way, where
// unshuffling the block's part into scratch and copying its rows out
// moved every byte twice.
var UnshuffleRows func(dst []byte, streams *[16][]byte, ts int, dp, sp, row, n1, ds1, ss1 int64) bool

// UnshufflesRows reports whether UnshuffleRows has a kernel for rows of
// row ts-byte items (some kernels leave short rows to the copies).
var UnshufflesRows func(ts int, row int64) bool

// BlockRows places the blocks of a chunk in a larger buffer of items, so
// that the chunk can be compressed from there (CompressRows): block j's
// items, in their order in the chunk, are rows of Row items, the rows
// counted by the Dims first Counts (outermost first) and lying the
// matching Strides items apart, the block's first item being item
// Blocks[j] of Src. A chunk of a C-order array's whole chunk that an
// array's writer holds in the caller's C-order buffer is that, its rows
// the block's rows along the array's last dimension.
type BlockRows struct {
	Src             []byte
	Row             int64
	Dims            int
	Counts, Strides [7]int64
	Blocks          []int64
}

// CompressesRows reports whether CompressRows takes chunks made with
// the options opts (a *blosc.Options): a kernel shuffles the rows of
// their items straight into a block's streams. A caller that knows it
// does not fills its chunk as before.
var CompressesRows func(opts any) bool

// CompressRows compresses into dst the chunk whose blocks r places,
// with the options opts (a *blosc.Options), and returns the chunk, the
// very bytes that blosc.Compress makes of the blocks laid end to end.
// It reports false, compressing nothing, where it cannot: options that
// CompressesRows refuses, rows that lie outside r.Src or blocks of
// another size than the options' block size. Making an array from the
// caller's buffer, the shuffle of each block reads the block's rows
// where they are, where copying them into the chunk first and reading
// the chunk again moved every byte twice.
var CompressRows func(dst []byte, r *BlockRows, opts any) ([]byte, bool, error)
