package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The rows kernels bit-shuffle typesize-1 rows for the package's rows
// path (bitshuffle/rows_amd64.go): a tile of elements byte-shuffled into
// typesize rows of blocks*512 bytes, each row r then bit-shuffled as a
// typesize-1 buffer into bit rows 8r..8r+7 of the whole buffer (rowLen
// apart). One call does every row of a tile, so the per-call cost is paid
// once per tile, and the loop is gfniLoop's dense one for typesize 1: the
// row delays of gfniRowDelayed would drain a ring at every call, which
// tiles of a few superblocks cannot afford.
//
// The typesize argument counts the rows; blocks is superblocks per row.
func genRows() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX512GFNIRows"
		if inverse {
			name = "unshuffleAVX512GFNIRows"
		}
		usesVEX[name] = true
		TEXT(name, NOSPLIT, sig())
		Pragma("noescape")
		Doc(name+" bit-shuffles typesize rows of blocks superblocks of 512 bytes, each as typesize 1,",
			"into bit rows rowLen apart: see rows.go in the generator.")
		a := &gfniArgs{args: loadArgs(inverse)}
		loadTransposeStages()
		a.matrix = ZMM()
		MOVQ(U64(gfniTranspose), a.tmp)
		VPBROADCASTQ(a.tmp, a.matrix)
		a.t8x8 = ZMM()
		VMOVDQU64(t8x8Table(), a.t8x8)
		rows, perRow, rowBase := GP64(), GP64(), GP64()
		Comment("rows: the typesize argument; each row is a typesize-1 buffer")
		MOVQ(a.ts, rows)
		MOVQ(a.blocks, perRow)
		MOVQ(a.dst, rowBase)
		MOVQ(U32(1), a.ts)
		MOVQ(U32(8), a.ts8)
		MOVQ(U32(1), a.nd)
		TESTQ(rows, rows)
		JZ(LabelRef(name + "done"))
		TESTQ(perRow, perRow)
		JZ(LabelRef(name + "done"))
		Label(name + "row")
		MOVQ(perRow, a.blocks)
		MOVQ(rowBase, a.dst)
		blockLoopExit = func() {
			Comment("the element side has advanced to the next row's start")
			ADDQ(a.row8, rowBase)
			DECQ(rows)
			JNZ(LabelRef(name + "row"))
			Label(name + "done")
			VZEROUPPER()
			RET()
		}
		gfniLoop(name+"dense", a, 1, inverse)
		blockLoopExit = nil
	}
}
