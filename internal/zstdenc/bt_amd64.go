//go:build !purego && !noasm && gc

package zstdenc

// useBtAsm selects dubtSortAllAsm for btlazy2's sort walks and
// dubtUpdateAsm for its update loop (tests clear it to compare with the
// Go loops).
var useBtAsm = true

// dubtUpdateAsm is dubtUpdate's loop over from..ip-1 with the head
// entry of the position 32 on (DUBT_PF in bt_amd64.s) prefetched, for positions up
// to pfEnd (the last at which buf holds 8 bytes); v is e.base+from, mul
// and shift the tree hasher's. It reads buf only below pfEnd+8.
//
//go:noescape
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8)

// dubtSortAllAsm is btSearch's loop sorting in its unsorted
// candidates, oldest first from prev (biased; each one's second slot
// chains to the next, 0 ends), each with dubtSort's walk and a budget
// of nbCand compares, one more for each later candidate: one call a
// search. The compiler keeps the Go walk's children, turn count and
// position on the stack and reloads them every step; here the walk's
// state stays in registers (the turn count, the table's base and mask
// and btLow are read from the argument frame, once a step each). bt is
// e.hashL, base e.base and bmask e.btMask(); nb is scratch. It reads
// buf only below end.
//
//go:noescape
func dubtSortAllAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask int, prev uint32, nbCand, nb int)
