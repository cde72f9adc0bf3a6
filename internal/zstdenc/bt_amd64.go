//go:build !purego && !noasm && gc

package zstdenc

// useBtAsm selects dubtSortAsm for btlazy2's sort walk (tests clear it
// to compare with the Go loop).
var useBtAsm = true

// dubtSortAsm is dubtSort's walk in assembly: the compiler keeps the Go
// walk's children, turn count and position on the stack and reloads
// them every step; here the walk's state stays in registers (the turn
// count, the table's base and mask and btLow are read from the
// argument frame, once a step each). Its arguments are dubtSort's with
// the tree (e.hashL), e.base and e.btMask(); it reads buf only below end.
//
//go:noescape
func dubtSortAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int)
