//go:build cblosc && cgo

package cblosc

/*
#cgo LDFLAGS: -l:libblosc.a
#include <stddef.h>
#include <stdint.h>

// c-blosc 1.x keeps its shuffle kernels out of the shared library's symbol
// table (BLOSC_NO_EXPORT), so they come from the static archive; these are
// the prototypes of its shuffle-avx2.h and bitshuffle-avx2.h.
void blosc_internal_shuffle_avx2(const size_t bytesoftype, const size_t blocksize,
                                 const uint8_t* const src, uint8_t* const dest);
void blosc_internal_unshuffle_avx2(const size_t bytesoftype, const size_t blocksize,
                                   const uint8_t* const src, uint8_t* const dest);
int64_t blosc_internal_bshuf_trans_bit_elem_avx2(void* in, void* out, const size_t size,
                                                 const size_t elem_size, void* tmp_buf);
int64_t blosc_internal_bshuf_untrans_bit_elem_avx2(void* in, void* out, const size_t size,
                                                   const size_t elem_size, void* tmp_buf);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// KernelName names the C kernels this file exposes, for benchmark rows.
const KernelName = "c-blosc avx2"

// ShuffleAVX2 runs c-blosc's AVX2 byte shuffle over len(src) bytes (dst
// must be as long). The caller checks the CPU has AVX2.
func ShuffleAVX2(dst, src []byte, typesize int) {
	if len(src) == 0 {
		return
	}
	C.blosc_internal_shuffle_avx2(C.size_t(typesize), C.size_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&src[0])), (*C.uint8_t)(unsafe.Pointer(&dst[0])))
}

// UnshuffleAVX2 is ShuffleAVX2's inverse.
func UnshuffleAVX2(dst, src []byte, typesize int) {
	if len(src) == 0 {
		return
	}
	C.blosc_internal_unshuffle_avx2(C.size_t(typesize), C.size_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&src[0])), (*C.uint8_t)(unsafe.Pointer(&dst[0])))
}

// BitShuffleAVX2 runs c-blosc's AVX2 bit shuffle. As in C, the element
// count len(src)/typesize must be a multiple of 8; tmp must be as long as
// src.
func BitShuffleAVX2(dst, src, tmp []byte, typesize int) error {
	return bitKernel(true, dst, src, tmp, typesize)
}

// BitUnshuffleAVX2 is BitShuffleAVX2's inverse.
func BitUnshuffleAVX2(dst, src, tmp []byte, typesize int) error {
	return bitKernel(false, dst, src, tmp, typesize)
}

func bitKernel(forward bool, dst, src, tmp []byte, typesize int) error {
	n := len(src) / typesize
	if n%8 != 0 || len(src)%typesize != 0 || len(dst) < len(src) || len(tmp) < len(src) {
		return fmt.Errorf("cblosc: bit shuffle of %d bytes at typesize %d: want a multiple of 8 elements and dst, tmp as long as src", len(src), typesize)
	}
	if n == 0 {
		return nil
	}
	in, out, t := unsafe.Pointer(&src[0]), unsafe.Pointer(&dst[0]), unsafe.Pointer(&tmp[0])
	var r C.int64_t
	if forward {
		r = C.blosc_internal_bshuf_trans_bit_elem_avx2(in, out, C.size_t(n), C.size_t(typesize), t)
	} else {
		r = C.blosc_internal_bshuf_untrans_bit_elem_avx2(in, out, C.size_t(n), C.size_t(typesize), t)
	}
	if r < 0 {
		return fmt.Errorf("cblosc: bit shuffle failed with code %d", int64(r))
	}
	return nil
}
