package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The fused kernels bit-shuffle the typesizes that are not powers of two
// (3, 5-7, 9-15) in one pass per superblock of 512 elements, where the
// rows path (rows.go) byte-shuffles a whole tile into memory and then
// bit-shuffles it row by row.
//
// Front, per 64-element sub-block sb: the AVX-512 VBMI byte shuffle of
// asmgen/shuffle (two VPERMT2B per 128-byte window, then a transpose of
// cells) leaves byte column d of the 64 elements in one vector. Its gather
// tables list every 8 elements last first, so each quadword is already the
// 8x8 bit tile the GFNI step wants (the typesize-1 kernel spends a VPERMB
// on that), and one VGF2P8AFFINEQB per column transposes the tiles. The
// column vectors go to stage[d][sb], 64-byte aligned on the stack: a
// superblock needs 8*typesize of them and the registers hold 32.
//
// Back, per column d: the 8 staged vectors become the 64-byte slices of
// bit rows 8d..8d+7 by the typesize-1 kernel's quadword transpose (gfni.go).
// Unshuffling runs the back end first (rows to stage), then per sub-block
// the inverse GFNI step and the VBMI byte unshuffle, whose stores run up
// to fusedSlack bytes past the sub-block (the next one rewrites them; the
// caller leaves room after the last).
//
// Transposes of cells whose rows would only feed columns past the
// typesize are not emitted: typesize 9 byte-shuffles as 16 columns, and
// the upper 8 cost 7 permutes instead of 24.

// fusedPrefetch is how far past each row store the forward kernel
// prefetches that row: 64 bytes is the next superblock's slice. The 8*ts
// row lines of a superblock are stores to as many places, each a line
// split unless rows are a multiple of 64 bytes apart, and they wait on
// their lines. Measured on the Xeon (Emerald Rapids) this was written on,
// 256 KiB, median of 5 rounds over memcpy: with the row stores sent to
// the stage instead (wrong output, timing only) typesize 3 ran 0.58
// against 0.34, 7 0.49 against 0.33; prefetching 64 bytes ahead gave 3
// 0.52, 7 0.47, 15 0.45 (from 0.35), 128 bytes about the same, 192 and
// 512 less. Typesizes 6 and 12 gain little: their rows, 5461 and 2730
// bytes apart at 256 KiB, put every third row in the same L1 set, more
// lines than the set has ways.
const fusedPrefetch = 64

var fusedTypesizes = []int{3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15}

// fusedShape is asmgen/shuffle's vbmiShape: p = typesize rounded up to a
// power of two, r = p/2 windows of e = 128/p elements (b = e*ts bytes).
func fusedShape(ts int) (p, r, e, b int) {
	p = 2
	for p < ts {
		p *= 2
	}
	return p, p / 2, 128 / p, 128 / p * ts
}

func genFused() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX512Fused"
		if inverse {
			name = "unshuffleAVX512Fused"
		}
		usesVEX[name] = true
		TEXT(name, 0, sig())
		Pragma("noescape")
		Doc(name+" bit-shuffles superblocks of 512 elements of typesizes 3, 5-7 and 9-15 with a",
			"byte shuffle feeding GFNI tile transposes in registers: see fused.go in the generator.")
		a := &gfniArgs{args: loadArgs(inverse)}
		TESTQ(a.blocks, a.blocks)
		JZ(LabelRef(name + "none"))
		stageRegs = map[int][2]reg.VecVirtual{}
		transposeStage(2)
		a.stage = alignedStageSize(a.args, 15*512)
		a.matrix = ZMM()
		MOVQ(U64(gfniTranspose), a.tmp)
		VPBROADCASTQ(a.tmp, a.matrix)
		for _, ts := range fusedTypesizes {
			CMPQ(a.ts, U8(ts))
			JEQ(LabelRef(fmt.Sprintf("%sts%d", name, ts)))
		}
		Comment("other typesizes are the caller's to avoid")
		VZEROUPPER()
		Label(name + "none")
		RET()
		for _, ts := range fusedTypesizes {
			Label(fmt.Sprintf("%sts%d", name, ts))
			fusedLoop(fmt.Sprintf("%sts%d", name, ts), a, ts, inverse)
		}
	}
}

// fusedLoop emits the superblock loop of typesize ts.
func fusedLoop(name string, a *gfniArgs, ts int, inverse bool) {
	_, _, _, b := fusedShape(ts)
	var tables [2]reg.VecVirtual
	for h := range tables {
		tables[h] = ZMM()
		if inverse {
			VMOVDQU64(fusedScatterTable(ts, h), tables[h])
		} else {
			VMOVDQU64(fusedGatherTable(ts, h), tables[h])
		}
	}
	var mask reg.OpmaskVirtual
	if !inverse {
		mask = K()
		MOVQ(U64(uint64(1)<<(b-64)-1), a.tmp)
		KMOVQ(a.tmp, mask)
	}
	el, st, cnt, q, q2 := GP64(), GP64(), GP64(), GP64(), GP64()

	front := func() {
		MOVQ(a.src, el)
		MOVQ(a.stage.Base, st)
		MOVQ(U32(8), cnt)
		Label(name + "front")
		if inverse {
			fusedFrontInverse(a, ts, el, st, tables)
		} else {
			fusedFrontForward(a, ts, el, st, tables, mask)
		}
		ADDQ(U32(64*ts), el)
		ADDQ(U8(64), st)
		DECQ(cnt)
		JNZ(LabelRef(name + "front"))
	}
	back := func() {
		MOVQ(a.stage.Base, st)
		MOVQ(a.dst, q)
		MOVQ(U32(ts), cnt)
		Label(name + "back")
		v := make([]reg.VecVirtual, 8)
		MOVQ(q, q2)
		if inverse {
			for i := range v {
				v[i] = ZMM()
				VMOVDQU64(Mem{Base: q2}, v[i])
				if i < 7 {
					ADDQ(a.rowLen, q2)
				}
			}
			// [b][g] -> [g][7-b], tiles in the byte order GFNI needs
			transposeQwordsPerm(v, identityPerm(), revPerm())
			for sb := range v {
				VMOVDQU64(v[sb], Mem{Base: st, Disp: 64 * sb})
			}
		} else {
			for sb := range v {
				v[sb] = ZMM()
				VMOVDQU64(Mem{Base: st, Disp: 64 * sb}, v[sb])
			}
			// [g][b] -> [b][g] folded into the first stage
			transposeQwordsPerm(v, t8x8Perm(), identityPerm())
			for i := range v {
				VMOVDQU64(v[i], Mem{Base: q2})
				PREFETCHT0(Mem{Base: q2, Disp: fusedPrefetch})
				if i < 7 {
					ADDQ(a.rowLen, q2)
				}
			}
		}
		ADDQ(U32(512), st)
		ADDQ(a.row8, q)
		DECQ(cnt)
		JNZ(LabelRef(name + "back"))
	}

	Label(name + "block")
	if inverse {
		back()
		front()
	} else {
		front()
		back()
	}
	Comment("next superblock: 512 elements on, 64 bytes along each row")
	ADDQ(U32(512*ts), a.src)
	ADDQ(U8(64), a.dst)
	DECQ(a.blocks)
	JNZ(LabelRef(name + "block"))
	VZEROUPPER()
	RET()
}

// fusedGatherTable is the VPERMT2B index gathering, from a window of e
// elements, columns h*r..h*r+r-1 as r cells of e bytes, each 8 elements
// last first (the GFNI tile order).
func fusedGatherTable(ts, h int) Mem {
	_, r, e, _ := fusedShape(ts)
	return table(fmt.Sprintf("bitshuffleFusedGather%d_%d", ts, h), func() {
		var idx [64]byte
		for q := range idx {
			s, el := q/e, q%e
			if col := h*r + s; col < ts {
				idx[q] = byte((el^7)*ts + col)
			}
		}
		emitBytes(idx[:])
	})
}

// fusedScatterTable is the VPERMT2B index putting window k's bytes back
// in element order, bytes 64h..64h+63 of the window: after the cell
// transpose, table half h' cell s holds column h'*r+s of the window's e
// elements, in element order.
func fusedScatterTable(ts, h int) Mem {
	_, r, e, b := fusedShape(ts)
	return table(fmt.Sprintf("bitshuffleFusedScatter%d_%d", ts, h), func() {
		var idx [64]byte
		for q := range idx {
			o := 64*h + q
			if o >= b {
				continue
			}
			el, col := o/ts, o%ts
			idx[q] = byte(64*(col/r) + (col%r)*e + el)
		}
		emitBytes(idx[:])
	})
}

// fusedFrontForward byte-shuffles the sub-block at el into tile columns,
// transposes their tiles and stores column d at st + 512*d.
func fusedFrontForward(a *gfniArgs, ts int, el, st reg.GPVirtual, t [2]reg.VecVirtual, mask reg.OpmaskVirtual) {
	_, r, e, b := fusedShape(ts)
	rows := [2][]reg.VecVirtual{make([]reg.VecVirtual, r), make([]reg.VecVirtual, r)}
	for k := 0; k < r; k++ {
		x, y, o := ZMM(), ZMM(), ZMM()
		VMOVDQU64(Mem{Base: el, Disp: k * b}, x)
		// masked: the window ends before the next 64 bytes do
		VMOVDQU8_Z(Mem{Base: el, Disp: k*b + 64}, mask, y)
		VMOVDQA64(x, o)
		VPERMT2B(y, t[0], o)
		VPERMT2B(y, t[1], x)
		rows[0][k], rows[1][k] = o, x
	}
	for h := range rows {
		need := make([]bool, r)
		for s := range need {
			need[s] = h*r+s < ts
		}
		cellTranspose(rows[h], e, need, nil)
		for s, z := range rows[h] {
			if need[s] {
				vgf2p8affineqb(z, a.matrix, z)
				VMOVDQU64(z, Mem{Base: st, Disp: 512 * (h*r + s)})
			}
		}
	}
}

// fusedFrontInverse is fusedFrontForward's inverse: the staged columns of
// the sub-block, after the inverse GFNI step, are its byte-shuffled
// streams, unshuffled into the elements at el.
func fusedFrontInverse(a *gfniArgs, ts int, el, st reg.GPVirtual, u [2]reg.VecVirtual) {
	_, r, e, b := fusedShape(ts)
	var zero reg.VecVirtual
	rows := [2][]reg.VecVirtual{make([]reg.VecVirtual, r), make([]reg.VecVirtual, r)}
	for h := range rows {
		for s := range rows[h] {
			col := h*r + s
			if col >= ts {
				if zero == nil {
					zero = ZMM()
					VPXORQ(zero, zero, zero)
				}
				rows[h][s] = zero
				continue
			}
			z := ZMM()
			VMOVDQU64(Mem{Base: st, Disp: 512 * col}, z)
			vgf2p8affineqb(z, a.matrix, z)
			rows[h][s] = z
		}
		need := make([]bool, r)
		for s := range need {
			need[s] = true
		}
		cellTranspose(rows[h], e, need, zero)
	}
	Comment("stores in address order: each window's overrun is rewritten by the next")
	for k := 0; k < r; k++ {
		lo, hi := rows[0][k], rows[1][k]
		o := ZMM()
		VMOVDQA64(lo, o)
		VPERMT2B(hi, u[0], o)
		VMOVDQU64(o, Mem{Base: el, Disp: k * b})
		VPERMT2B(hi, u[1], lo)
		VMOVDQU64(lo, Mem{Base: el, Disp: k*b + 64})
	}
}

// cellTranspose transposes the square matrix of cells (cell bytes wide)
// in rows, one index bit per stage, emitting only the permutes that the
// rows marked in need depend on; the others are left nil. A row equal to
// zero (when zero is not nil) is all zero bytes, and pairs of zero rows
// give zero rows without an instruction.
func cellTranspose(rows []reg.VecVirtual, cell int, need []bool, zero reg.VecVirtual) {
	n := len(rows)
	var stages []int
	for d := 1; d < n; d *= 2 {
		stages = append(stages, d)
	}
	// needAfter[i][row]: row is needed after stage i.
	needAfter := make([][]bool, len(stages))
	cur := append([]bool(nil), need...)
	for i := len(stages) - 1; i >= 0; i-- {
		needAfter[i] = cur
		d := stages[i]
		prev := make([]bool, n)
		for j := 0; j < n; j++ {
			if j&d == 0 && (cur[j] || cur[j+d]) {
				prev[j], prev[j+d] = true, true
			}
		}
		cur = prev
	}
	for i, d := range stages {
		g := cell * d
		for j := 0; j < n; j++ {
			if j&d != 0 {
				continue
			}
			x, y := rows[j], rows[j+d]
			wantLo, wantHi := needAfter[i][j], needAfter[i][j+d]
			if !wantLo && !wantHi {
				rows[j], rows[j+d] = nil, nil
				continue
			}
			if zero != nil && x == zero && y == zero {
				continue
			}
			var lo, hi reg.VecVirtual
			switch g {
			case 8:
				if wantLo {
					lo = ZMM()
					VPUNPCKLQDQ(y, x, lo)
				}
				if wantHi {
					hi = ZMM()
					VPUNPCKHQDQ(y, x, hi)
				}
			case 16:
				ql, qh := transposeStage(2)
				if wantLo {
					lo = ZMM()
					VMOVDQA64(ql, lo)
					VPERMI2Q(y, x, lo)
				}
				if wantHi {
					hi = ZMM()
					VMOVDQA64(qh, hi)
					VPERMI2Q(y, x, hi)
				}
			case 32:
				if wantLo {
					lo = ZMM()
					VSHUFI64X2(U8(0x44), y, x, lo)
				}
				if wantHi {
					hi = ZMM()
					VSHUFI64X2(U8(0xEE), y, x, hi)
				}
			default:
				panic("cellTranspose: cell size")
			}
			rows[j], rows[j+d] = lo, hi
		}
	}
}
