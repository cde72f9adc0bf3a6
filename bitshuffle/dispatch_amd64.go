//go:build !purego && !noasm && gc

package bitshuffle

import "github.com/goblosc/blosc/internal/cpu"

// kernelUsable reports whether this build has kernel k and the CPU runs it.
func kernelUsable(k kernelID) bool {
	switch k {
	case kGeneric:
		return true
	case kSSE2:
		return cpu.X86HasSSE2
	case kAVX2:
		return cpu.X86HasAVX2
	case kAVX512:
		return cpu.X86HasAVX512BW && cpu.X86HasVBMI
	case kAVX512GFNI, kAVX512Rows, kAVX512Fused:
		return cpu.X86HasAVX512BW && cpu.X86HasVBMI && cpu.X86HasGFNI
	}
	return false
}

// Elements per kernel block: one 8-element group per 8 bytes of vector.
const (
	blockSSE2 = 16
	blockAVX2 = 32
	// Superblocks give every bit row a whole cache line (AVX-512) or half
	// of one (AVX2) per pass.
	blockAVX2Super = 256
	blockAVX2Small = 512 // typesizes 1 and 2 only
	blockAVX512    = 64
	blockSuper     = 512 // superblocks of the GFNI and Super kernels
)

// gfniTypesize reports whether the GFNI superblock kernels handle typesize.
func gfniTypesize(typesize int) bool {
	return typesize == 1 || typesize == 2 || typesize == 4 || typesize == 8 || typesize == 16
}

// gfniSplit reports whether the split GFNI kernel, which spreads the rows
// of a pass over four L1 sets through a ring of five superblocks, beats the
// plain one for these rows. The bounds below come from TestMeasureKernels
// (measure_test.go) by size on an AMD Zen 4: typesize 4 shuffling gains
// from 8 KiB up, unshuffling from 128 KiB; typesize 8 gains from 128 KiB
// (rows 2 KiB apart) to 4 MiB. Below that, with rows in many sets, the
// ring's extra passes cost more than they save, and at 16 MiB, bound by
// memory, it loses.
func gfniSplit(typesize, rowLen, superblocks int, inverse bool) bool {
	switch typesize {
	case 4:
		if inverse {
			return rowLen >= 4096
		}
		return superblocks >= 4
	case 8:
		return rowLen >= 2048 && rowLen <= 64<<10
	}
	return false
}

func shuffleWith(k kernelID, dst, src []byte, typesize int) {
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8
	done := 0 // groups the kernel finished
	switch k {
	case kSSE2:
		if b := blocksFor(len(src), typesize, rowLen, blockSSE2); b > 0 {
			shuffleSSE2(dst, src, typesize, rowLen, b)
			done = b * blockSSE2 / 8
		}
	case kAVX2:
		if typesize <= 2 {
			// whole superblocks: no overrun
			if b := rowLen * 8 / blockAVX2Small; b > 0 {
				if typesize == 1 {
					shuffleAVX2Bits1(dst, src, rowLen, b)
				} else {
					shuffleAVX2Bits2(dst, src, rowLen, b)
				}
				done = b * blockAVX2Small / 8
			}
		} else if sb := blocksFor(len(src), typesize, rowLen, blockAVX2Super); sb > 0 {
			shuffleAVX2Super(dst, src, typesize, rowLen, sb)
			done = sb * blockAVX2Super / 8
		}
		if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockAVX2); b > 0 {
			shuffleAVX2(dst[done:], src[done*8*typesize:], typesize, rowLen, b)
			done += b * blockAVX2 / 8
		}
	case kAVX512, kAVX512GFNI, kAVX512Rows, kAVX512Fused:
		if k == kAVX512Rows && rowsTypesize(typesize) {
			done = shuffleRows(dst, src, typesize, rowLen)
		}
		if k == kAVX512Fused && rowsTypesize(typesize) {
			// whole superblocks; the loads stop at the last element
			if sb := rowLen * 8 / blockSuper; sb > 0 {
				shuffleAVX512Fused(dst, src, typesize, rowLen, sb)
				done = sb * blockSuper / 8
			}
		}
		// Superblocks of 512 elements, then blocks of 64.
		if k != kAVX512 && gfniTypesize(typesize) {
			// These read and write whole vectors of elements: no overrun.
			if sb := rowLen * 8 / blockSuper; sb > 0 {
				if gfniSplit(typesize, rowLen, sb, false) {
					shuffleAVX512GFNISplit(dst, src, typesize, rowLen, sb)
				} else {
					shuffleAVX512GFNI(dst, src, typesize, rowLen, sb)
				}
				done = sb * blockSuper / 8
			}
		} else if sb := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockSuper); sb > 0 {
			shuffleAVX512Super(dst[done:], src[done*8*typesize:], typesize, rowLen, sb)
			done += sb * blockSuper / 8
		}
		if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockAVX512); b > 0 {
			shuffleAVX512(dst[done:], src[done*8*typesize:], typesize, rowLen, b)
			done += b * blockAVX512 / 8
		}
	default:
		shuffleGeneric(dst, src, typesize)
		return
	}
	shuffleGroups(dst, src, typesize, rowLen, done)
	copy(dst[body:], src[body:])
}

func unshuffleWith(k kernelID, dst, src []byte, typesize int) {
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8
	done := 0
	switch k {
	case kSSE2:
		if b := blocksFor(len(src), typesize, rowLen, blockSSE2); b > 0 {
			unshuffleSSE2(dst, src, typesize, rowLen, b)
			done = b * blockSSE2 / 8
		}
	case kAVX2:
		if typesize <= 2 {
			if b := rowLen * 8 / blockAVX2Small; b > 0 {
				if typesize == 1 {
					unshuffleAVX2Bits1(dst, src, rowLen, b)
				} else {
					unshuffleAVX2Bits2(dst, src, rowLen, b)
				}
				done = b * blockAVX2Small / 8
			}
		} else if sb := blocksFor(len(src), typesize, rowLen, blockAVX2Super); sb > 0 {
			unshuffleAVX2Super(dst, src, typesize, rowLen, sb)
			done = sb * blockAVX2Super / 8
		}
		if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockAVX2); b > 0 {
			unshuffleAVX2(dst[done*8*typesize:], src[done:], typesize, rowLen, b)
			done += b * blockAVX2 / 8
		}
	case kAVX512, kAVX512GFNI, kAVX512Rows, kAVX512Fused:
		if k == kAVX512Rows && rowsTypesize(typesize) {
			done = unshuffleRows(dst, src, typesize, rowLen)
		}
		if k == kAVX512Fused && rowsTypesize(typesize) {
			// whole superblocks; the stores stop at the last element
			if sb := rowLen * 8 / blockSuper; sb > 0 {
				unshuffleAVX512Fused(dst, src, typesize, rowLen, sb)
				done = sb * blockSuper / 8
			}
		}
		if k != kAVX512 && gfniTypesize(typesize) {
			if sb := rowLen * 8 / blockSuper; sb > 0 {
				if gfniSplit(typesize, rowLen, sb, true) {
					unshuffleAVX512GFNISplit(dst, src, typesize, rowLen, sb)
				} else {
					unshuffleAVX512GFNI(dst, src, typesize, rowLen, sb)
				}
				done = sb * blockSuper / 8
			}
		} else if sb := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockSuper); sb > 0 {
			unshuffleAVX512Super(dst[done*8*typesize:], src[done:], typesize, rowLen, sb)
			done += sb * blockSuper / 8
		}
		if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockAVX512); b > 0 {
			unshuffleAVX512(dst[done*8*typesize:], src[done:], typesize, rowLen, b)
			done += b * blockAVX512 / 8
		}
	default:
		unshuffleGeneric(dst, src, typesize)
		return
	}
	// The kernel may have written past its last element into the next
	// group (typesizes below 8); the portable tail and the copy rewrite it.
	unshuffleGroups(dst, src, typesize, rowLen, done)
	copy(dst[body:], src[body:])
}

// pickKernel returns the kernel Shuffle (or, with inverse, Unshuffle) runs
// for typesize at level kernel k: the fastest this CPU has, per the
// measurements below. Only the avx512-gfni level has a choice to make;
// every other level's kernel was the fastest it has for every typesize.
//
// The choice comes from TestMeasureKernels, which times every kernel's
// speed over a memcpy of the same size in the same round, shuffle and
// unshuffle, median over the rounds:
//
//	BITSHUFFLE_MEASURE=1 BITSHUFFLE_MEASURE_ROUNDS=9 BITSHUFFLE_MEASURE_SIZES=256KiB,64MiB \
//	BITSHUFFLE_MEASURE_TS=3,5,6,7,9,10,11,12,13,14,15 \
//	BITSHUFFLE_MEASURE_KERNELS=avx2,avx512,avx512-gfni,avx512-rows,avx512-fused \
//	go test -run TestMeasureKernels -v ./bitshuffle
//
// On an Intel CPU with AVX-512 VBMI and GFNI, avx512-fused (the kernels of
// asmgen/bitshuffle/fused.go that gather with VPERMB and transpose with
// blends) came out ahead of avx512-rows and of avx2, avx512 and
// avx512-gfni (the superblock kernel of super.go) for these typesizes,
// except the shuffle of the even typesizes 6, 10, 12 and 14 at 256 KiB,
// where avx512-rows was level or a little ahead (and the others close)
// but far behind at 64 MiB. So avx512-fused for all of them.
// The even typesizes 6, 10, 12 and 14 stay the slowest when shuffling: a
// 256 KiB buffer puts their rows 2^14/m bytes apart (ts = 2m), so every
// m-th row lands in the same L1 set and a superblock's 16 row lines in
// each set exceed its 12 ways (odd typesizes put 8 there). Typesizes that
// are powers of two keep their GFNI kernels (1, 2, 4, 8, 16), and those
// above 16 the superblock kernel.
func pickKernel(k kernelID, typesize int, inverse bool) kernelID {
	if k == kAVX512GFNI && rowsTypesize(typesize) {
		return kAVX512Fused
	}
	return k
}
