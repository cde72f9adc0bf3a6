// Package blosc is a pure-Go implementation of the Blosc compression
// family: it splits typed binary data into blocks, reorders their bytes
// (byte shuffle) or bits (bit shuffle) so that similar bytes sit together,
// and compresses each block with a fast codec (BloscLZ, LZ4, LZ4HC, Snappy,
// Zlib, Zstd), several blocks at once.
//
// Chunks are byte-compatible with the C libraries: Blosc1 chunks as c-blosc
// 1.x, zarr/numcodecs and the HDF5 Blosc filter store them, and Blosc2
// chunks as c-blosc2 writes them.
//
// The package-level functions are safe for concurrent use. A service that
// compresses many small buffers builds a Compressor and a Decompressor once
// per goroutine and passes a dst with enough capacity: the hot path then
// allocates nothing and starts no goroutine.
//
// The shuffle kernels are chosen once at init from the CPU's features
// (SSE2, AVX2, AVX-512 on amd64, NEON on arm64); Kernel names the active
// one and the environment variable GOBLOSC_KERNEL forces a level. Building
// with -tags purego (or noasm) uses the portable Go kernels everywhere.
package blosc
