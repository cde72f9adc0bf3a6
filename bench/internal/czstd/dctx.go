//go:build cblosc && cgo

package czstd

/*
#cgo LDFLAGS: -l:libzstd.so.1
#include <stddef.h>
typedef struct ZSTD_DCtx_s ZSTD_DCtx;
ZSTD_DCtx* ZSTD_createDCtx(void);
size_t ZSTD_freeDCtx(ZSTD_DCtx* dctx);
size_t ZSTD_decompressDCtx(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize);
unsigned ZSTD_isError(size_t code);
const char* ZSTD_getErrorName(size_t code);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// DCtx is a libzstd decompression context kept across calls, as
// c-blosc2 keeps one per thread: decoding with it measures the decoder
// without ZSTD_decompress's allocation of a context per call.
type DCtx struct{ c *C.ZSTD_DCtx }

// NewDCtx allocates a context; Free releases it.
func NewDCtx() *DCtx { return &DCtx{C.ZSTD_createDCtx()} }

// Free releases the context.
func (d *DCtx) Free() { C.ZSTD_freeDCtx(d.c) }

// Decompress decodes the frames in src into dst and returns their size.
func (d *DCtx) Decompress(dst, src []byte) (int, error) {
	if len(dst) == 0 || len(src) == 0 {
		return 0, fmt.Errorf("czstd: empty buffer")
	}
	n := C.ZSTD_decompressDCtx(d.c, unsafe.Pointer(&dst[0]), C.size_t(len(dst)),
		unsafe.Pointer(&src[0]), C.size_t(len(src)))
	if C.ZSTD_isError(n) != 0 {
		return 0, fmt.Errorf("czstd: %s", C.GoString(C.ZSTD_getErrorName(n)))
	}
	return int(n), nil
}
