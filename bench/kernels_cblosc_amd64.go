//go:build cblosc && cgo

package main

import (
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/klauspost/cpuid/v2"
)

// Built with -tags cblosc on a CPU with AVX2, bench -kernels adds rows for
// c-blosc's AVX2 byte and bit shuffles (c-blosc2 runs the same byte-shuffle
// code), timed in the same run as ours.
func init() {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		return
	}
	name := "c-blosc-" + cblosc.Version() + "/avx2"
	extraKernels = append(extraKernels,
		extraKernel{
			family:    "shuffle",
			name:      name,
			usable:    func(n, ts int) int { return n },
			shuffle:   cblosc.ShuffleAVX2,
			unshuffle: cblosc.UnshuffleAVX2,
		},
		extraKernel{
			family: "bitshuffle",
			name:   name,
			usable: func(n, ts int) int { return n / (8 * ts) * (8 * ts) },
			shuffle: func(dst, src []byte, ts int) {
				mustBit(cblosc.BitShuffleAVX2(dst, src, bitTmp(len(src)), ts))
			},
			unshuffle: func(dst, src []byte, ts int) {
				mustBit(cblosc.BitUnshuffleAVX2(dst, src, bitTmp(len(src)), ts))
			},
		})
}

// bitTmp is the scratch C's bit shuffle needs, kept between calls so the
// timing does not include an allocation.
var bitScratch []byte

func bitTmp(n int) []byte {
	if len(bitScratch) < n {
		bitScratch = make([]byte, n)
	}
	return bitScratch[:n]
}

// mustBit panics on an error usable already ruled out.
func mustBit(err error) {
	if err != nil {
		panic(err)
	}
}
