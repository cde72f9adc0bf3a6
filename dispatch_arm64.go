//go:build !purego && !noasm && gc

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// The arm64 kernels are the hand-written NEON ones in shuffle_arm64.s, for
// typesizes 2, 4, 8 and 16. As on amd64, a buffer of at least one block is
// covered entirely: whole blocks, then one block overlapping the last.

func hasShuffleKernel(l cpu.Level) bool {
	return l == cpu.Generic || l == cpu.NEON
}

// coverBlocks reports how blocks of w elements cover n elements: whole
// blocks, and whether a last block overlapping them is needed.
func coverBlocks(n, w int) (blocks int, overlap bool) {
	return n / w, n%w != 0
}

func shuffleNEON(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start], &src[start*ts]
	switch ts {
	case 2:
		shuffle2NEON(d, s, n, blocks)
	case 4:
		shuffle4NEON(d, s, n, blocks)
	case 8:
		shuffle8NEON(d, s, n, blocks)
	case 16:
		shuffle16NEON(d, s, n, blocks)
	}
}

// shuffleAsm runs the NEON kernels when level allows, returning how many
// leading elements it shuffled.
func shuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if level != cpu.NEON || ts&(ts-1) != 0 || ts > 16 || n < 16 {
		return 0
	}
	b, over := coverBlocks(n, 16)
	shuffleNEON(dst, src, ts, n, 0, b)
	if over {
		shuffleNEON(dst, src, ts, n, n-16, 1)
	}
	return n
}

func unshuffleNEON(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start*ts], &src[start]
	switch ts {
	case 2:
		unshuffle2NEON(d, s, n, blocks)
	case 4:
		unshuffle4NEON(d, s, n, blocks)
	case 8:
		unshuffle8NEON(d, s, n, blocks)
	case 16:
		unshuffle16NEON(d, s, n, blocks)
	}
}

// unshuffleAsm runs the NEON kernels when level allows, returning how many
// leading elements it unshuffled.
func unshuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if level != cpu.NEON || ts&(ts-1) != 0 || ts > 16 || n < 16 {
		return 0
	}
	b, over := coverBlocks(n, 16)
	unshuffleNEON(dst, src, ts, n, 0, b)
	if over {
		unshuffleNEON(dst, src, ts, n, n-16, 1)
	}
	return n
}
