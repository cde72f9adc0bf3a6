package blosc

// The chunk API: one buffer in, one Blosc1 or Blosc2 chunk out, and back.
// The engine (engine*.go) does the work; Compressor and Decompressor keep
// an engine for callers in hot loops.

// CompressBound returns the largest chunk Compress can write for n input
// bytes in either format: n plus the header, since a chunk that does not
// compress is stored as a copy.
func CompressBound(n int) int { return n + MaxOverhead }

// Compress writes src as one chunk in the format opts select and returns
// it.
//
// A Blosc2 chunk is what c-blosc2's blosc2_compress_ctx writes into a
// destination of len(src)+32 bytes: its block-size tuner, split rule,
// filter pipeline, byte-run streams and zero-special chunks (see
// compress2).
//
// A Blosc1 chunk is what c-blosc 1.21 writes with the same settings: the same
// block size, split layout and flags, stored as a copy (memcpyed) when the
// level is 0, the input is under 128 bytes or the streams would not be
// smaller than the input. With one thread it is byte for byte C's chunk
// wherever the Go codec writes the C codec's bytes (LZ4 does); the output
// is the same whatever opts.Threads is.
//
// If cap(dst) >= CompressBound(len(src)) the chunk is written into dst's array and no
// memory is allocated (after the first calls have set up encoders);
// otherwise a new buffer is allocated. dst and src must not overlap.
func Compress(dst, src []byte, opts Options) ([]byte, error) {
	p, err := opts.params()
	if err != nil {
		return nil, err
	}
	e := enginePool.Get().(*engine)
	out, err := e.compress(dst, src, &p)
	enginePool.Put(e)
	return out, err
}

// Decompress decodes the chunk at the start of src and returns its nbytes
// bytes. It reads Blosc1 chunks (c-blosc 1.x, or c-blosc2's Blosc1 API) and
// Blosc2 chunks (c-blosc2's 32-byte header: filter pipelines, zero and
// byte-run streams, dictionaries, variable-length blocks, special chunks).
//
// If cap(dst) >= nbytes, the data is written into dst's array and no
// memory is allocated (after the first calls have set up decoders);
// otherwise a new buffer is allocated.
//
// Nothing is read outside src[:cbytes], and nothing is allocated before
// ReadHeader's checks pass. The rule they enforce, so that a hostile
// header cannot make us allocate what its bytes do not back: every offset
// and stream size lies inside the chunk; the streams, block after block,
// cover the chunk exactly; and each compressed stream is at least
// 1/codec.MaxExpansion of the bytes it must produce (256 for LZ4 and
// BloscLZ, 32 for Snappy, 1040 for deflate, 32768 for zstd), stored streams
// being as long as their output. Only Blosc2 zero runs, byte runs and
// special chunks, which stand for their size by definition, can claim
// more. Every stream must then decode to exactly its share of the block.
// A chunk failing any check returns an error wrapping ErrCorrupt.
func Decompress(dst, src []byte) ([]byte, error) {
	e := enginePool.Get().(*engine)
	out, err := e.decompress(dst, src, 0)
	enginePool.Put(e)
	return out, err
}

// GetItems decodes items [start, start+n) of the chunk in src, an item
// being typesize bytes, and returns their n*typesize bytes. Only the blocks
// holding those items are decoded. dst is reused as in Decompress. A range
// outside the chunk returns an error wrapping ErrRange.
//
// Like c-blosc's blosc_getitem, the range is in whole items of the header's
// typesize; bytes of a trailing partial item cannot be addressed.
func GetItems(dst, src []byte, start, n int64) ([]byte, error) {
	e := enginePool.Get().(*engine)
	out, err := e.getItems(dst, src, start, n)
	enginePool.Put(e)
	return out, err
}
