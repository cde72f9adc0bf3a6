//go:build (amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) && !purego && !noasm

package zstdenc

import "unsafe"

// The tree walks read and write their tables without bounds checks
// where internal/le reads bytes so: every index is a hash below the head
// table's length, a node slot 2*(pos&btMask)+0/1 below the tree's, or a
// byte before the block's end (the walks stop where a compare reaches
// it). Under -tags purego and on the other targets bt_safe.go checks
// them, which is how the tests and fuzz targets prove those bounds.

// tabAt returns t[i].
func tabAt(t []uint32, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t)), uintptr(i)*4))
}

// tabSet sets t[i] to v.
func tabSet(t []uint32, i int, v uint32) {
	*(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t)), uintptr(i)*4)) = v
}

// pairSet sets t[i] to the low 32 bits of v and t[i+1] to the high
// ones, one store on these little-endian targets (i is a node's first
// slot, even: the store is aligned in the table's allocation).
func pairSet(t []uint32, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t)), uintptr(i)*4)) = v
}

// byteAt returns b[i].
func byteAt(b []byte, i int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}
