//go:build purego || noasm || !gc || !amd64

package zstdenc

// No assembly here: btlazy2's Go sort walk and update loop run.
const useBtAsm = false

// dubtUpdateAsm is never called here (useBtAsm is false).
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8) {
	panic("zstdenc: no assembly update on this target")
}

// dubtFindAsm is never called here (useBtAsm is false).
func dubtFindAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask int, prev uint32, nbCand, ip, m, nbCompares int, head *uint32, mul uint64, shift uint8) (best, bestOff, matchEnd int) {
	panic("zstdenc: no assembly search on this target")
}

// optWalkAsm is never called here (useBtAsm is false).
func optWalkAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask, ip, m, nb, best int, matches *match, n int, head *uint32, mul uint64, shift uint8) (count, matchEnd int) {
	panic("zstdenc: no assembly walk on this target")
}
