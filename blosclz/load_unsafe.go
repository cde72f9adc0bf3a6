//go:build (amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) && !purego && !noasm

package blosclz

import "unsafe"

// The encoder's and the decoder's hot loads and stores without bounds
// checks, on platforms that are little endian and move unaligned words in
// one instruction. Every position passed is within the slice by the
// invariants noted at each call (in the decoder, the explicit checks just
// before it), which the portable build (-tags purego) checks at run time in
// the tests and fuzz targets.
func load64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func load32(b []byte, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func load8(b []byte, i int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func store64(b []byte, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)) = v
}
