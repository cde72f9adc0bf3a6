// Package blosc is a pure-Go implementation of the Blosc compression
// family: it splits typed binary data into blocks, reorders their bytes
// (byte shuffle) or bits (bit shuffle) so that similar bytes sit together,
// and compresses each block with a fast codec (BloscLZ, LZ4, LZ4HC, Snappy,
// Zlib, Zstd), several blocks at once. Everything it writes, the C
// libraries read, and everything they write, it reads.
//
// # Chunks
//
// A chunk is one compressed buffer with a header. [Compress] writes a Blosc1
// chunk, as c-blosc 1.x, zarr/numcodecs and the HDF5 Blosc filter store
// them, or, with Options.Format set to FormatBlosc2, a Blosc2 chunk as
// c-blosc2 writes it (a filter pipeline of up to six filters, zstd
// dictionaries, special chunks of zeros, NaNs or a repeated value).
// [Decompress] reads either, told apart by the header; [GetItems] decodes a
// range of items from only the blocks that hold them; [ReadHeader] validates
// and returns every header field. [Shuffle] and [Unshuffle] expose the byte
// shuffle on its own.
//
// # The engine
//
// A chunk's blocks are compressed and decompressed in parallel on a
// persistent set of workers (Options.Threads, 0 meaning GOMAXPROCS); the
// bytes written do not depend on the thread count. A [Compressor] (built by
// [NewCompressor]) and a [Decompressor] ([NewDecompressor]) hold the scratch of
// one caller: reused, with a dst of enough capacity ([CompressBound] for
// compression), a call allocates nothing and starts no goroutine. The
// package-level functions draw such contexts from pools and are safe for
// concurrent use.
//
// The shuffle kernels are chosen once at init from the CPU's features
// (SSE2, AVX2, AVX-512 on amd64, NEON on arm64); [Kernel] names the active
// one and the environment variable GOBLOSC_KERNEL forces a level. Building
// with -tags purego (or noasm) uses the portable Go kernels everywhere.
//
// # Super-chunks and frames
//
// An [SChunk] is a Blosc2 super-chunk: a sequence of chunks of one size
// ([SChunkOptions].ChunkSize, [DefaultChunkSize] when 0), with fixed-size
// metalayers and variable-length metalayers beside them. [NewSChunk] starts
// one in memory; [SChunk.AppendData] cuts data into chunks and compresses several at
// once; AppendChunk, InsertChunk, UpdateChunk, DeleteChunk and
// AppendSpecial change it as c-blosc2 does. A frame is a super-chunk
// serialised as one contiguous .b2frame: [SChunk.AppendFrame] and
// [SChunk.WriteTo] write it, [ParseFrame] reads one from memory without
// copying, [OpenFrame] reads one lazily from any io.ReaderAt (a chunk at a time;
// io.NewSectionReader for a frame inside a larger file).
//
// A frame file is changed in place: [CreateFrameFile] and [OpenFrameFile]
// return an SChunk whose every change writes bytes in proportion to the
// change and survives a crash (the file opens to the frame before or
// after it). A sparse frame ([CreateSparseFrame], [OpenSparseFrame]) is a
// directory holding the index in chunks.b2frame and each chunk in a file
// of its own.
//
// [FrameWriter] compresses a stream of any length into a new frame, reading,
// compressing and writing at once; [FrameReader] reads a super-chunk's data
// back as an io.Reader, io.Seeker, io.ReaderAt and io.WriterTo.
//
// # Errors
//
// Every error wraps one of the sentinels ([ErrCorrupt], [ErrUnsupported],
// [ErrInvalidOptions], [ErrTooLarge], [ErrShortBuffer], [ErrRange],
// [ErrNotFound]),
// tested with errors.Is. Bad input returns an error, never a panic, and is
// never trusted for an allocation larger than the input justifies.
//
// # Other packages
//
//   - bitshuffle: the bit shuffle filter and its kernels.
//   - blosclz: the BloscLZ codec, byte-identical to c-blosc's.
//   - bloscpack: Bloscpack files (.blp), read, written and appended to.
//   - cmd/blosc: the command-line tool (compress, decompress, append,
//     info, bench).
//   - internal/codec adapts the codecs to one calling convention;
//     internal/lz4 is our LZ4 and LZ4HC encoder and LZ4 decoder;
//     internal/zstddec our zstd decoder; internal/zdict the zstd
//     dictionary trainer; internal/cpu the feature detection and kernel
//     registry. The others are test and benchmark helpers.
//
// docs/layout.md in the repository maps the source files to these layers.
//
// The repository's docs directory holds the design and format notes.
package blosc
