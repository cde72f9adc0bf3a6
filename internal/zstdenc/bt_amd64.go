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

// btWalkAsm is btSearch's walk down the tree (inserting ip, keeping the
// best match) in assembly, for the same reason as dubtSortAsm.
//
//go:noescape
func btWalkAsm(bt *uint32, buf *byte, ip, end, m, nb, btLow int, base uint32, bmask int) (best, bestOff, matchEnd int)

// btWalkFast runs btWalkAsm and reports whether it did.
func (e *Encoder) btWalkFast(buf []byte, ip, end, m, nb, btLow int) (best, bestOff, matchEnd int, ok bool) {
	if !useBtAsm {
		return 0, 0, 0, false
	}
	best, bestOff, matchEnd = btWalkAsm(unsafe.SliceData(e.hashL), unsafe.SliceData(buf), ip, end, m, nb, btLow, e.base, e.btMask())
	return best, bestOff, matchEnd, true
}
