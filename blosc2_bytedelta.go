package blosc

import (
	"sync/atomic"

	"github.com/goblosc/blosc/internal/cpu"
)

// bytedelta, c-blosc2's plugin filter 35: the block's first
// len/ts*ts bytes are ts channels of len/ts bytes each (what a byte
// shuffle with the same ts makes), and each channel is replaced by the
// difference of each byte and the one before it, the first byte's
// predecessor being 0. The bytes after the last whole element belong to
// no channel and are copied, as c-blosc2 3.3.2 does (earlier releases
// left them unwritten).
//
// The legacy filter 34 (c-blosc2's "bytedelta_buggy") is what its SIMD
// loop (SSSE3 or NEON, which every amd64 and arm64 build has) made of the
// same idea: each channel's last stream_len%16 bytes restart from 0 rather
// than continue from the byte before them. Its block tail was left
// unwritten; we copy it.

// byteDeltaTypesize is the channel count a bytedelta slot works with:
// its meta, or the typesize when the meta is 0 (c-blosc2 then takes the
// super-chunk's typesize, which is every chunk's).
func byteDeltaTypesize(meta uint8, typesize int) int {
	if meta != 0 {
		return int(meta)
	}
	return typesize
}

// byteDeltaRestart is where the legacy filter restarts a channel of n
// bytes, or n when it does not.
func byteDeltaRestart(n int, legacy bool) int {
	if legacy && n >= 16 {
		return n &^ 15
	}
	return n
}

// byteDeltaEncode writes the bytedelta of in into out.
func byteDeltaEncode(out, in []byte, ts int, legacy bool) {
	n := len(in) / ts
	restart := byteDeltaRestart(n, legacy)
	for c := 0; c < ts; c++ {
		ch := in[c*n : (c+1)*n]
		o := out[c*n : (c+1)*n]
		byteDeltaEncodeChannel(o[:restart], ch[:restart])
		byteDeltaEncodeChannel(o[restart:], ch[restart:])
	}
	copy(out[ts*n:len(in)], in[ts*n:])
}

// byteDeltaDecode undoes byteDeltaEncode in place.
func byteDeltaDecode(buf []byte, ts int, legacy bool) {
	n := len(buf) / ts
	restart := byteDeltaRestart(n, legacy)
	for c := 0; c < ts; c++ {
		ch := buf[c*n : (c+1)*n]
		byteDeltaDecodeChannel(ch[:restart])
		byteDeltaDecodeChannel(ch[restart:])
	}
}

// byteDeltaKernel is the level of the per-channel loops: the best this
// build has (compiledByteDeltaLevel) and the CPU runs, at or below
// GOBLOSC_KERNEL, chosen once at init. Tests swap it with
// forceByteDeltaLevel; atomic so that a forced level is no data race.
var byteDeltaKernel atomic.Uint32

func init() { byteDeltaKernel.Store(uint32(cpu.Select(compiledByteDeltaLevel))) }

func byteDeltaLevel() cpu.Level { return cpu.Level(byteDeltaKernel.Load()) }

// forceByteDeltaLevel makes the channel loops run level (which this CPU
// must be able to run) and returns a function restoring the previous
// choice.
func forceByteDeltaLevel(l cpu.Level) (restore func()) {
	prev := byteDeltaKernel.Swap(uint32(l))
	return func() { byteDeltaKernel.Store(prev) }
}
