//go:build !purego && !noasm && gc

package zstdenc

// useBtAsm selects dubtSortAsm for btlazy2's sort walk and
// dubtUpdateAsm for its update loop (tests clear it to compare with the
// Go loops).
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

// dubtPrefetch is how many positions ahead dubtUpdateAsm asks for head
// entries (DUBT_PF in bt_amd64.s).
const dubtPrefetch = 32

// dubtUpdateAsm is dubtUpdate's loop over from..ip-1 with the head
// entry of the position dubtPrefetch on prefetched, for positions up
// to pfEnd (the last at which buf holds 8 bytes); v is e.base+from, mul
// and shift the tree hasher's. It reads buf only below pfEnd+8.
//
//go:noescape
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8)

// dubtSortAllAsm is btSearch's loop sorting in its unsorted candidates,
// oldest first from prev (biased; each one's second slot chains to the
// next, 0 ends), each with dubtSortAsm's walk and a budget of nbCand
// compares, one more for each later candidate: one call a search. cur
// and nb are the walk's scratch (their values are not used).
//
//go:noescape
func dubtSortAllAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int, prev uint32, nbCand int)
