//go:build !purego && !noasm && gc

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// The amd64 kernels come from asmgen/shuffle. Each level runs its own wide
// blocks, then hands what is left to the narrower levels below it, so short
// buffers still get vector code; the scalar tail in dispatch.go finishes.

func hasShuffleKernel(l cpu.Level) bool {
	switch l {
	case cpu.Generic, cpu.SSE2, cpu.AVX2:
		return true
	case cpu.AVX512:
		// The AVX-512 kernels are built on VPERMB/VPERMT2B.
		return cpu.X86HasVBMI
	}
	return false
}

// avx2Blocks is how many 32-element blocks the AVX2 kernels may run on
// elems elements held in avail bytes: for a typesize that is not a power of
// two they touch up to 16-16*ts/p bytes past the block (read when
// shuffling, written and later repaired when unshuffling), which must stay
// inside the buffer.
func avx2Blocks(elems, avail, ts int) int {
	b := elems / 32
	p := 2
	for p < ts {
		p *= 2
	}
	if slack := 16 - 16*ts/p; slack > 0 {
		b = min(b, (avail-slack)/(32*ts))
	}
	return max(b, 0)
}

// shuffleAsm runs the vector kernels of level and below on as many whole
// blocks as they take, returning how many elements it shuffled.
func shuffleAsm(level cpu.Level, dst, src []byte, ts, n int) (done int) {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if b := n / 64; b > 0 {
			d, s := &dst[0], &src[0]
			switch ts {
			case 2:
				shuffle2AVX512(d, s, n, b)
			case 3:
				shuffle3AVX512(d, s, n, b)
			case 4:
				shuffle4AVX512(d, s, n, b)
			case 5:
				shuffle5AVX512(d, s, n, b)
			case 6:
				shuffle6AVX512(d, s, n, b)
			case 7:
				shuffle7AVX512(d, s, n, b)
			case 8:
				shuffle8AVX512(d, s, n, b)
			case 9:
				shuffle9AVX512(d, s, n, b)
			case 10:
				shuffle10AVX512(d, s, n, b)
			case 11:
				shuffle11AVX512(d, s, n, b)
			case 12:
				shuffle12AVX512(d, s, n, b)
			case 13:
				shuffle13AVX512(d, s, n, b)
			case 14:
				shuffle14AVX512(d, s, n, b)
			case 15:
				shuffle15AVX512(d, s, n, b)
			case 16:
				shuffle16AVX512(d, s, n, b)
			}
			done = b * 64
		}
		fallthrough
	case cpu.AVX2:
		if b := avx2Blocks(n-done, len(src)-done*ts, ts); b > 0 {
			d, s := &dst[done], &src[done*ts]
			switch ts {
			case 2:
				shuffle2AVX2(d, s, n, b)
			case 3:
				shuffle3AVX2(d, s, n, b)
			case 4:
				shuffle4AVX2(d, s, n, b)
			case 5:
				shuffle5AVX2(d, s, n, b)
			case 6:
				shuffle6AVX2(d, s, n, b)
			case 7:
				shuffle7AVX2(d, s, n, b)
			case 8:
				shuffle8AVX2(d, s, n, b)
			case 9:
				shuffle9AVX2(d, s, n, b)
			case 10:
				shuffle10AVX2(d, s, n, b)
			case 11:
				shuffle11AVX2(d, s, n, b)
			case 12:
				shuffle12AVX2(d, s, n, b)
			case 13:
				shuffle13AVX2(d, s, n, b)
			case 14:
				shuffle14AVX2(d, s, n, b)
			case 15:
				shuffle15AVX2(d, s, n, b)
			case 16:
				shuffle16AVX2(d, s, n, b)
			}
			done += b * 32
		}
		fallthrough
	case cpu.SSE2:
		if b := (n - done) / 16; b > 0 && ts&(ts-1) == 0 {
			d, s := &dst[done], &src[done*ts]
			switch ts {
			case 2:
				shuffle2SSE2(d, s, n, b)
			case 4:
				shuffle4SSE2(d, s, n, b)
			case 8:
				shuffle8SSE2(d, s, n, b)
			case 16:
				shuffle16SSE2(d, s, n, b)
			}
			done += b * 16
		}
	}
	return done
}

// unshuffleAsm is shuffleAsm's inverse.
func unshuffleAsm(level cpu.Level, dst, src []byte, ts, n int) (done int) {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if b := n / 64; b > 0 {
			d, s := &dst[0], &src[0]
			switch ts {
			case 2:
				unshuffle2AVX512(d, s, n, b)
			case 3:
				unshuffle3AVX512(d, s, n, b)
			case 4:
				unshuffle4AVX512(d, s, n, b)
			case 5:
				unshuffle5AVX512(d, s, n, b)
			case 6:
				unshuffle6AVX512(d, s, n, b)
			case 7:
				unshuffle7AVX512(d, s, n, b)
			case 8:
				unshuffle8AVX512(d, s, n, b)
			case 9:
				unshuffle9AVX512(d, s, n, b)
			case 10:
				unshuffle10AVX512(d, s, n, b)
			case 11:
				unshuffle11AVX512(d, s, n, b)
			case 12:
				unshuffle12AVX512(d, s, n, b)
			case 13:
				unshuffle13AVX512(d, s, n, b)
			case 14:
				unshuffle14AVX512(d, s, n, b)
			case 15:
				unshuffle15AVX512(d, s, n, b)
			case 16:
				unshuffle16AVX512(d, s, n, b)
			}
			done = b * 64
		}
		fallthrough
	case cpu.AVX2:
		if b := avx2Blocks(n-done, len(src)-done*ts, ts); b > 0 {
			d, s := &dst[done*ts], &src[done]
			switch ts {
			case 2:
				unshuffle2AVX2(d, s, n, b)
			case 3:
				unshuffle3AVX2(d, s, n, b)
			case 4:
				unshuffle4AVX2(d, s, n, b)
			case 5:
				unshuffle5AVX2(d, s, n, b)
			case 6:
				unshuffle6AVX2(d, s, n, b)
			case 7:
				unshuffle7AVX2(d, s, n, b)
			case 8:
				unshuffle8AVX2(d, s, n, b)
			case 9:
				unshuffle9AVX2(d, s, n, b)
			case 10:
				unshuffle10AVX2(d, s, n, b)
			case 11:
				unshuffle11AVX2(d, s, n, b)
			case 12:
				unshuffle12AVX2(d, s, n, b)
			case 13:
				unshuffle13AVX2(d, s, n, b)
			case 14:
				unshuffle14AVX2(d, s, n, b)
			case 15:
				unshuffle15AVX2(d, s, n, b)
			case 16:
				unshuffle16AVX2(d, s, n, b)
			}
			done += b * 32
		}
		fallthrough
	case cpu.SSE2:
		if b := (n - done) / 16; b > 0 && ts&(ts-1) == 0 {
			d, s := &dst[done*ts], &src[done]
			switch ts {
			case 2:
				unshuffle2SSE2(d, s, n, b)
			case 4:
				unshuffle4SSE2(d, s, n, b)
			case 8:
				unshuffle8SSE2(d, s, n, b)
			case 16:
				unshuffle16SSE2(d, s, n, b)
			}
			done += b * 16
		}
	}
	return done
}
