package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The fused kernels bit-shuffle the typesizes that are not powers of two
// (3, 5-7, 9-15) in one pass per superblock of 512 elements, where the
// rows path (rows.go) byte-shuffles a whole tile into memory and then
// bit-shuffles it row by row.
//
// Front, per 64-element sub-block sb: a byte shuffle gathers each window
// of e elements (b = e*ts bytes, 64 < b <= 128) into r cells of e bytes,
// one byte column each, and a transpose of cells across the r windows
// leaves byte column d of the 64 elements in one vector. The gather lists
// every 8 elements last first, so each quadword is already the 8x8 bit
// tile the GFNI step wants, and one VGF2P8AFFINEQB per column transposes
// the tiles. The column vectors go to stage[d][sb], 64-byte aligned on the
// stack: a superblock needs 8*typesize of them and the registers hold 32.
//
// Back, per column d: the 8 staged vectors become the 64-byte slices of
// bit rows 8d..8d+7. Unshuffling runs the back end first (rows to stage),
// then per sub-block the inverse GFNI step, the inverse cell transpose and
// the byte unshuffle.
//
// What bounds these kernels is port 5, which alone runs the 512-bit
// permutes; the two-table byte permutes (VPERMT2B, VPERMI2B) take it
// twice. On Intel's Emerald Rapids, timed in a loop of independent
// instructions, a VPERMT2B costs two cycles of throughput, VPERMB, VPERMQ,
// unpacks and VSHUFI64X2 one, and blends (VPBLENDMQ) half, as ports 0 and
// 5 both run them; GFNI runs on port 0.
// So the kernels move data with single-table permutes and blends:
//
//   - a window is gathered by one VPERMB of its first 64 bytes and one
//     merging VPERMB of its last 64 (each element from the one that holds
//     all of its bytes of the half), one cycle each;
//   - the cell transpose is all blends: window k's gather puts its cell s
//     at position s^k, and a stage per bit i then moves the cells at
//     positions with bit i set to the row that differs in bit i. Column s
//     ends up with window k's cell at position s^k;
//   - the back end is a VPERMB per staged vector that puts tile byte b of
//     group g at quadword b^sb (byte g), the same blend stages on quadword
//     bits, which leave row b holding sub-block sb at quadword sb^b, and a
//     VPERMQ per row undoing that. The forward VPERMB also undoes the
//     column's cell order, by indexes xored with the column's.
//
// For typesize 9 the one column past the first 8 sits in the last 64
// bytes of every window: it is gathered by a merging VPERMB per window
// into a vector of its own (fusedMerged). Other typesizes gather the
// columns past the first r as a second set of cells (r columns of which
// only ts-r are real) and emit only the blends those depend on.
//
// Unshuffling writes the sub-block as whole 64-byte vectors, each one
// VPERMB and up to three merging ones from the windows' cells
// (fusedOutput), rather than two stores per window: those overlap, and
// unless the elements are aligned every one splits a line. Timed with
// the stores aligned instead (wrong output), the front end alone went
// from 0.45 to 0.87 of memcpy at 256 KiB, typesize 9.
//
// The kernels these replaced spent two VPERMT2B per window, a cell
// transpose of permutes and a back end of 8 VPERMI2B and 16 quadword
// permutes per column; the figures are in pickKernel in the package.
// Tried and dropped: the forward and back ends of consecutive
// superblocks interleaved in one loop, with two stages (slower: typesize
// 13 0.37 against 0.45); prefetching rows 128 or 192 bytes ahead (slower).

// fusedPrefetch is how far past each row store the forward kernel
// prefetches that row: 64 bytes is the next superblock's slice. The 8*ts
// row lines of a superblock are stores to as many places, each a line
// split unless rows are a multiple of 64 bytes apart, and they wait on
// their lines. TestMeasureKernels (bitshuffle/measure_test.go) at 256 KiB
// shows it: with the row stores sent to the stage instead (wrong output,
// timing only) the kernels ran far faster, and prefetching 64 bytes ahead
// recovered most of that difference; 128 bytes did about the same, 192
// and 512 less. Typesizes 6 and 12 gain little: their rows, 5461 and 2730
// bytes apart at 256 KiB, put every third row in the same L1 set, more
// lines than the set has ways.
const fusedPrefetch = 64

var fusedTypesizes = []int{3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15}

// fusedShape is asmgen/shuffle's vbmiShape: p = typesize rounded up to a
// power of two, r = p/2 windows of e = 128/p elements (b = e*ts bytes).
// A window's r cells of e bytes hold r columns of its elements.
func fusedShape(ts int) (p, r, e, b int) {
	p = 2
	for p < ts {
		p *= 2
	}
	return p, p / 2, 128 / p, 128 / p * ts
}

// fusedMerged reports whether the columns past the first r all lie in the
// last 64 bytes of every window, so that the forward kernel gathers each
// of them with one merging VPERMB per window: typesize 9 only.
func fusedMerged(ts int) bool {
	_, r, _, b := fusedShape(ts)
	return ts-r == 1 && r >= b-64
}

// fusedFromLast reports whether the gather takes element el of a window
// from the window's last 64 bytes rather than its first, for the columns
// of half h: the first when they all lie there.
func fusedFromLast(ts, h, el int) bool {
	_, r, _, b := fusedShape(ts)
	first, last := h*r, min(ts, h*r+r)-1
	if el*ts+last < 64 {
		return false
	}
	if el*ts+first < b-64 {
		panic("fusedFromLast: element in neither half")
	}
	return true
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

// fusedMasks are the opmasks of a typesize's loop.
type fusedMasks struct {
	qword [3]reg.OpmaskVirtual // quadwords whose index has bit i set
	cell  []reg.OpmaskVirtual  // blend stages of the cell transpose
	half  [2]reg.OpmaskVirtual // forward: bytes gathered from the window's last 64
}

// fusedLoop emits the superblock loop of typesize ts.
func fusedLoop(name string, a *gfniArgs, ts int, inverse bool) {
	_, r, e, _ := fusedShape(ts)
	var m fusedMasks
	for i := range m.qword {
		m.qword[i] = K()
		KMOVQ(qwordMasks().Offset(8*i), m.qword[i])
	}
	for d := 1; d < r; d *= 2 {
		// cells of e bytes: cell bit i is quadword bit i+log2(e/8)
		i := 0
		for 8<<i != e*d {
			i++
		}
		m.cell = append(m.cell, m.qword[i])
	}
	for h := range m.half {
		if inverse || h == 1 && fusedMerged(ts) {
			continue
		}
		m.half[h] = K()
		KMOVQ(fusedHalfMasks(ts).Offset(8*h), m.half[h])
	}
	xors := make([]reg.VecVirtual, 8) // the VPERMQ indexes of the back end
	{
		for i := 1; i < 8; i++ {
			xors[i] = ZMM()
			VMOVDQU64(qwordXorTables().Offset(64*i), xors[i])
		}
	}
	rows3 := GP64() // 3*rowLen: the rows are addressed from two bases
	LEAQ(Mem{Base: a.rowLen, Index: a.rowLen, Scale: 2}, rows3)
	el, st, cnt, q, q3, tp := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	rowAt := func(i int) Mem {
		switch i {
		case 0:
			return Mem{Base: q}
		case 1, 2, 4:
			return Mem{Base: q, Index: a.rowLen, Scale: uint8(i)}
		case 3:
			return Mem{Base: q3}
		case 5:
			return Mem{Base: q3, Index: a.rowLen, Scale: 2}
		case 6:
			return Mem{Base: q3, Index: rows3, Scale: 1}
		}
		return Mem{Base: q3, Index: a.rowLen, Scale: 4}
	}

	front := func() {
		MOVQ(a.src, el)
		MOVQ(a.stage.Base, st)
		MOVQ(U32(8), cnt)
		Label(name + "front")
		if inverse {
			fusedFrontInverse(a, ts, el, st, &m)
		} else {
			fusedFrontForward(a, ts, el, st, &m)
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
		colXor := ZMM() // forward: e*(d%r) in every byte, the column's cell order
		if inverse {
			LEAQ(fusedBackTables(ts, inverse), tp)
		} else {
			VPXORQ(colXor, colXor, colXor)
		}
		Label(name + "back")
		LEAQ(Mem{Base: q, Index: rows3, Scale: 1}, q3)
		v := make([]reg.VecVirtual, 8)
		// xor(i) is the VPERMQ index exchanging quadwords q and q^i
		xor := func(i int) reg.VecVirtual {
			if xors[i] != nil {
				return xors[i]
			}
			z := ZMM()
			VMOVDQU64(qwordXorTables().Offset(64*i), z)
			return z
		}
		if inverse {
			for b := range v {
				v[b] = ZMM()
				if b == 0 {
					VMOVDQU64(rowAt(b), v[b])
				} else {
					VPERMQ(rowAt(b), xor(b), v[b])
				}
			}
			blendTranspose(v, allNeeded(8), m.qword[:])
			for sb := range v {
				t := ZMM()
				VMOVDQU64(Mem{Base: tp, Disp: 64 * sb}, t)
				VPERMB(v[sb], t, t)
				VMOVDQU64(t, Mem{Base: st, Disp: 64 * sb})
			}
		} else {
			for sb := range v {
				v[sb] = ZMM()
				VPXORQ(fusedBackTables(ts, inverse).Offset(64*sb), colXor, v[sb])
				VPERMB(Mem{Base: st, Disp: 64 * sb}, v[sb], v[sb])
			}
			blendTranspose(v, allNeeded(8), m.qword[:])
			for b := range v {
				if b != 0 {
					VPERMQ(v[b], xor(b), v[b])
				}
				VMOVDQU64(v[b], rowAt(b))
				PREFETCHT0(rowAt(b).Offset(fusedPrefetch))
			}
		}
		ADDQ(U32(512), st)
		if inverse {
			ADDQ(U32(512), tp)
		} else {
			VPADDB(broadcastConst(fmt.Sprintf("bitshuffleBytes%d", e), uint64(e)*0x0101010101010101, 64), colXor, colXor)
			VPANDQ(broadcastConst("bitshuffleBytes63", 0x3F3F3F3F3F3F3F3F, 64), colXor, colXor)
		}
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

func allNeeded(n int) []bool {
	need := make([]bool, n)
	for i := range need {
		need[i] = true
	}
	return need
}

// qwordMasks holds the opmasks of the quadwords whose index has bit i set,
// at offset 8i.
func qwordMasks() Mem {
	return table("bitshuffleQwordBits", func() {
		for i := 0; i < 3; i++ {
			var bits uint64
			for q := 0; q < 8; q++ {
				if q>>i&1 != 0 {
					bits |= 1 << q
				}
			}
			DATA(8*i, U64(bits))
		}
	})
}

// qwordXorTables holds, at offset 64i, the VPERMQ index taking quadword
// q^i into quadword q.
func qwordXorTables() Mem {
	return table("bitshuffleQwordXor", func() {
		for i := 0; i < 8; i++ {
			for q := 0; q < 8; q++ {
				DATA(64*i+8*q, U64(uint64(q^i)))
			}
		}
	})
}

// fusedGroupPos is the quadword where column d's vector holds the tile of
// group g of the sub-block: window g/(e/8) sits in cell window^(d%r).
func fusedGroupPos(ts, d, g int) int {
	_, r, e, _ := fusedShape(ts)
	per := e / 8
	return per*((g/per)^(d%r)) + g%per
}

// fusedBackTables holds, per column d at offset 512d, the back end's
// VPERMB index for each sub-block sb at 64sb. Forward it takes tile byte b
// of group g (at quadword fusedGroupPos, byte b) to quadword b^sb, byte g;
// inverse it takes that back, to the byte order the inverse GFNI step
// wants (7-b).
func fusedBackTables(ts int, inverse bool) Mem {
	name := fmt.Sprintf("bitshuffleFusedBack%d", ts)
	if inverse {
		name = fmt.Sprintf("bitshuffleFusedUnback%d", ts)
	}
	cols := ts
	if !inverse {
		cols = 1 // the others xor the indexes with e*(d%r)
	}
	return table(name, func() {
		for d := 0; d < cols; d++ {
			for sb := 0; sb < 8; sb++ {
				var idx [64]byte
				for g := 0; g < 8; g++ {
					for b := 0; b < 8; b++ {
						tile := 8*fusedGroupPos(ts, d, g) + b
						row := 8*(b^sb) + g
						if inverse {
							idx[8*fusedGroupPos(ts, d, g)+7-b] = byte(row)
						} else {
							idx[row] = byte(tile)
						}
					}
				}
				for i := 0; i < 64; i += 8 {
					var w uint64
					for j := 0; j < 8; j++ {
						w |= uint64(idx[i+j]) << (8 * j)
					}
					DATA(512*d+64*sb+i, U64(w))
				}
			}
		}
	})
}

// fusedGatherTable is the VPERMB index gathering, from window k of e
// elements, columns h*r..h*r+r-1 as r cells of e bytes, cell s at
// position s^k, each 8 elements last first (the GFNI tile order). Each
// index counts from the 64 bytes its element comes from (fusedFromLast).
func fusedGatherTable(ts, h, k int) Mem {
	_, r, e, b := fusedShape(ts)
	return table(fmt.Sprintf("bitshuffleFusedGather%d_%d_%d", ts, h, k), func() {
		var idx [64]byte
		for q := range idx {
			s, el := (q/e)^k, q%e^7
			col := h*r + s
			if col >= ts {
				continue
			}
			o := el*ts + col
			if fusedFromLast(ts, h, el) {
				o -= b - 64
			}
			idx[q] = byte(o)
		}
		emitBytes(idx[:])
	})
}

// fusedMergeTable is the VPERMB index gathering column r (typesize 9's
// column 8) of a window from its last 64 bytes, the same in every cell;
// window k's permute writes cell k.
func fusedMergeTable(ts int) Mem {
	_, r, e, b := fusedShape(ts)
	return table(fmt.Sprintf("bitshuffleFusedMerge%d", ts), func() {
		var idx [64]byte
		for q := range idx {
			idx[q] = byte((q%e^7)*ts + r - (b - 64))
		}
		emitBytes(idx[:])
	})
}

// fusedCellMasks holds the byte masks of the cells of e bytes (e < 64),
// cell k's at offset 8k.
func fusedCellMasks(e int) Mem {
	return table(fmt.Sprintf("bitshuffleFusedCells%d", e), func() {
		for k := 0; k < 64/e; k++ {
			DATA(8*k, U64((uint64(1)<<e-1)<<(e*k)))
		}
	})
}

// fusedHalfMasks holds, at offset 8h, the byte mask of the gather of
// half h (columns h*r..h*r+r-1) taken from the window's last 64 bytes.
func fusedHalfMasks(ts int) Mem {
	_, r, e, _ := fusedShape(ts)
	return table(fmt.Sprintf("bitshuffleFusedHalves%d", ts), func() {
		for h := 0; h < 2; h++ {
			var bits uint64
			for q := 0; q < 64; q++ {
				if h*r < ts && fusedFromLast(ts, h, q%e^7) {
					bits |= 1 << q
				}
			}
			DATA(8*h, U64(bits))
		}
	})
}

// fusedFrontForward byte-shuffles the sub-block at el into tile columns,
// transposes their tiles and stores column d at st + 512*d.
func fusedFrontForward(a *gfniArgs, ts int, el, st reg.GPVirtual, m *fusedMasks) {
	_, r, e, b := fusedShape(ts)
	merged := fusedMerged(ts)
	halves := 2
	var extra, mergeIdx reg.VecVirtual // typesize 9's column 8
	if merged {
		halves = 1
		extra, mergeIdx = ZMM(), ZMM()
		VMOVDQU64(fusedMergeTable(ts), mergeIdx)
	}
	rows := [2][]reg.VecVirtual{make([]reg.VecVirtual, r), make([]reg.VecVirtual, r)}
	for k := 0; k < r; k++ {
		// Loaded once: as memory operands of the permutes, the unaligned
		// loads ran a quarter slower (typesize 3 forward 0.48 -> 0.53).
		first, last := ZMM(), ZMM()
		VMOVDQU64(Mem{Base: el, Disp: k * b}, first)
		VMOVDQU64(Mem{Base: el, Disp: k*b + b - 64}, last)
		for h := 0; h < halves; h++ {
			t, z := ZMM(), ZMM()
			VMOVDQU64(fusedGatherTable(ts, h, k), t)
			VPERMB(first, t, z)
			VPERMB(last, t, m.half[h], z)
			rows[h][k] = z
		}
		if merged {
			if k == 0 {
				VPERMB(last, mergeIdx, extra)
			} else {
				cell := K()
				KMOVQ(fusedCellMasks(e).Offset(8*k), cell)
				VPERMB(last, mergeIdx, cell, extra)
			}
		}
	}
	store := func(col int, z reg.VecVirtual) {
		vgf2p8affineqb(z, a.matrix, z)
		VMOVDQU64(z, Mem{Base: st, Disp: 512 * col})
	}
	blendTranspose(rows[0], allNeeded(r), m.cell)
	for s, z := range rows[0] {
		store(s, z)
	}
	if merged {
		store(r, extra)
		return
	}
	need := make([]bool, r)
	for s := range need {
		need[s] = r+s < ts
	}
	blendTranspose(rows[1], need, m.cell)
	for s, z := range rows[1] {
		if need[s] {
			store(r+s, z)
		}
	}
}

// fusedFrontInverse is fusedFrontForward's inverse: the staged columns of
// the sub-block, after the inverse GFNI step, are its byte-shuffled
// streams, unshuffled into the elements at el.
func fusedFrontInverse(a *gfniArgs, ts int, el, st reg.GPVirtual, m *fusedMasks) {
	_, r, _, _ := fusedShape(ts)
	rows := [2][]reg.VecVirtual{make([]reg.VecVirtual, r), make([]reg.VecVirtual, r)}
	for h := range rows {
		for s := range rows[h] {
			col := h*r + s
			if col >= ts {
				continue // no such column: nil, read by nothing
			}
			z := ZMM()
			VMOVDQU64(Mem{Base: st, Disp: 512 * col}, z)
			vgf2p8affineqb(z, a.matrix, z)
			rows[h][s] = z
		}
		blendTranspose(rows[h], allNeeded(r), m.cell)
	}
	Comment("whole 64-byte vectors of elements: unaligned stores that overlap cost twice as much")
	for j := 0; j < ts; j++ {
		srcs, idx, masks := fusedOutput(ts, j, rows)
		t, z := ZMM(), ZMM()
		VMOVDQU64(idx, t)
		VPERMB(srcs[0], t, z)
		for i := 1; i < len(srcs); i++ {
			k := K()
			KMOVQ(masks.Offset(8*i), k)
			VPERMB(srcs[i], t, k, z)
		}
		VMOVDQU64(z, Mem{Base: el, Disp: 64 * j})
	}
}

// fusedOutput returns the vectors that bytes 64j..64j+63 of the sub-block
// come from after the inverse cell transpose (rows[h][w]: set h of window
// w, cell s^w holding column h*r+s in element order; equal registers
// count once), the VPERMB index gathering each byte from its vector, and
// the opmasks of the bytes from vector i at offset 8i.
func fusedOutput(ts, j int, rows [2][]reg.VecVirtual) ([]reg.VecVirtual, Mem, Mem) {
	_, r, e, b := fusedShape(ts)
	var srcs []reg.VecVirtual
	var idx [64]byte
	var from [64]int
	for q := range idx {
		o := 64*j + q
		w, ow := o/b, o%b
		el, col := ow/ts, ow%ts
		z := rows[col/r][w]
		i := 0
		for i < len(srcs) && srcs[i] != z {
			i++
		}
		if i == len(srcs) {
			srcs = append(srcs, z)
		}
		from[q] = i
		idx[q] = byte((col%r^w)*e + el)
	}
	name := fmt.Sprintf("bitshuffleFusedOut%d_%d", ts, j)
	t := table(name, func() { emitBytes(idx[:]) })
	masks := table(name+"m", func() {
		for i := range srcs {
			var bits uint64
			for q, f := range from {
				if f == i {
					bits |= 1 << q
				}
			}
			DATA(8*i, U64(bits))
		}
	})
	return srcs, t, masks
}

// vpblendmq emits VPBLENDMQ y, x, m, out (out = y where m is set, else
// x). avo takes the masked form to merge into out, reading it, which
// would keep every blend's output live from the function's start.
func vpblendmq(y, x reg.VecVirtual, m reg.OpmaskVirtual, out reg.VecVirtual) {
	Instruction(&ir.Instruction{
		Opcode:   "VPBLENDMQ",
		Operands: []Op{y, x, m, out},
		Inputs:   []Op{y, x, m},
		Outputs:  []Op{out},
		ISA:      []string{"AVX512F"},
	})
}

// blendTranspose is a transpose by blends: stage i, with masks[i] the
// positions whose bit i is set, moves the quadwords at those positions of
// every row to the row whose index differs in bit i. The data must be
// placed for it: when row k holds its cell s at position s^k, row s ends
// with row k's cell s at position s^k. (Stage i xors bit i of the row
// index with bit i of the position; the stages commute and each undoes
// itself.) Only the blends that the rows marked in need depend on are
// emitted; a nil row holds nothing anyone reads, and a pair with one gives
// the other row twice without an instruction.
func blendTranspose(rows []reg.VecVirtual, need []bool, masks []reg.OpmaskVirtual) {
	n := len(rows)
	if 1<<len(masks) != n {
		panic("blendTranspose: rows")
	}
	needAfter := make([][]bool, len(masks))
	cur := append([]bool(nil), need...)
	for i := len(masks) - 1; i >= 0; i-- {
		needAfter[i] = cur
		d := 1 << i
		prev := make([]bool, n)
		for j := 0; j < n; j++ {
			if j&d == 0 && (cur[j] || cur[j+d]) {
				prev[j], prev[j+d] = true, true
			}
		}
		cur = prev
	}
	for i, m := range masks {
		d := 1 << i
		for j := 0; j < n; j++ {
			if j&d != 0 {
				continue
			}
			x, y := rows[j], rows[j+d]
			wantLo, wantHi := needAfter[i][j], needAfter[i][j+d]
			switch {
			case !wantLo && !wantHi:
				rows[j], rows[j+d] = nil, nil
			case x == nil:
				rows[j], rows[j+d] = y, y
			case y == nil:
				rows[j], rows[j+d] = x, x
			default:
				var lo, hi reg.VecVirtual
				if wantLo {
					lo = ZMM()
					vpblendmq(y, x, m, lo)
				}
				if wantHi {
					hi = ZMM()
					vpblendmq(x, y, m, hi)
				}
				rows[j], rows[j+d] = lo, hi
			}
		}
	}
}
