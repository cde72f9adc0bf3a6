package blosc

//go:generate env GOWORK=off go run -C asmgen ./shuffle -out ../shuffle_amd64.s -stubs ../shuffle_amd64.go -pkg blosc

import (
	"sync/atomic"

	"github.com/goblosc/blosc/internal/cpu"
)

// shuffleLevel is the kernel level the byte shuffle runs, chosen once at
// init from the CPU and GOBLOSC_KERNEL. Tests may swap it with
// forceShuffleLevel; atomic so a forced level is never a data race.
var shuffleLevel atomic.Uint32

func init() {
	shuffleLevel.Store(uint32(cpu.Select(hasShuffleKernel)))
	for l := cpu.Generic; l <= cpu.NEON; l++ {
		if !compiledShuffleLevel(l) {
			continue
		}
		cpu.Register(cpu.Kernel{
			Family:   "shuffle",
			Level:    l,
			Requires: func() bool { return hasShuffleKernel(l) },
			Shuffle: func(dst, src []byte, typesize int) {
				checkShuffleArgs(dst, src, typesize)
				shuffleAt(l, dst[:len(src)], src, typesize)
			},
			Unshuffle: func(dst, src []byte, typesize int) {
				checkShuffleArgs(dst, src, typesize)
				unshuffleAt(l, dst[:len(src)], src, typesize, false)
			},
		})
	}
}

func currentShuffleLevel() cpu.Level { return cpu.Level(shuffleLevel.Load()) }

// forceShuffleLevel makes the byte shuffle run level (which this CPU must be
// able to run) and returns a function restoring the previous choice.
func forceShuffleLevel(l cpu.Level) (restore func()) {
	prev := shuffleLevel.Swap(uint32(l))
	return func() { shuffleLevel.Store(prev) }
}

// Kernel names the kernel level the shuffle filters run on this machine,
// e.g. "avx512" or "neon"; "generic" is the portable Go code. When the bit
// shuffle runs a different level, Kernel says so: "avx512 (bitshuffle avx2)".
func Kernel() string {
	name := currentShuffleLevel().String()
	if bl, ok := cpu.Chosen("bitshuffle"); ok && bl != currentShuffleLevel() {
		name += " (bitshuffle " + bl.String() + ")"
	}
	return name
}

// shuffleAt shuffles len(src) bytes (dst already cut to that length) with
// the kernels of level and the scalar code for what they leave.
func shuffleAt(level cpu.Level, dst, src []byte, typesize int) {
	n := len(src) / typesize
	if level == cpu.Generic || typesize == 1 || n == 0 {
		shuffleGeneric(dst, src, typesize)
		return
	}
	done := shuffleAsm(level, dst, src, typesize, n)
	shuffleTail(dst, src, typesize, n, done)
}

// unshuffleAt is shuffleAt's inverse. bypass says dst is part of an
// output too large to stay in the caches, whatever len(src): the kernels
// that can then write it non-temporally do (see unshuffleBypass).
func unshuffleAt(level cpu.Level, dst, src []byte, typesize int, bypass bool) {
	n := len(src) / typesize
	if level == cpu.Generic || typesize == 1 || n == 0 {
		unshuffleGeneric(dst, src, typesize)
		return
	}
	done := unshuffleAsm(level, dst, src, typesize, n, bypass)
	unshuffleTail(dst, src, typesize, n, done)
}

// shuffleTail shuffles elements done..n-1 and copies the trailing bytes.
func shuffleTail(dst, src []byte, typesize, n, done int) {
	body := n * typesize
	for j := 0; j < typesize && done < n; j++ {
		out := dst[j*n+done : j*n+n]
		in := src[done*typesize+j : body]
		for i := range out {
			out[i] = in[i*typesize]
		}
	}
	copy(dst[body:len(src)], src[body:])
}

func unshuffleTail(dst, src []byte, typesize, n, done int) {
	body := n * typesize
	for j := 0; j < typesize && done < n; j++ {
		in := src[j*n+done : j*n+n]
		out := dst[done*typesize+j : body]
		for i, b := range in {
			out[i*typesize] = b
		}
	}
	copy(dst[body:len(src)], src[body:])
}

// blockPlan is how a kernel with blocks of w elements covers n >= w
// elements when it touches slack bytes past each block it processes.
type blockPlan struct {
	direct     int  // leading whole blocks that run in place
	whole      int  // all whole blocks; direct..whole-1 run through scratch
	tail       bool // n is not a multiple of w: one more block ends at n
	tailDirect bool // and it can run in place
}

func planBlocks(n, w, ts, avail, slack int) blockPlan {
	p := blockPlan{whole: n / w, tail: n%w != 0}
	p.direct = p.whole
	if slack > 0 {
		p.direct = min(p.whole, max(0, (avail-slack)/(w*ts)))
	}
	p.tailDirect = n*ts+slack <= avail
	return p
}

// run covers the n elements with blocks of w: direct(start, blocks) runs
// whole blocks in place from element start, scratch(start) runs one block
// through a stack copy.
func (p blockPlan) run(n, w int, direct func(start, blocks int), scratch func(start int)) {
	if p.direct > 0 {
		direct(0, p.direct)
	}
	for i := p.direct; i < p.whole; i++ {
		scratch(i * w)
	}
	if p.tail && p.tailDirect {
		direct(n-w, 1)
	} else if p.tail {
		scratch(n - w)
	}
}
