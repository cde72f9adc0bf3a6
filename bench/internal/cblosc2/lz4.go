//go:build cblosc2 && cgo

package cblosc2

/*
#include <lz4.h>
*/
import "C"

import "unsafe"

// LZ4CompressFast is the LZ4_compress_fast of the liblz4 c-blosc2 links,
// the call its LZ4 codec makes for every stream: internal/lz4 times its
// own against it on the same streams.
func LZ4CompressFast(dst, src []byte, acceleration int) int {
	if len(src) == 0 || len(dst) == 0 {
		return 0
	}
	return int(C.LZ4_compress_fast((*C.char)(unsafe.Pointer(&src[0])), (*C.char)(unsafe.Pointer(&dst[0])),
		C.int(len(src)), C.int(len(dst)), C.int(acceleration)))
}

// LZ4Version is liblz4's version string.
func LZ4Version() string { return C.GoString(C.LZ4_versionString()) }

// LZ4DecompressSafe is the LZ4_decompress_safe of the liblz4 c-blosc2
// links: it decodes the block src into dst and returns the bytes written,
// or a negative number for a malformed block. Empty slices are passed as
// they are (a nil src as NULL, which C rejects).
func LZ4DecompressSafe(dst, src []byte) int {
	return int(C.LZ4_decompress_safe((*C.char)(unsafe.Pointer(unsafe.SliceData(src))), (*C.char)(unsafe.Pointer(unsafe.SliceData(dst))),
		C.int(len(src)), C.int(len(dst))))
}

// LZ4DecompressSafeUsingDict is LZ4_decompress_safe_usingDict: as
// LZ4DecompressSafe, with matches reaching into dict, the bytes before
// dst (not contiguous with it here, so C takes its external-dictionary
// path).
func LZ4DecompressSafeUsingDict(dst, src, dict []byte) int {
	return int(C.LZ4_decompress_safe_usingDict((*C.char)(unsafe.Pointer(unsafe.SliceData(src))), (*C.char)(unsafe.Pointer(unsafe.SliceData(dst))),
		C.int(len(src)), C.int(len(dst)), (*C.char)(unsafe.Pointer(unsafe.SliceData(dict))), C.int(len(dict))))
}
