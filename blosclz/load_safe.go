//go:build !(amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) || purego || noasm

package blosclz

import "encoding/binary"

// The encoder's loads with bounds checks: big-endian platforms, and the
// purego build, in which the tests prove every load within src.
func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }
func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i : i+4]) }
