//go:build !(amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) || purego || noasm

package blosclz

import "encoding/binary"

// The encoder's and the decoder's hot loads and stores with bounds checks:
// big-endian platforms, and the purego build, in which the tests prove
// every position within its slice.
func load64(b []byte, i int) uint64     { return binary.LittleEndian.Uint64(b[i : i+8]) }
func load32(b []byte, i int) uint32     { return binary.LittleEndian.Uint32(b[i : i+4]) }
func load8(b []byte, i int) byte        { return b[i] }
func store64(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[i:i+8], v) }
