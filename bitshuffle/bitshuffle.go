// Package bitshuffle implements the bit shuffle filter of Blosc (the
// bitshuffle algorithm of K. Masui et al. as c-blosc and c-blosc2 embed it).
//
// For n elements of typesize bytes, where n is a multiple of 8, the output is
// 8*typesize bit rows of n/8 bytes: row 8*j+b holds bit b of byte j of every
// element, element i at bit i%8 of byte i/8. Only the first
// floor(len/typesize/8)*8 elements are transposed; the bytes after them are
// copied unchanged (c-blosc2's rule; a Blosc1 chunk copies a whole block whose
// element count is not a multiple of 8, which callers decide).
//
// Shuffle and Unshuffle run the best kernel this CPU has, chosen once at
// init and named by Kernel: SSE2, AVX2 or AVX-512 (with GFNI when present)
// on amd64, NEON on arm64, portable Go elsewhere. Within a level a table
// picks, per typesize, the fastest kernel measured: with AVX-512 and GFNI,
// typesizes up to 16 that are not powers of two run as a byte shuffle into
// rows followed by the typesize-1 kernel on each row. GOBLOSC_KERNEL (generic,
// sse2, avx2, avx512, neon) caps the choice; building with -tags purego (or
// noasm) leaves only the portable code. No call allocates.
package bitshuffle

import "encoding/binary"

// The amd64 kernels come from the avo program in asmgen/bitshuffle (its own
// module, so avo never becomes a dependency of this one; GOWORK=off
// because the root's go.work joins only the library and bench/).
//go:generate env GOWORK=off go run -C ../asmgen ./bitshuffle -out ../bitshuffle/bitshuffle_amd64.s -stubs ../bitshuffle/bitshuffle_amd64.go -pkg bitshuffle

// Shuffle writes the bit shuffle of src into dst. dst must be at least
// len(src) bytes and must not overlap src. It panics if typesize < 1 or dst
// is too short (programming errors, not properties of the data).
func Shuffle(dst, src []byte, typesize int) {
	checkArgs(dst, src, typesize)
	shuffleWith(pickKernel(active, typesize, false), dst[:len(src)], src, typesize)
}

// Unshuffle reverses Shuffle under the same rules.
func Unshuffle(dst, src []byte, typesize int) {
	checkArgs(dst, src, typesize)
	unshuffleWith(pickKernel(active, typesize, true), dst[:len(src)], src, typesize)
}

// Transposed reports how many leading bytes of a buffer of n bytes Shuffle
// transposes for typesize; the remaining bytes are copied unchanged.
func Transposed(n, typesize int) int {
	elems := n / typesize
	return (elems - elems%8) * typesize
}

func checkArgs(dst, src []byte, typesize int) {
	if typesize < 1 {
		panic("bitshuffle: typesize must be at least 1")
	}
	if len(dst) < len(src) {
		panic("bitshuffle: dst shorter than src")
	}
}

// transpose8x8 transposes the 8x8 bit matrix held in x, byte k being row k
// and bit b column b: afterwards byte b bit k is what byte k bit b was.
func transpose8x8(x uint64) uint64 {
	t := (x ^ (x >> 7)) & 0x00AA00AA00AA00AA
	x ^= t ^ (t << 7)
	t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCC
	x ^= t ^ (t << 14)
	t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0
	x ^= t ^ (t << 28)
	return x
}

// shuffleGeneric is the portable bit shuffle, kept on every platform as the
// oracle for the SIMD kernels.
func shuffleGeneric(dst, src []byte, typesize int) {
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8 // bytes per bit row
	var g [8]byte
	for j := 0; j < typesize; j++ {
		for i := 0; i < rowLen; i++ {
			base := i*8*typesize + j
			for k := range g {
				g[k] = src[base+k*typesize]
			}
			x := transpose8x8(binary.LittleEndian.Uint64(g[:]))
			row := (j * 8) * rowLen
			for b := 0; b < 8; b++ {
				dst[row+b*rowLen+i] = byte(x >> (8 * b))
			}
		}
	}
	copy(dst[body:len(src)], src[body:])
}

// unshuffleGeneric is the portable inverse of shuffleGeneric.
func unshuffleGeneric(dst, src []byte, typesize int) {
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8
	var g [8]byte
	for j := 0; j < typesize; j++ {
		row := (j * 8) * rowLen
		for i := 0; i < rowLen; i++ {
			for b := range g {
				g[b] = src[row+b*rowLen+i]
			}
			x := transpose8x8(binary.LittleEndian.Uint64(g[:]))
			base := i*8*typesize + j
			for k := 0; k < 8; k++ {
				dst[base+k*typesize] = byte(x >> (8 * k))
			}
		}
	}
	copy(dst[body:len(src)], src[body:])
}
