//go:build cblosc2 && cgo

package cblosc2

/*
#include <stddef.h>
#include <stdint.h>

// c-blosc2 keeps its per-ISA kernels out of the exported API
// (BLOSC_NO_EXPORT), but the static archive still links them; these are
// the prototypes of its shuffle-avx2.h, bitshuffle-avx2.h and
// bitshuffle-avx512.h. The public blosc2_shuffle family would pick the
// same kernels, after a per-call dispatch check.
void shuffle_avx2(const int32_t bytesoftype, const int32_t blocksize,
                  const uint8_t *_src, uint8_t *_dest);
void unshuffle_avx2(const int32_t bytesoftype, const int32_t blocksize,
                    const uint8_t *_src, uint8_t *_dest);
int64_t bshuf_trans_bit_elem_AVX(const void* in, void* out, const size_t size,
                                 const size_t elem_size);
int64_t bshuf_untrans_bit_elem_AVX(const void* in, void* out, const size_t size,
                                   const size_t elem_size);
int64_t bshuf_trans_bit_elem_AVX512(const void* in, void* out, const size_t size,
                                    const size_t elem_size);
int64_t bshuf_untrans_bit_elem_AVX512(const void* in, void* out, const size_t size,
                                      const size_t elem_size);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ShuffleAVX2 runs c-blosc2's AVX2 byte shuffle over len(src) bytes (dst
// must be as long); c-blosc2 has no AVX-512 byte shuffle. The caller
// checks the CPU has AVX2.
func ShuffleAVX2(dst, src []byte, typesize int) {
	if len(src) == 0 {
		return
	}
	C.shuffle_avx2(C.int32_t(typesize), C.int32_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&src[0])), (*C.uint8_t)(unsafe.Pointer(&dst[0])))
}

// UnshuffleAVX2 is ShuffleAVX2's inverse.
func UnshuffleAVX2(dst, src []byte, typesize int) {
	if len(src) == 0 {
		return
	}
	C.unshuffle_avx2(C.int32_t(typesize), C.int32_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&src[0])), (*C.uint8_t)(unsafe.Pointer(&dst[0])))
}

// BitKernel names one of c-blosc2's bit-shuffle kernels.
type BitKernel int

const (
	BitAVX2   BitKernel = iota // bitshuffle-avx2.c
	BitAVX512                  // bitshuffle-avx512.c (AVX512F and BW)
)

func (k BitKernel) String() string {
	if k == BitAVX512 {
		return "avx512"
	}
	return "avx2"
}

// BitShuffle runs c-blosc2's bit shuffle k, which, as on every call in
// c-blosc2's filter pipeline, mallocs and frees a scratch buffer as long as
// src. As in C, the element count len(src)/typesize must be a multiple of
// 8 and dst as long as src. The caller checks the CPU runs k.
func BitShuffle(k BitKernel, dst, src []byte, typesize int) error {
	return bitKernel(k, true, dst, src, typesize)
}

// BitUnshuffle is BitShuffle's inverse.
func BitUnshuffle(k BitKernel, dst, src []byte, typesize int) error {
	return bitKernel(k, false, dst, src, typesize)
}

func bitKernel(k BitKernel, forward bool, dst, src []byte, typesize int) error {
	if typesize < 1 || len(src)%typesize != 0 || (len(src)/typesize)%8 != 0 || len(dst) < len(src) {
		return fmt.Errorf("cblosc2: bit shuffle of %d bytes at typesize %d: want a multiple of 8 elements and dst as long as src", len(src), typesize)
	}
	n := len(src) / typesize
	if n == 0 {
		return nil
	}
	in, out := unsafe.Pointer(&src[0]), unsafe.Pointer(&dst[0])
	var r C.int64_t
	switch {
	case k == BitAVX512 && forward:
		r = C.bshuf_trans_bit_elem_AVX512(in, out, C.size_t(n), C.size_t(typesize))
	case k == BitAVX512:
		r = C.bshuf_untrans_bit_elem_AVX512(in, out, C.size_t(n), C.size_t(typesize))
	case forward:
		r = C.bshuf_trans_bit_elem_AVX(in, out, C.size_t(n), C.size_t(typesize))
	default:
		r = C.bshuf_untrans_bit_elem_AVX(in, out, C.size_t(n), C.size_t(typesize))
	}
	if r < 0 {
		return fmt.Errorf("cblosc2: %v bit shuffle failed with code %d", k, int64(r))
	}
	return nil
}
