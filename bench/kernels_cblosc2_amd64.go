//go:build cblosc2 && cgo

package main

import (
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/klauspost/cpuid/v2"
)

// Built with -tags cblosc2 on a CPU with AVX2, bench -kernels adds rows for
// c-blosc2's own kernels, the ones its chunks run: the AVX2 byte shuffle
// (it has no AVX-512 one) and its AVX2 and AVX-512 bit shuffles.
func init() {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		return
	}
	name := "c-blosc2-" + cblosc2.Version() + "/"
	bitUsable := func(n, ts int) int { return n / (8 * ts) * (8 * ts) }
	extraKernels = append(extraKernels, extraKernel{
		family:    "shuffle",
		name:      name + "avx2",
		usable:    func(n, ts int) int { return n },
		shuffle:   cblosc2.ShuffleAVX2,
		unshuffle: cblosc2.UnshuffleAVX2,
	})
	bits := []cblosc2.BitKernel{cblosc2.BitAVX2}
	if cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW) {
		bits = append(bits, cblosc2.BitAVX512)
	}
	for _, k := range bits {
		extraKernels = append(extraKernels, extraKernel{
			family: "bitshuffle",
			name:   name + k.String(),
			usable: bitUsable,
			shuffle: func(dst, src []byte, ts int) {
				mustNil(cblosc2.BitShuffle(k, dst, src, ts))
			},
			unshuffle: func(dst, src []byte, ts int) {
				mustNil(cblosc2.BitUnshuffle(k, dst, src, ts))
			},
		})
	}
}

// mustNil panics on an error usable already ruled out.
func mustNil(err error) {
	if err != nil {
		panic(err)
	}
}
