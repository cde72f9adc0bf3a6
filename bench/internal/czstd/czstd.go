//go:build cblosc && cgo

// Package czstd calls the system's C zstd library (libzstd.so.1, which
// c-blosc links) through cgo, to check that zstd frames this module writes
// with a chunk dictionary are read by C the way c-blosc2 reads them
// (ZSTD_createDDict + ZSTD_decompress_usingDDict). Only for tests under the
// build tag cblosc. The headers are not installed, so the few prototypes
// are declared here.
package czstd

/*
#cgo LDFLAGS: -l:libzstd.so.1
#include <stddef.h>
typedef struct ZSTD_DCtx_s ZSTD_DCtx;
typedef struct ZSTD_DDict_s ZSTD_DDict;
ZSTD_DCtx* ZSTD_createDCtx(void);
size_t ZSTD_freeDCtx(ZSTD_DCtx* dctx);
ZSTD_DDict* ZSTD_createDDict(const void* dictBuffer, size_t dictSize);
size_t ZSTD_freeDDict(ZSTD_DDict* ddict);
size_t ZSTD_decompress_usingDDict(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity,
                                  const void* src, size_t srcSize, const ZSTD_DDict* ddict);
size_t ZSTD_compress(void* dst, size_t dstCapacity, const void* src, size_t srcSize, int compressionLevel);
size_t ZSTD_decompress(void* dst, size_t dstCapacity, const void* src, size_t srcSize);
size_t ZSTD_compressBound(size_t srcSize);
unsigned ZSTD_isError(size_t code);
const char* ZSTD_getErrorName(size_t code);
unsigned ZSTD_versionNumber(void);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Version is the C library's version number (major*10000+minor*100+patch).
func Version() int { return int(C.ZSTD_versionNumber()) }

// DecompressWithDict decodes one zstd frame into dst (its exact size) with
// dict loaded as c-blosc2 loads a chunk dictionary.
func DecompressWithDict(dst, src, dict []byte) (int, error) {
	if len(src) == 0 || len(dict) == 0 || len(dst) == 0 {
		return 0, fmt.Errorf("czstd: empty buffer")
	}
	dd := C.ZSTD_createDDict(unsafe.Pointer(&dict[0]), C.size_t(len(dict)))
	if dd == nil {
		return 0, fmt.Errorf("czstd: ZSTD_createDDict failed")
	}
	defer C.ZSTD_freeDDict(dd)
	dc := C.ZSTD_createDCtx()
	defer C.ZSTD_freeDCtx(dc)
	n := C.ZSTD_decompress_usingDDict(dc, unsafe.Pointer(&dst[0]), C.size_t(len(dst)),
		unsafe.Pointer(&src[0]), C.size_t(len(src)), dd)
	if C.ZSTD_isError(n) != 0 {
		return 0, fmt.Errorf("czstd: %s", C.GoString(C.ZSTD_getErrorName(n)))
	}
	return int(n), nil
}

// Compress writes src as one zstd frame at the given level, as c-blosc's
// zstd wrapper does (ZSTD_compress), and returns it.
func Compress(src []byte, level int) ([]byte, error) {
	dst := make([]byte, int(C.ZSTD_compressBound(C.size_t(len(src)))))
	var sp unsafe.Pointer
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	n := C.ZSTD_compress(unsafe.Pointer(&dst[0]), C.size_t(len(dst)), sp, C.size_t(len(src)), C.int(level))
	if C.ZSTD_isError(n) != 0 {
		return nil, fmt.Errorf("czstd: %s", C.GoString(C.ZSTD_getErrorName(n)))
	}
	return dst[:n], nil
}

// Decompress decodes the frames in src into dst and returns their size.
func Decompress(dst, src []byte) (int, error) {
	var dp, sp unsafe.Pointer
	if len(dst) > 0 {
		dp = unsafe.Pointer(&dst[0])
	}
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	n := C.ZSTD_decompress(dp, C.size_t(len(dst)), sp, C.size_t(len(src)))
	if C.ZSTD_isError(n) != 0 {
		return 0, fmt.Errorf("czstd: %s", C.GoString(C.ZSTD_getErrorName(n)))
	}
	return int(n), nil
}
