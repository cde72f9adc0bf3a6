//go:build purego || noasm || !gc || !amd64

package zstdenc

// No assembly here: btlazy2's Go sort walk and update loop run.
const useBtAsm = false

// dubtSortAllAsm is never called here (useBtAsm is false).
func dubtSortAllAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask int, prev uint32, nbCand, nb int) {
	panic("zstdenc: no assembly sort walk on this target")
}

// dubtUpdateAsm is never called here (useBtAsm is false).
func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8) {
	panic("zstdenc: no assembly update on this target")
}
