//go:build cblosc && cgo

package czstd

/*
#cgo LDFLAGS: -l:libzstd.so.1
#include <stddef.h>
typedef struct ZSTD_CCtx_s ZSTD_CCtx;
ZSTD_CCtx* ZSTD_createCCtx(void);
size_t ZSTD_freeCCtx(ZSTD_CCtx* cctx);
size_t ZSTD_compressCCtx(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize, int compressionLevel);
size_t ZSTD_compress_usingDict(ZSTD_CCtx* ctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize, const void* dict,size_t dictSize, int compressionLevel);
size_t ZSTD_compressBound(size_t srcSize);
unsigned ZSTD_isError(size_t code);
const char* ZSTD_getErrorName(size_t code);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// CCtx is a libzstd compression context kept across calls, as c-blosc2
// keeps one per thread (ZSTD_compressCCtx): timing it measures the
// encoder, not a context's allocation.
type CCtx struct{ c *C.ZSTD_CCtx }

// NewCCtx allocates a context; Free releases it.
func NewCCtx() *CCtx { return &CCtx{C.ZSTD_createCCtx()} }

// Free releases the context.
func (c *CCtx) Free() { C.ZSTD_freeCCtx(c.c) }

// Bound is ZSTD_compressBound.
func Bound(n int) int { return int(C.ZSTD_compressBound(C.size_t(n))) }

// Compress writes src as one frame at level into dst, which must hold
// Bound(len(src)) bytes, and returns its size.
func (c *CCtx) Compress(dst, src []byte, level int) (int, error) {
	return c.CompressDict(dst, src, nil, level)
}

// CompressDict is Compress against a dictionary (ZSTD_compress_usingDict;
// raw content unless it starts with the dictionary magic).
func (c *CCtx) CompressDict(dst, src, dict []byte, level int) (int, error) {
	if len(dst) == 0 {
		return 0, fmt.Errorf("czstd: no room")
	}
	var sp, dp unsafe.Pointer
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	if len(dict) > 0 {
		dp = unsafe.Pointer(&dict[0])
	}
	n := C.ZSTD_compress_usingDict(c.c, unsafe.Pointer(&dst[0]), C.size_t(len(dst)), sp, C.size_t(len(src)),
		dp, C.size_t(len(dict)), C.int(level))
	if C.ZSTD_isError(n) != 0 {
		return 0, fmt.Errorf("czstd: %s", C.GoString(C.ZSTD_getErrorName(n)))
	}
	return int(n), nil
}
