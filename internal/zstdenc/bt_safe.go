//go:build !(amd64 || arm64 || 386 || riscv64 || ppc64le || loong64) || purego || noasm

package zstdenc

// Checked counterparts of bt_unsafe.go's accessors.

// tabAt returns t[i].
func tabAt(t []uint32, i int) uint32 { return t[i] }

// tabSet sets t[i] to v.
func tabSet(t []uint32, i int, v uint32) { t[i] = v }

// byteAt returns b[i].
func byteAt(b []byte, i int) byte { return b[i] }
