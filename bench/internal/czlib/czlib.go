//go:build cblosc && cgo

// Package czlib calls the system's C zlib (zlib1g, which c-blosc2 links
// for its zlib codec when built without zlib-ng) through cgo, to check and
// time this module's inflate against it. Only for tests under the build
// tag cblosc.
package czlib

/*
#cgo LDFLAGS: -lz
#include <stdlib.h>
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

// The deflate strategies of zlib.h, for CompressStrategy.
const (
	DefaultStrategy = int(C.Z_DEFAULT_STRATEGY)
	Filtered        = int(C.Z_FILTERED)
	HuffmanOnly     = int(C.Z_HUFFMAN_ONLY)
	RLE             = int(C.Z_RLE)
	Fixed           = int(C.Z_FIXED)
)

// CompressStrategy writes src as one zlib stream at level with a deflate
// strategy and window of 2^windowBits bytes (9-15), through deflateInit2,
// so tests get the fixed blocks, literal-only blocks, distance-1 runs and
// small windows C zlib writes.
func CompressStrategy(src []byte, level, windowBits, strategy int) ([]byte, error) {
	// The stream, its input and its output live in C memory: z_stream
	// keeps pointers that end up past the buffers' ends, which the Go
	// heap must never hold.
	s := (*C.z_stream)(C.calloc(1, C.size_t(unsafe.Sizeof(C.z_stream{}))))
	defer C.free(unsafe.Pointer(s))
	if rc := C.deflateInit2_(s, C.int(level), C.Z_DEFLATED, C.int(windowBits), 8, C.int(strategy),
		C.zlibVersion(), C.int(unsafe.Sizeof(*s))); rc != C.Z_OK {
		return nil, fmt.Errorf("czlib: deflateInit2: %d", int(rc))
	}
	defer C.deflateEnd(s)
	bound := int(C.deflateBound(s, C.uLong(len(src))))
	in := C.malloc(C.size_t(len(src) + 1))
	defer C.free(in)
	out := C.malloc(C.size_t(bound))
	defer C.free(out)
	copy(unsafe.Slice((*byte)(in), len(src)), src)
	s.next_in = (*C.Bytef)(in)
	s.avail_in = C.uInt(len(src))
	s.next_out = (*C.Bytef)(out)
	s.avail_out = C.uInt(bound)
	if rc := C.deflate(s, C.Z_FINISH); rc != C.Z_STREAM_END {
		return nil, fmt.Errorf("czlib: deflate: %d", int(rc))
	}
	return append([]byte(nil), unsafe.Slice((*byte)(out), bound-int(s.avail_out))...), nil
}
