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

const blockNEON = 16

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
	if b := blocksFor(len(src), typesize, rowLen, blockNEON); b > 0 {
		shuffleNEON(dst, src, typesize, rowLen, b)
		done = b * blockNEON / 8
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
	if b := blocksFor(len(src), typesize, rowLen, blockNEON); b > 0 {
		unshuffleNEON(dst, src, typesize, rowLen, b)
		done = b * blockNEON / 8
	}
	// The kernel may have written past its last element into the next
	// group (typesizes below 8); the portable tail and the copy rewrite it.
	unshuffleGroups(dst, src, typesize, rowLen, done)
	copy(dst[body:], src[body:])
}
