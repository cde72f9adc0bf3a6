//go:build !(amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) || purego || noasm

package zstdenc

// Checked counterparts of bt_unsafe.go's accessors.

// tabAt returns t[i].
func tabAt(t []uint32, i int) uint32 { return t[i] }

// tabSet sets t[i] to v.
func tabSet(t []uint32, i int, v uint32) { t[i] = v }

// pairSet sets t[i] to the low 32 bits of v and t[i+1] to the high
// ones.
func pairSet(t []uint32, i int, v uint64) { t[i], t[i+1] = uint32(v), uint32(v>>32) }

// byteAt returns b[i].
func byteAt(b []byte, i int) byte { return b[i] }
