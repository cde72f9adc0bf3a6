package blosc

import (
	"fmt"
	"sync"

	"github.com/goblosc/blosc/internal/codec"
)

// workerState is what one goroutine needs to do blocks: the codec
// encoders and decoders and block-sized scratch. Each pool worker owns one,
// and each engine owns one for its caller's goroutine.
type workerState struct {
	codec codec.State
	tmp   []byte // a filtered (shuffled) block
	blk   []byte // a whole decoded block, for GetItem
	b2    decodeState
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// engine is the reusable part of a Compressor or Decompressor: caller
// state, the batch handed to the scheduler, and per-call fields the block
// tasks read.
type engine struct {
	ws    workerState
	batch batch

	// Compression of one chunk.
	c1     compress1Call
	b2     blosc2Call
	blocks blockWriter
	// A chunk compressed from rows (compressRows): its parameters and
	// rows live here, so that nothing is allocated for them.
	rowsParams params
	rows       rowSource

	// Decompression of one chunk.
	h     Header
	chunk []byte
	out   []byte
	// stored holds a chunk read from a frame file for decoding, kept
	// for the next one (up to maxScratch bytes).
	stored []byte

	errMu sync.Mutex
	err   error

	// parallelMin overrides parallelMinBytes when positive (benchmarks).
	parallelMin int
	// stageMin overrides stageMinDefault when positive (benchmarks, tests).
	stageMin int
	// bypass says the chunk being decoded is one piece of an output of
	// bypassMinBytes or more (see unshuffleBypass).
	bypass bool
}

func (e *engine) parallelAt(nbytes int, c Codec, compress bool) bool {
	if e.parallelMin > 0 {
		return nbytes >= e.parallelMin
	}
	return nbytes >= splitMinBytes(c, compress)
}

// splitMinBytes is the chunk size from which its blocks are shared out:
// where one thread's work is long enough (some 150 us on the Xeon these
// were measured on) for a helper's wake-up and its cold caches to be
// small beside it. Decoding is fast for every codec but zlib (LZ4 ran a
// 1 MiB chunk of four blocks at 14-15 GB/s alone and lost to itself
// split in two, 0.91-0.93x by the median of nine rounds, while 4 MiB
// split ran 1.6-1.9x); compressing is fast for BloscLZ and LZ4 only, and
// their 1 MiB chunks (four blocks, under a millisecond and a half alone)
// lost split when the other cores were busy (0.85-0.97x by the medians
// of 25 to 61 rounds, every run), where they had gained a little when
// the cores were free.
func splitMinBytes(c Codec, compress bool) int {
	switch {
	case compress && (c == BloscLZ || c == LZ4):
		return 2 << 20
	case compress || c == Zlib:
		return parallelMinBytes
	}
	return 2 << 20
}

type blockResult struct {
	n    int // bytes of streams, 0 if the block did not fit its budget
	err  error
	done bool // set under blockWriter.mu once n and err are final
}

func (e *engine) setErr(err error) {
	e.errMu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.errMu.Unlock()
}

var enginePool = sync.Pool{New: func() any { return new(engine) }}

// parallelMinBytes is the smallest chunk size at which blocks are shared
// out, for the slow codecs (see splitMinBytes). BenchmarkParallelThreshold
// (LZ4, 32 KiB blocks, two cores) showed two threads ahead from 128 KiB
// for both directions and mixed at 64 KiB; below that the hand-off is not
// worth its cost.
const parallelMinBytes = 128 << 10

// Compressor compresses chunks with fixed options, reusing its encoders and
// buffers from call to call. A Compressor must not be used by two
// goroutines at once; use one per goroutine, or the package-level Compress,
// which draws them from a pool. Its worker goroutines are shared by every
// Compressor and Decompressor in the process.
type Compressor struct {
	p params
	e engine
}

// NewCompressor checks opts and returns a Compressor for them.
func NewCompressor(opts Options) (*Compressor, error) {
	p, err := opts.params()
	if err != nil {
		return nil, err
	}
	return &Compressor{p: p}, nil
}

// Compress writes src as one chunk; see the package-level Compress.
func (c *Compressor) Compress(dst, src []byte) ([]byte, error) {
	return c.e.compress(dst, src, &c.p)
}

// Decompressor decodes chunks, reusing its decoders and buffers from call to
// call. The same concurrency rule as for Compressor applies. The zero value
// is ready to use, with the default options.
type Decompressor struct {
	threads int
	e       engine
}

// DecompressOptions configure a Decompressor.
type DecompressOptions struct {
	// Threads is the number of blocks decoded at once: 0 means
	// runtime.GOMAXPROCS(0), 1 the caller's goroutine only.
	Threads int
}

// NewDecompressor checks opts and returns a Decompressor for them.
func NewDecompressor(opts DecompressOptions) (*Decompressor, error) {
	if opts.Threads < 0 {
		return nil, fmt.Errorf("%w: %d threads", ErrInvalidOptions, opts.Threads)
	}
	return &Decompressor{threads: opts.Threads}, nil
}

// Decompress decodes a chunk; see the package-level Decompress.
func (d *Decompressor) Decompress(dst, src []byte) ([]byte, error) {
	return d.e.decompress(dst, src, d.threads)
}

// GetItems decodes items of a chunk; see the package-level GetItems.
func (d *Decompressor) GetItems(dst, src []byte, start, n int64) ([]byte, error) {
	return d.e.getItems(dst, src, start, n)
}
