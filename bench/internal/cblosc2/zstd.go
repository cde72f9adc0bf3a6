//go:build cblosc2 && cgo

package cblosc2

/*
#include <zstd.h>
*/
import "C"

import "unsafe"

// ZstdCCtx is a libzstd compression context of the libzstd c-blosc2
// links, kept across calls as c-blosc2 keeps one per thread: timing
// ZstdCCtx.Compress on a chunk's byte planes against c-blosc2's whole
// chunk tells what the chunk costs around its zstd streams.
type ZstdCCtx struct{ c *C.ZSTD_CCtx }

// NewZstdCCtx allocates a context; Free releases it.
func NewZstdCCtx() *ZstdCCtx { return &ZstdCCtx{C.ZSTD_createCCtx()} }

// Free releases the context.
func (c *ZstdCCtx) Free() { C.ZSTD_freeCCtx(c.c) }

// Compress is ZSTD_compressCCtx, c-blosc2's call for every zstd stream:
// one frame of src at level into at most len(dst) bytes. It returns the
// frame's size, or 0 when the frame does not fit (libzstd's error, on
// which c-blosc2 stores the stream as it is) or src or dst is empty.
func (c *ZstdCCtx) Compress(dst, src []byte, level int) int {
	if len(src) == 0 || len(dst) == 0 {
		return 0
	}
	n := C.ZSTD_compressCCtx(c.c, unsafe.Pointer(&dst[0]), C.size_t(len(dst)), unsafe.Pointer(&src[0]), C.size_t(len(src)), C.int(level))
	if C.ZSTD_isError(n) != 0 {
		return 0
	}
	return int(n)
}
