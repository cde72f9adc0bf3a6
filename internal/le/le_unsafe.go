//go:build (amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) && !purego && !noasm

package le

import "unsafe"

// Load64 returns the little-endian uint64 at b[i:i+8].
func Load64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// Load32 returns the little-endian uint32 at b[i:i+4].
func Load32(b []byte, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// Load16 returns the little-endian uint16 at b[i:i+2].
func Load16(b []byte, i int) uint16 {
	return *(*uint16)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// Load8 returns b[i].
func Load8(b []byte, i int) byte {
	return *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// Store64 writes v little-endian at b[i:i+8].
func Store64(b []byte, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)) = v
}

// Copy16 copies the 16 bytes at src[j:] to dst[i:] with one vector load
// and store where the compiler has them; the two ranges must not overlap
// unless dst[i:] starts 16 or more bytes after src[j:].
func Copy16(dst []byte, i int, src []byte, j int) {
	*(*[16]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), i)) =
		*(*[16]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), j))
}
