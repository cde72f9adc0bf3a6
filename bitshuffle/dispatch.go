package bitshuffle

import "github.com/goblosc/blosc/internal/cpu"

// kernelID names one implementation. It is finer than cpu.Level because the
// AVX-512 level has two variants, with and without GFNI, chosen at init.
type kernelID uint8

const (
	kGeneric kernelID = iota
	kSSE2
	kAVX2
	kAVX512
	kAVX512GFNI
	// kAVX512Rows bit-shuffles typesizes without a kernel of their own
	// (not powers of two, up to 16) as a byte shuffle into rows, then the
	// typesize-1 GFNI kernel on each row; it runs avx512-gfni otherwise.
	// It is never a level's kernel by itself: the per-typesize table
	// (pickKernel) sends it the typesizes where it measured fastest.
	kAVX512Rows
	// kAVX512Fused bit-shuffles the same typesizes in one pass per
	// superblock: the byte shuffle's column vectors go through the GFNI
	// tile transpose in registers. Like kAVX512Rows it runs avx512-gfni
	// for other typesizes and is chosen per typesize by pickKernel.
	kAVX512Fused
	kNEON
	numKernels
)

var kernelNames = [numKernels]string{"generic", "sse2", "avx2", "avx512", "avx512-gfni", "avx512-rows", "avx512-fused", "neon"}

func (k kernelID) String() string { return kernelNames[k] }

// level maps a kernel to the registry level GOBLOSC_KERNEL speaks of.
func (k kernelID) level() cpu.Level {
	switch k {
	case kSSE2:
		return cpu.SSE2
	case kAVX2:
		return cpu.AVX2
	case kAVX512, kAVX512GFNI, kAVX512Rows, kAVX512Fused:
		return cpu.AVX512
	case kNEON:
		return cpu.NEON
	}
	return cpu.Generic
}

// active is chosen once at init; only tests change it, through forceKernel.
var active kernelID

// Kernel names the kernel Shuffle and Unshuffle run on this machine.
func Kernel() string { return active.String() }

// bestAt returns the best kernel this build and CPU run at level l.
func bestAt(l cpu.Level) kernelID {
	best := kGeneric
	for k := kGeneric; k < numKernels; k++ {
		if k.level() == l && kernelUsable(k) && k != kAVX512Rows && k != kAVX512Fused {
			best = k // later entries are preferred: avx512-gfni over avx512
		}
	}
	return best
}

func init() {
	active = bestAt(cpu.Select(func(l cpu.Level) bool { return bestAt(l).level() == l }))
	for l := cpu.Generic; l <= cpu.NEON; l++ {
		k := bestAt(l)
		if k.level() != l {
			continue // this build has no kernel at level l
		}
		cpu.Register(cpu.Kernel{
			Family: "bitshuffle",
			Level:  l,
			Shuffle: func(dst, src []byte, typesize int) {
				checkArgs(dst, src, typesize)
				shuffleWith(pickKernel(k, typesize, false), dst[:len(src)], src, typesize)
			},
			Unshuffle: func(dst, src []byte, typesize int) {
				checkArgs(dst, src, typesize)
				unshuffleWith(pickKernel(k, typesize, true), dst[:len(src)], src, typesize)
			},
		})
	}
}

// forceKernel makes k the active kernel and returns a function restoring the
// previous one. Tests use it; it is not safe against concurrent calls.
func forceKernel(k kernelID) (restore func()) {
	prev := active
	active = k
	return func() { active = prev }
}

// blocksFor reports how many blocks of elems elements a kernel may handle in
// a buffer of n bytes whose rows are rowLen bytes. Kernels read (and, when
// unshuffling, write) whole 8-byte words at element starts, so for typesizes
// below 8 the last element of the last block must leave 8 bytes in bounds;
// the portable code finishes what the kernel leaves.
func blocksFor(n, typesize, rowLen, elems int) int {
	b := rowLen * 8 / elems
	if typesize < 8 && b > 0 && (b*elems-1)*typesize+8 > n {
		b--
	}
	return b
}

// shuffleGroups is the portable bit shuffle restricted to the groups of 8
// elements from g0 on; it finishes what a kernel left.
func shuffleGroups(dst, src []byte, typesize, rowLen, g0 int) {
	var g [8]byte
	for j := 0; j < typesize; j++ {
		row := j * 8 * rowLen
		for i := g0; i < rowLen; i++ {
			base := i*8*typesize + j
			for k := range g {
				g[k] = src[base+k*typesize]
			}
			x := transpose8x8(uint64(g[0]) | uint64(g[1])<<8 | uint64(g[2])<<16 | uint64(g[3])<<24 |
				uint64(g[4])<<32 | uint64(g[5])<<40 | uint64(g[6])<<48 | uint64(g[7])<<56)
			for b := 0; b < 8; b++ {
				dst[row+b*rowLen+i] = byte(x >> (8 * b))
			}
		}
	}
}

// unshuffleGroups is the portable inverse of shuffleGroups.
func unshuffleGroups(dst, src []byte, typesize, rowLen, g0 int) {
	var g [8]byte
	for j := 0; j < typesize; j++ {
		row := j * 8 * rowLen
		for i := g0; i < rowLen; i++ {
			for b := range g {
				g[b] = src[row+b*rowLen+i]
			}
			x := transpose8x8(uint64(g[0]) | uint64(g[1])<<8 | uint64(g[2])<<16 | uint64(g[3])<<24 |
				uint64(g[4])<<32 | uint64(g[5])<<40 | uint64(g[6])<<48 | uint64(g[7])<<56)
			base := i*8*typesize + j
			for k := 0; k < 8; k++ {
				dst[base+k*typesize] = byte(x >> (8 * k))
			}
		}
	}
}
