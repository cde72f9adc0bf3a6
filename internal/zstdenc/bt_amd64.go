//go:build !purego && !noasm && gc

package zstdenc

// useBtAsm selects dubtFindAsm for btlazy2's sort and search walks
// and dubtUpdateAsm for its update loop (tests clear it to compare with
// the Go loops).
var useBtAsm = true

// dubtUpdateAsm is dubtUpdate's loop over from..ip-1 with the head
// entry of the position 32 on (DUBT_PF in bt_amd64.s) prefetched, for
// positions up to pfEnd (the last at which buf holds 8 bytes); v is
// e.base+from, mul and shift the tree hasher's. It reads buf only below
// pfEnd+8.
//
//go:noescape
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8)

// dubtFindAsm is btSearch after its update and its collection of
// unsorted candidates, in one call: the candidates sorted in (from
// prev, 0 for none, with nbCand compares, one more for each later
// one), then the search walk inserting ip (m its head entry's
// position, the entry already replaced by ip) with at most nbCompares
// compares. It returns the best match's length and offset and the
// farthest end of a longer match met. The compiler keeps the Go
// walks' children, turn count and position on the stack and reloads
// them every step; here the walks' state stays in registers, and each
// step asks for both children of the node it reads (PREFETCHT0). bt
// is e.hashL, base e.base and bmask e.btMask(). It also asks for the
// head entry (in head, hashed with mul and shift) of the position 16
// on (BT_PF), where buf holds its 8 bytes below end. It reads buf
// only below end.
//
//go:noescape
func dubtFindAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask int, prev uint32, nbCand, ip, m, nbCompares int, head *uint32, mul uint64, shift uint8) (best, bestOff, matchEnd int)

// optWalkAsm is allMatches' tree walk: ip inserted (m its head entry's
// position, the entry already replaced by ip), each match longer than
// best met on the way added to matches after the first n, at most nb
// compares; it returns the number of matches and the farthest end of
// one added. The walk's state stays in registers, where the compiler
// keeps some of the Go walk's on the stack; it asks for both children
// of each node it reads (PREFETCHT0) before the compare. It also asks
// for the head entries (in head, hashed with mul and shift) of ip+1,
// which the parser most often searches next, and of ip+8 (OPT_PF in
// bt_amd64.s), where buf holds their 8 bytes below end, and reads the
// entry of ip+4 (asked for four searches before) to ask for its
// candidate's node and bytes. It reads buf only below end.
//
//go:noescape
func optWalkAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask, ip, m, nb, best int, matches *match, n int, head *uint32, mul uint64, shift uint8) (count, matchEnd int)
