//go:build !purego && !noasm && gc

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// The arm64 kernels are the hand-written NEON ones in shuffle_arm64.s, for
// typesizes 2 to 16. As on amd64, a buffer of at least one block is covered
// entirely: whole blocks, then one block overlapping the last.

func compiledShuffleLevel(l cpu.Level) bool {
	return l == cpu.Generic || l == cpu.NEON
}

func hasShuffleKernel(l cpu.Level) bool { return compiledShuffleLevel(l) }

// neonPad[ts] spreads the 16/p elements of ts bytes at the start of a
// 16-byte lane into p-byte slots (p the next power of two); neonPack[ts]
// undoes it. Indices of 0xFF make VTBL write zero.
var neonPad, neonPack [16][16]byte

func init() {
	for ts := 3; ts < 16; ts++ {
		p := pow2(ts)
		for i := range 16 {
			neonPad[ts][i], neonPack[ts][i] = 0xFF, 0xFF
			if i%p < ts {
				neonPad[ts][i] = byte(i/p*ts + i%p)
			}
			if i < 16/p*ts {
				neonPack[ts][i] = byte(i/ts*p + i%ts)
			}
		}
	}
}

func pow2(ts int) int {
	p := 2
	for p < ts {
		p *= 2
	}
	return p
}

// neonSlack is how many bytes past its block a NEON kernel reads (shuffle)
// or writes and later repairs (unshuffle): the padded kernels move whole
// 16-byte lanes that hold only 16/p*ts bytes of elements.
func neonSlack(ts int) int {
	return 16 - 16/pow2(ts)*ts
}

func shuffleKernelNEON(d, s *byte, ts, n, blocks int) {
	switch ts {
	case 2:
		shuffle2NEON(d, s, n, blocks)
	case 3:
		shuffle3NEON(d, s, n, blocks, &neonPad[3][0])
	case 4:
		shuffle4NEON(d, s, n, blocks)
	case 5, 6, 7:
		shufflePad8NEON(d, s, n, blocks, ts, &neonPad[ts][0])
	case 8:
		shuffle8NEON(d, s, n, blocks)
	case 16:
		shuffle16NEON(d, s, n, blocks)
	default:
		shufflePad16NEON(d, s, n, blocks, ts)
	}
}

// shuffleAsm runs the NEON kernels when level allows, returning how many
// leading elements it shuffled. Blocks whose reads past the block would
// leave src run on a copy.
func shuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if level != cpu.NEON || ts > 16 || n < 16 {
		return 0
	}
	planBlocks(n, 16, ts, len(src), neonSlack(ts)).run(n, 16,
		func(start, blocks int) { shuffleKernelNEON(&dst[start], &src[start*ts], ts, n, blocks) },
		func(start int) { shuffleNEONScratch(dst, src, ts, n, start) })
	return n
}

func shuffleNEONScratch(dst, src []byte, ts, n, start int) {
	var tmp [16*16 + 16]byte
	copy(tmp[:], src[start*ts:start*ts+16*ts])
	shuffleKernelNEON(&dst[start], &tmp[0], ts, n, 1)
}

func unshuffleKernelNEON(d, s *byte, ts, n, blocks int) {
	switch ts {
	case 2:
		unshuffle2NEON(d, s, n, blocks)
	case 3:
		unshuffle3NEON(d, s, n, blocks, &neonPack[3][0])
	case 4:
		unshuffle4NEON(d, s, n, blocks)
	case 5, 6, 7:
		unshufflePad8NEON(d, s, n, blocks, ts, &neonPack[ts][0])
	case 8:
		unshuffle8NEON(d, s, n, blocks)
	case 16:
		unshuffle16NEON(d, s, n, blocks)
	default:
		unshufflePad16NEON(d, s, n, blocks, ts)
	}
}

// unshuffleAsm is shuffleAsm's inverse; blocks whose writes past the
// block would leave dst run into a stack buffer.
func unshuffleAsm(level cpu.Level, dst, src []byte, ts, n int, _ bool) int {
	if level != cpu.NEON || ts > 16 || n < 16 {
		return 0
	}
	planBlocks(n, 16, ts, len(dst), neonSlack(ts)).run(n, 16,
		func(start, blocks int) { unshuffleKernelNEON(&dst[start*ts], &src[start], ts, n, blocks) },
		func(start int) { unshuffleNEONScratch(dst, src, ts, n, start) })
	return n
}

func unshuffleNEONScratch(dst, src []byte, ts, n, start int) {
	var tmp [16*16 + 16]byte
	unshuffleKernelNEON(&tmp[0], &src[start], ts, n, 1)
	copy(dst[start*ts:start*ts+16*ts], tmp[:16*ts])
}

// canBypass reports whether unshuffleBypass skips the caches: the NEON
// kernels have no non-temporal form.
func canBypass(int) bool { return false }

// canUnshuffleStreams reports false: no kernel reads the streams of an
// unshuffle through separate pointers here (see dispatch_amd64.go).
func canUnshuffleStreams(ts, n int) bool { return false }

func unshuffleStreams([]byte, *[16]*byte, int, int) {
	panic("blosc: unshuffleStreams without a kernel")
}

// canUnshuffleRows reports false: no kernel unshuffles rows of a block's
// streams into their places here (see dispatch_amd64.go).
func canUnshuffleRows(ts int) bool { return false }

func unshuffleRows([]byte, *[16]*byte, int, int, int, int, int, int) {
	panic("blosc: unshuffleRows without a kernel")
}

// rowsMinItems is 1: there are no row kernels.
func rowsMinItems() int { return 1 }

// canShuffleRows reports false: no kernel shuffles rows into a block's
// streams here (see dispatch_amd64.go).
func canShuffleRows(ts int) bool { return false }

func shuffleRows([]byte, []byte, int, int, int, int, int, int, int) {
	panic("blosc: shuffleRows without a kernel")
}
