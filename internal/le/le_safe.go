//go:build !(amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) || purego || noasm

package le

import "encoding/binary"

// Load64 returns the little-endian uint64 at b[i:i+8].
func Load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// Load32 returns the little-endian uint32 at b[i:i+4].
func Load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i : i+4]) }

// Load16 returns the little-endian uint16 at b[i:i+2].
func Load16(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[i : i+2]) }

// Load8 returns b[i].
func Load8(b []byte, i int) byte { return b[i] }

// Store64 writes v little-endian at b[i:i+8].
func Store64(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[i:i+8], v) }

// Copy16 copies the 16 bytes at src[j:] to dst[i:]; the two ranges must
// not overlap unless dst[i:] starts 16 or more bytes after src[j:].
func Copy16(dst []byte, i int, src []byte, j int) {
	*(*[16]byte)(dst[i : i+16]) = *(*[16]byte)(src[j : j+16])
}
