//go:build (amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) && !purego && !noasm

package blosclz

import "unsafe"

// The encoder's loads without bounds checks, on platforms that are little
// endian and load unaligned words in one instruction. Every position passed
// is within src by the invariants noted at each call, which the portable
// build (-tags purego) checks at run time in the tests.
func load64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func load32(b []byte, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}
