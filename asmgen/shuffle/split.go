package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// splitChunk is how many blocks vbmiShuffleSplit shuffles per half before
// it turns to the other half of the streams; their source, 64*ts bytes a
// block, must still be in L1 for the second pass. At 256 KiB, ts=8,
// alternating the variants and a copy (BenchmarkShuffleKernels): 4 blocks
// fall short, 8 to 32 run near the copy with dst 64-byte aligned, and with
// dst 4000 bytes into a page 16 keeps that speed where 8 falls back.
const splitChunk = 16

// vbmiShuffleSplit is vbmiShuffle for buffers whose streams all start at
// one offset modulo 4 KiB (n a multiple of 4096), the usual case for the
// power-of-two blocks of a chunk. AMD Zen 4 stores 8 lines at one 4 KiB
// offset at well under its usual rate: at 256 KiB the one-pass ts=8 kernel
// ran much faster when n was 64 elements longer, which spreads the
// streams' lines over 8 offsets (the unshuffle, whose loads meet at one
// offset instead, runs near a copy and gained nothing from two passes).
// This kernel shuffles splitChunk blocks writing only the first half of
// the streams (r = 4 stores per block, as a typesize-4 kernel makes, which
// runs near copy speed), then the same blocks again, reading them from L1,
// writing the second half. The gather
// and transpose of each half are done once, as in vbmiShuffle; only the
// loads are doubled. At typesize 16 the halves still store 8 lines at one
// offset and gained nothing (the skewed kernel serves it).
func vbmiShuffleSplit(ts int) {
	_, r, e, b := vbmiShape(ts)
	name := fmt.Sprintf("shuffle%dAVX512Split", ts)
	doc := fmt.Sprintf("%s shuffles blocks of 64 elements of %d bytes, one half of the streams per pass over %d blocks (see vbmiShuffleSplit in asmgen/shuffle).", name, ts, splitChunk)
	TEXT(name, NOSPLIT, signature)
	Pragma("noescape")
	Doc(doc)
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	blocks := Load(Param("blocks"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef("done"))
	t := gatherTables(ts)
	ql, qh, mask := vbmiCommon(ts, true)
	count, chunk := GP64(), GP64()
	s, d := GP64(), GP64()
	Label("chunk")
	MOVQ(U32(splitChunk), chunk)
	CMPQ(blocks, chunk)
	CMOVQLT(blocks, chunk)
	for h := range t {
		MOVQ(src, s)
		MOVQ(dst, d)
		MOVQ(chunk, count)
		Label(fmt.Sprintf("half%d", h))
		rows := make([]VecVirtual, r)
		for k := 0; k < r; k++ {
			a, c := ZMM(), ZMM()
			VMOVDQU64(Mem{Base: s, Disp: k * b}, a)
			if mask == nil {
				VMOVDQU64(Mem{Base: s, Disp: k*b + 64}, c)
			} else {
				VMOVDQU8_Z(Mem{Base: s, Disp: k*b + 64}, mask, c)
			}
			VPERMT2B(c, t[h], a)
			rows[k] = a
		}
		transpose(rows, e, ql, qh)
		for i, z := range rows {
			if st := h*r + i; st < ts {
				VMOVDQU64(z, Mem{Base: streamAddr(d, n, st)})
			}
		}
		ADDQ(U32(64), d)
		ADDQ(U32(64*ts), s)
		DECQ(count)
		JNZ(LabelRef(fmt.Sprintf("half%d", h)))
	}
	MOVQ(s, src)
	MOVQ(d, dst)
	SUBQ(chunk, blocks)
	JNZ(LabelRef("chunk"))
	Label("done")
	VZEROUPPER()
	RET()
}
