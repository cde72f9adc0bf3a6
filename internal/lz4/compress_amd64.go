//go:build !purego && !noasm && gc

package lz4

import "math"

// haveAsm says that compressAsm runs the assembly loop, not compress.
const haveAsm = true

// compressLoop is compress's loop in assembly, in compress_amd64.s. Its
// hash is v*prime>>shift, which is LZ4_hash4 for the byU16 table with
// prime4<<32 and 51 (the 32-bit product is the top half of the 64-bit
// one), and LZ4_hash5 with prime5<<24 and 52. The limited-output checks
// compare with checkLen, past every position when the output is not
// limited. It returns di -1 where compress returns 0, or the position in
// dst and the anchor from which lastRun writes the final literals.
//
//go:noescape
func compressLoop(table *uint32, base int, dst, src []byte, shift uint, prime uint64, acceleration, checkLen int) (di, anchor int)

// compressAsm is compress, with the same arguments and result.
func compressAsm[T byU16 | byU32](table *T, base int, dst, src []byte, acceleration int) int {
	checkLen := len(dst)
	if len(dst) >= CompressBlockBound(len(src)) {
		checkLen = math.MaxInt
	}
	shift, prime := uint(64-hashLog), uint64(prime5<<24)
	if len(*table) == tableSize {
		shift, prime = 64-(hashLog+1), prime4<<32
	} else {
		base = 0
	}
	di, anchor := compressLoop(&(*table)[0], base, dst, src, shift, prime, acceleration, checkLen)
	if di < 0 {
		return 0
	}
	return lastRun(dst, src, di, anchor)
}
