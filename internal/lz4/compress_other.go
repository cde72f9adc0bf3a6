//go:build purego || noasm || !gc || !amd64

package lz4

// haveAsm says that compressAsm runs the assembly loop, not compress.
const haveAsm = false

// compressAsm is compress where no assembly loop exists.
func compressAsm[T byU16 | byU32](table *T, base int, dst, src []byte, acceleration int) int {
	return compress(table, base, dst, src, acceleration)
}
