//go:build cblosc && cgo

// Package cblosc calls the C library c-blosc 1.x (Debian's libblosc-dev)
// through cgo. It exists only for cross-checks and benchmarks under the
// build tag cblosc; nothing in the library depends on it.
package cblosc

/*
#cgo LDFLAGS: -lblosc
#include <stdlib.h>
#include <blosc.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Codec names as c-blosc spells them.
var Codecs = []string{"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"}

// Version is the C library's version string.
func Version() string { return C.GoString(C.blosc_get_version_string()) }

// HasCodec reports whether the C library was built with the named codec.
func HasCodec(name string) bool {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.blosc_compname_to_compcode(cs) >= 0
}

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// Compress writes one Blosc1 chunk of src into dst (which needs
// len(src)+16 bytes) with the context API, so no global state is touched.
// shuffle is 0 none, 1 byte, 2 bit; blocksize 0 is automatic.
func Compress(dst, src []byte, codec string, clevel, shuffle, typesize, blocksize, threads int) (int, error) {
	cs := C.CString(codec)
	defer C.free(unsafe.Pointer(cs))
	n := C.blosc_compress_ctx(C.int(clevel), C.int(shuffle), C.size_t(typesize),
		C.size_t(len(src)), ptr(src), ptr(dst), C.size_t(len(dst)), cs,
		C.size_t(blocksize), C.int(threads))
	if n <= 0 {
		return 0, fmt.Errorf("blosc_compress_ctx returned %d", int(n))
	}
	return int(n), nil
}

// Decompress decodes a Blosc1 chunk into dst, returning the byte count.
// The header's size is checked against the buffer first: c-blosc 1.x reads
// past a truncated chunk otherwise.
func Decompress(dst, src []byte, threads int) (int, error) {
	if len(src) < 16 {
		return 0, errors.New("chunk shorter than its header")
	}
	var nbytes C.size_t
	if C.blosc_cbuffer_validate(ptr(src), C.size_t(len(src)), &nbytes) < 0 {
		return 0, errors.New("blosc_cbuffer_validate rejected the chunk")
	}
	if int(nbytes) > len(dst) {
		return 0, fmt.Errorf("dst holds %d bytes, chunk needs %d", len(dst), int(nbytes))
	}
	n := C.blosc_decompress_ctx(ptr(src), ptr(dst), C.size_t(len(dst)), C.int(threads))
	if n < 0 {
		return 0, fmt.Errorf("blosc_decompress_ctx returned %d", int(n))
	}
	return int(n), nil
}

// GetItem decodes items [start, start+nitems) of a Blosc1 chunk into dst.
// It uses the library's global state, so callers must not run it
// concurrently.
func GetItem(dst, src []byte, start, nitems int) (int, error) {
	n := C.blosc_getitem(ptr(src), C.int(start), C.int(nitems), ptr(dst))
	if n < 0 {
		return 0, fmt.Errorf("blosc_getitem returned %d", int(n))
	}
	return int(n), nil
}
