//go:build !purego && !noasm && gc

package blosc

import (
	"unsafe"

	"github.com/goblosc/blosc/internal/cpu"
)

// The amd64 kernels come from asmgen/shuffle. A level covers every element
// once the buffer holds one of its blocks: after the whole blocks it runs
// one more block ending at the last element, overlapping the previous one.
// That rewrites some outputs with the values they already hold, which is
// harmless because src and dst never overlap, and it leaves no scalar tail.
// Buffers shorter than a block fall through to the narrower levels.

// ntThreshold is the buffer size from which the AVX-512 kernels write with
// non-temporal stores: far past the L2 and a good share of the L3, the
// output will not be read back from cache anyway, and skipping the read of
// every destination line before writing it roughly halves the traffic
// beyond the caches (measured on the 64 MiB benchmark rows).
const ntThreshold = 16 << 20

func aligned64(b []byte) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 == 0
}

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

// avx2Slack is how many bytes past its block an AVX2 kernel touches for
// typesize ts (read when shuffling, written then repaired when unshuffling):
// elements are padded to a power of two p with 16-byte lane accesses.
func avx2Slack(ts int) int {
	p := 2
	for p < ts {
		p *= 2
	}
	return 16 - 16*ts/p
}

// coverBlocks reports how a level with blocks of w elements covers n
// elements held in avail bytes: whole blocks, plus whether an overlapping
// last block fits. It returns ok=false when not even one block fits.
func coverBlocks(n, w, ts, avail, slack int) (blocks int, overlap, ok bool) {
	if n < w {
		return 0, false, false
	}
	blocks = n / w
	if blocks*w*ts+slack > avail {
		blocks--
	}
	if blocks == 0 {
		return 0, false, false
	}
	return blocks, n%w != 0 && n*ts+slack <= avail, true
}

func shuffleAVX512(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start], &src[start*ts]
	switch ts {
	case 2:
		shuffle2AVX512(d, s, n, blocks)
	case 3:
		shuffle3AVX512(d, s, n, blocks)
	case 4:
		shuffle4AVX512(d, s, n, blocks)
	case 5:
		shuffle5AVX512(d, s, n, blocks)
	case 6:
		shuffle6AVX512(d, s, n, blocks)
	case 7:
		shuffle7AVX512(d, s, n, blocks)
	case 8:
		shuffle8AVX512(d, s, n, blocks)
	case 9:
		shuffle9AVX512(d, s, n, blocks)
	case 10:
		shuffle10AVX512(d, s, n, blocks)
	case 11:
		shuffle11AVX512(d, s, n, blocks)
	case 12:
		shuffle12AVX512(d, s, n, blocks)
	case 13:
		shuffle13AVX512(d, s, n, blocks)
	case 14:
		shuffle14AVX512(d, s, n, blocks)
	case 15:
		shuffle15AVX512(d, s, n, blocks)
	case 16:
		shuffle16AVX512(d, s, n, blocks)
	}
}

func shuffleAVX2(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start], &src[start*ts]
	switch ts {
	case 2:
		shuffle2AVX2(d, s, n, blocks)
	case 3:
		shuffle3AVX2(d, s, n, blocks)
	case 4:
		shuffle4AVX2(d, s, n, blocks)
	case 5:
		shuffle5AVX2(d, s, n, blocks)
	case 6:
		shuffle6AVX2(d, s, n, blocks)
	case 7:
		shuffle7AVX2(d, s, n, blocks)
	case 8:
		shuffle8AVX2(d, s, n, blocks)
	case 9:
		shuffle9AVX2(d, s, n, blocks)
	case 10:
		shuffle10AVX2(d, s, n, blocks)
	case 11:
		shuffle11AVX2(d, s, n, blocks)
	case 12:
		shuffle12AVX2(d, s, n, blocks)
	case 13:
		shuffle13AVX2(d, s, n, blocks)
	case 14:
		shuffle14AVX2(d, s, n, blocks)
	case 15:
		shuffle15AVX2(d, s, n, blocks)
	case 16:
		shuffle16AVX2(d, s, n, blocks)
	}
}

func shuffleSSE2(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start], &src[start*ts]
	switch ts {
	case 2:
		shuffle2SSE2(d, s, n, blocks)
	case 4:
		shuffle4SSE2(d, s, n, blocks)
	case 8:
		shuffle8SSE2(d, s, n, blocks)
	case 16:
		shuffle16SSE2(d, s, n, blocks)
	}
}

// shuffleAsm runs the vector kernels of level (or the narrower ones when the
// buffer is short), returning how many leading elements it shuffled.
func shuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if len(src) >= ntThreshold && ts&(ts-1) == 0 && n%64 == 0 && aligned64(dst) {
			shuffleAVX512NT(dst, src, ts, n, n/64)
			return n
		}
		if b, over, ok := coverBlocks(n, 64, ts, len(src), 0); ok {
			shuffleAVX512(dst, src, ts, n, 0, b)
			if !over {
				return b * 64
			}
			shuffleAVX512(dst, src, ts, n, n-64, 1)
			return n
		}
		fallthrough
	case cpu.AVX2:
		if b, over, ok := coverBlocks(n, 32, ts, len(src), avx2Slack(ts)); ok {
			shuffleAVX2(dst, src, ts, n, 0, b)
			if !over {
				return b * 32
			}
			shuffleAVX2(dst, src, ts, n, n-32, 1)
			return n
		}
		fallthrough
	case cpu.SSE2:
		if ts&(ts-1) != 0 {
			return 0
		}
		if b, over, ok := coverBlocks(n, 16, ts, len(src), 0); ok {
			shuffleSSE2(dst, src, ts, n, 0, b)
			if !over {
				return b * 16
			}
			shuffleSSE2(dst, src, ts, n, n-16, 1)
			return n
		}
	}
	return 0
}

func unshuffleAVX512(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start*ts], &src[start]
	switch ts {
	case 2:
		unshuffle2AVX512(d, s, n, blocks)
	case 3:
		unshuffle3AVX512(d, s, n, blocks)
	case 4:
		unshuffle4AVX512(d, s, n, blocks)
	case 5:
		unshuffle5AVX512(d, s, n, blocks)
	case 6:
		unshuffle6AVX512(d, s, n, blocks)
	case 7:
		unshuffle7AVX512(d, s, n, blocks)
	case 8:
		unshuffle8AVX512(d, s, n, blocks)
	case 9:
		unshuffle9AVX512(d, s, n, blocks)
	case 10:
		unshuffle10AVX512(d, s, n, blocks)
	case 11:
		unshuffle11AVX512(d, s, n, blocks)
	case 12:
		unshuffle12AVX512(d, s, n, blocks)
	case 13:
		unshuffle13AVX512(d, s, n, blocks)
	case 14:
		unshuffle14AVX512(d, s, n, blocks)
	case 15:
		unshuffle15AVX512(d, s, n, blocks)
	case 16:
		unshuffle16AVX512(d, s, n, blocks)
	}
}

// shuffleAVX512NT and unshuffleAVX512NT run the non-temporal kernels, for
// power-of-two typesizes, on blocks starting at element 0.
func shuffleAVX512NT(dst, src []byte, ts, n, blocks int) {
	d, s := &dst[0], &src[0]
	switch ts {
	case 2:
		shuffle2AVX512NT(d, s, n, blocks)
	case 4:
		shuffle4AVX512NT(d, s, n, blocks)
	case 8:
		shuffle8AVX512NT(d, s, n, blocks)
	case 16:
		shuffle16AVX512NT(d, s, n, blocks)
	}
}

func unshuffleAVX512NT(dst, src []byte, ts, n, blocks int) {
	d, s := &dst[0], &src[0]
	switch ts {
	case 2:
		unshuffle2AVX512NT(d, s, n, blocks)
	case 4:
		unshuffle4AVX512NT(d, s, n, blocks)
	case 8:
		unshuffle8AVX512NT(d, s, n, blocks)
	case 16:
		unshuffle16AVX512NT(d, s, n, blocks)
	}
}

// avx512Slack is how many bytes past its blocks an AVX-512 unshuffle kernel
// writes scratch to: its windows of 128/p elements fill b=128/p*ts bytes
// of two full vector stores.
func avx512Slack(ts int) int {
	p := 2
	for p < ts {
		p *= 2
	}
	return 128 - 128/p*ts
}

// unshuffleAVX512Scratch unshuffles the block of 64 elements at start
// through a stack buffer that takes the kernel's scratch bytes.
func unshuffleAVX512Scratch(dst, src []byte, ts, n, start int) {
	var tmp [64*16 + 128]byte
	d, s := &tmp[0], &src[start]
	switch ts {
	case 3:
		unshuffle3AVX512(d, s, n, 1)
	case 5:
		unshuffle5AVX512(d, s, n, 1)
	case 6:
		unshuffle6AVX512(d, s, n, 1)
	case 7:
		unshuffle7AVX512(d, s, n, 1)
	case 9:
		unshuffle9AVX512(d, s, n, 1)
	case 10:
		unshuffle10AVX512(d, s, n, 1)
	case 11:
		unshuffle11AVX512(d, s, n, 1)
	case 12:
		unshuffle12AVX512(d, s, n, 1)
	case 13:
		unshuffle13AVX512(d, s, n, 1)
	case 14:
		unshuffle14AVX512(d, s, n, 1)
	case 15:
		unshuffle15AVX512(d, s, n, 1)
	}
	copy(dst[start*ts:start*ts+64*ts], tmp[:64*ts])
}

func unshuffleAVX2(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start*ts], &src[start]
	switch ts {
	case 2:
		unshuffle2AVX2(d, s, n, blocks)
	case 3:
		unshuffle3AVX2(d, s, n, blocks)
	case 4:
		unshuffle4AVX2(d, s, n, blocks)
	case 5:
		unshuffle5AVX2(d, s, n, blocks)
	case 6:
		unshuffle6AVX2(d, s, n, blocks)
	case 7:
		unshuffle7AVX2(d, s, n, blocks)
	case 8:
		unshuffle8AVX2(d, s, n, blocks)
	case 9:
		unshuffle9AVX2(d, s, n, blocks)
	case 10:
		unshuffle10AVX2(d, s, n, blocks)
	case 11:
		unshuffle11AVX2(d, s, n, blocks)
	case 12:
		unshuffle12AVX2(d, s, n, blocks)
	case 13:
		unshuffle13AVX2(d, s, n, blocks)
	case 14:
		unshuffle14AVX2(d, s, n, blocks)
	case 15:
		unshuffle15AVX2(d, s, n, blocks)
	case 16:
		unshuffle16AVX2(d, s, n, blocks)
	}
}

func unshuffleSSE2(dst, src []byte, ts, n, start, blocks int) {
	d, s := &dst[start*ts], &src[start]
	switch ts {
	case 2:
		unshuffle2SSE2(d, s, n, blocks)
	case 4:
		unshuffle4SSE2(d, s, n, blocks)
	case 8:
		unshuffle8SSE2(d, s, n, blocks)
	case 16:
		unshuffle16SSE2(d, s, n, blocks)
	}
}

// unshuffleAsm runs the vector kernels of level (or the narrower ones when the
// buffer is short), returning how many leading elements it unshuffled.
func unshuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if slack := avx512Slack(ts); slack > 0 && n >= 64 {
			// Whole blocks whose scratch stays inside dst run in place;
			// the rest, and the block ending at the last element, run
			// through a stack buffer.
			b := n / 64
			direct := min(b, max(0, (len(dst)-slack)/(64*ts)))
			if direct > 0 {
				unshuffleAVX512(dst, src, ts, n, 0, direct)
			}
			for i := direct; i < b; i++ {
				unshuffleAVX512Scratch(dst, src, ts, n, i*64)
			}
			if n%64 != 0 {
				unshuffleAVX512Scratch(dst, src, ts, n, n-64)
			}
			return n
		}
		if b, over, ok := coverBlocks(n, 64, ts, len(src), 0); ok {
			if len(src) >= ntThreshold && aligned64(dst) {
				unshuffleAVX512NT(dst, src, ts, n, b)
			} else {
				unshuffleAVX512(dst, src, ts, n, 0, b)
			}
			if !over {
				return b * 64
			}
			unshuffleAVX512(dst, src, ts, n, n-64, 1)
			return n
		}
		fallthrough
	case cpu.AVX2:
		if b, over, ok := coverBlocks(n, 32, ts, len(src), avx2Slack(ts)); ok {
			unshuffleAVX2(dst, src, ts, n, 0, b)
			if !over {
				return b * 32
			}
			unshuffleAVX2(dst, src, ts, n, n-32, 1)
			return n
		}
		fallthrough
	case cpu.SSE2:
		if ts&(ts-1) != 0 {
			return 0
		}
		if b, over, ok := coverBlocks(n, 16, ts, len(src), 0); ok {
			unshuffleSSE2(dst, src, ts, n, 0, b)
			if !over {
				return b * 16
			}
			unshuffleSSE2(dst, src, ts, n, n-16, 1)
			return n
		}
	}
	return 0
}
