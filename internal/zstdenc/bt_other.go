//go:build purego || noasm || !gc || !amd64

package zstdenc

// No assembly here: btlazy2's Go sort walk runs.
const useBtAsm = false

// dubtSortAsm is never called here (useBtAsm is false).
func dubtSortAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int) {
	panic("zstdenc: no assembly sort walk on this target")
}

// dubtUpdateAsm is never called here (useBtAsm is false).
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8) {
	panic("zstdenc: no assembly update on this target")
}

// dubtSortAllAsm is never called here (useBtAsm is false).
func dubtSortAllAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int, prev uint32, nbCand int) {
	panic("zstdenc: no assembly sort walk on this target")
}
