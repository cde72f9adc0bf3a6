//go:build cblosc && cgo

// Package clz4 calls the system's liblz4 (the one c-blosc and c-blosc2
// link here) through cgo, so that internal/lz4's tests and benchmarks can
// hold its encoders to C's bytes and speed. Only for tests, under the
// build tag cblosc.
package clz4

/*
#cgo LDFLAGS: -llz4
#include <lz4.h>
#include <lz4hc.h>
*/
import "C"

import "unsafe"

// CompressHC is LZ4_compress_HC(src, dst, len(src), len(dst), level), the
// call c-blosc's LZ4HC codec makes for every stream.
func CompressHC(dst, src []byte, level int) int {
	if len(dst) == 0 {
		return 0
	}
	var sp *C.char
	if len(src) > 0 {
		sp = (*C.char)(unsafe.Pointer(&src[0]))
	}
	return int(C.LZ4_compress_HC(sp, (*C.char)(unsafe.Pointer(&dst[0])), C.int(len(src)), C.int(len(dst)), C.int(level)))
}

// Version is liblz4's version string.
func Version() string { return C.GoString(C.LZ4_versionString()) }
