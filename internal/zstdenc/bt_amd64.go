//go:build !purego && !noasm && gc

package zstdenc

import "unsafe"

// useBtAsm selects dubtSortAsm for btlazy2's sort walk (tests clear it
// to compare with the Go loop).
var useBtAsm = true

// dubtSortAsm is dubtSort's walk in assembly: the compiler keeps the Go
// walk's children, turn count and position on the stack and reloads
// them every step; here the walk's state stays in registers (the turn
// count, the table's base and mask and btLow are read from the
// argument frame, once a step each).
//
//go:noescape
func dubtSortAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int)

// dubtSortFast runs dubtSortAsm and reports whether it did.
func (e *Encoder) dubtSortFast(buf []byte, cur, end, nb, btLow int) bool {
	if !useBtAsm {
		return false
	}
	dubtSortAsm(unsafe.SliceData(e.hashL), unsafe.SliceData(buf), cur, end, nb, btLow, e.base, e.btMask())
	return true
}
