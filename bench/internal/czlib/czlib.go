//go:build cblosc && cgo

// Package czlib calls the system's C zlib (zlib1g, which c-blosc2 links
// for its zlib codec when built without zlib-ng) through cgo, to check and
// time this module's inflate against it. Only for tests under the build
// tag cblosc.
package czlib

/*
#cgo LDFLAGS: -lz
#include <zlib.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Version is the C library's version string.
func Version() string { return C.GoString(C.zlibVersion()) }

// Compress writes src as one zlib stream at level, as c-blosc2's zlib
// codec does (compress2), and returns it.
func Compress(src []byte, level int) ([]byte, error) {
	dst := make([]byte, int(C.compressBound(C.uLong(len(src)))))
	var sp unsafe.Pointer
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	n := C.uLongf(len(dst))
	if rc := C.compress2((*C.Bytef)(unsafe.Pointer(&dst[0])), &n, (*C.Bytef)(sp), C.uLong(len(src)), C.int(level)); rc != C.Z_OK {
		return nil, fmt.Errorf("czlib: compress2: %d", int(rc))
	}
	return dst[:n], nil
}

// Uncompress decodes the zlib stream src into dst, as c-blosc2's zlib
// codec does (uncompress: the stream must end, checksum checked, within
// len(dst) bytes), and returns the bytes it wrote.
func Uncompress(dst, src []byte) (int, error) {
	var one [1]byte
	dp := unsafe.Pointer(&one[0])
	if len(dst) > 0 {
		dp = unsafe.Pointer(&dst[0])
	}
	sp := unsafe.Pointer(&one[0])
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	n := C.uLongf(len(dst))
	if rc := C.uncompress((*C.Bytef)(dp), &n, (*C.Bytef)(sp), C.uLong(len(src))); rc != C.Z_OK {
		return 0, fmt.Errorf("czlib: uncompress: %d", int(rc))
	}
	return int(n), nil
}

// CompressInto is Compress into dst, as c-blosc2's zlib_wrap_compress
// calls compress2 with the room left in the chunk: it returns the stream
// length, or 0 when the stream does not fit in dst.
func CompressInto(dst, src []byte, level int) int {
	var one [1]byte
	dp := unsafe.Pointer(&one[0])
	if len(dst) > 0 {
		dp = unsafe.Pointer(&dst[0])
	}
	sp := unsafe.Pointer(&one[0])
	if len(src) > 0 {
		sp = unsafe.Pointer(&src[0])
	}
	n := C.uLongf(len(dst))
	if rc := C.compress2((*C.Bytef)(dp), &n, (*C.Bytef)(sp), C.uLong(len(src)), C.int(level)); rc != C.Z_OK {
		return 0
	}
	return int(n)
}
