//go:build !purego && !noasm && gc

package bitshuffle

import "github.com/goblosc/blosc/internal/cpu"

// shuffleNEON bit-shuffles blocks of 16 elements; see bitshuffle_arm64.s.
//
//go:noescape
func shuffleNEON(dst, src []byte, typesize, rowLen, blocks int)

// unshuffleNEON reverses shuffleNEON.
//
//go:noescape
func unshuffleNEON(dst, src []byte, typesize, rowLen, blocks int)

// unshuffleNEONSuper reverses shuffleNEONSuper.
//
//go:noescape
func unshuffleNEONSuper(dst, src []byte, typesize, rowLen, blocks int)

// shuffleNEONSuper bit-shuffles superblocks of 64 elements (4 blocks whose
// vectors are staged so each bit row takes one 8-byte store).
//
//go:noescape
func shuffleNEONSuper(dst, src []byte, typesize, rowLen, blocks int)

const (
	blockNEON      = 16
	blockNEONSuper = 64
)

func kernelUsable(k kernelID) bool {
	return k == kGeneric || k == kNEON && cpu.ARM64HasNEON
}

func shuffleWith(k kernelID, dst, src []byte, typesize int) {
	if k != kNEON {
		shuffleGeneric(dst, src, typesize)
		return
	}
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8
	done := 0
	if sb := blocksFor(len(src), typesize, rowLen, blockNEONSuper); sb > 0 {
		shuffleNEONSuper(dst, src, typesize, rowLen, sb)
		done = sb * blockNEONSuper / 8
	}
	if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockNEON); b > 0 {
		shuffleNEON(dst[done:], src[done*8*typesize:], typesize, rowLen, b)
		done += b * blockNEON / 8
	}
	shuffleGroups(dst, src, typesize, rowLen, done)
	copy(dst[body:], src[body:])
}

func unshuffleWith(k kernelID, dst, src []byte, typesize int) {
	if k != kNEON {
		unshuffleGeneric(dst, src, typesize)
		return
	}
	body := Transposed(len(src), typesize)
	rowLen := body / typesize / 8
	done := 0
	if sb := blocksFor(len(src), typesize, rowLen, blockNEONSuper); sb > 0 {
		unshuffleNEONSuper(dst, src, typesize, rowLen, sb)
		done = sb * blockNEONSuper / 8
	}
	if b := blocksFor(len(src)-done*8*typesize, typesize, rowLen-done, blockNEON); b > 0 {
		unshuffleNEON(dst[done*8*typesize:], src[done:], typesize, rowLen, b)
		done += b * blockNEON / 8
	}
	// The kernel may have written past its last element into the next
	// group (typesizes below 8); the portable tail and the copy rewrite it.
	unshuffleGroups(dst, src, typesize, rowLen, done)
	copy(dst[body:], src[body:])
}

// pickKernel: NEON has one kernel for every typesize.
func pickKernel(k kernelID, _ int, _ bool) kernelID { return k }
