package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The split kernels are the GFNI kernels for typesizes 4 and 8, where a
// superblock's 8*ts row lines are 8 or 4 KiB apart at the usual block
// sizes and so share one L1 set. Writing them as one burst (gfniLoop),
// the stores commit several times slower than stores spread over a few
// sets, and unshuffling the loads suffer the same way; moving the stage
// or staggering whole columns did little (see gfniRing). Here the rows of
// one pass fall in four sets instead of one:
//
//   - phase A stages each pair of sub-blocks as separate even-row and
//     odd-row vectors (one two-table permute each, which the shorter
//     transpose of phase B pays back: 4 vectors make 4 rows by a 4x4
//     transpose of 128-bit lanes);
//   - phase B, pass t, writes the even rows of superblock t-1-x and the
//     odd rows of t-2-x, x = 0 for even columns and splitExtra for odd
//     ones, reading them from a ring of 3+splitExtra superblock slots, so
//     no row needs a store of its own to be delayed;
//   - phase A of superblock t runs between the columns of phase B, so the
//     row stores spread over the whole pass.
//
// Unshuffling runs it backwards: pass u reads the rows splitExtra+2
// superblocks ahead of the elements it rebuilds.
//
// Slot layout: column d at 512d, even rows at +0 and odd ones at +256, one
// vector per sub-block pair p at +64p whose 128-bit lane b' holds row
// 2b' (or 2b'+1) of the pair: quadword h of the lane is sub-block 2p+h,
// byte g of it group g.
//
// TestMeasureKernels (bitshuffle/measure_test.go) at 256 KiB on an AMD
// Zen 4 put splitExtra 2 clearly ahead of the kernels these replace for
// typesizes 4 and 8, both ways; splitExtra 0 (two sets) was between, and
// splitExtra 3, column delays d%4, staggering only by column (rings of 2,
// 4, 8) or blending delayed rows into place (VPBLENDMB, rows over 2 or 4
// sets) were no better. With rows 64 bytes further apart (no shared sets)
// the same kernels run faster still, which confirms the sets as the cause.
// Typesize 8 has a second limit that depends on the buffers: for some
// freshly mapped pairs every split form runs at one lower speed. A pass
// touches 64 row pages plus the ring and the input, about what the L1 TLB
// holds, so whether the pages' translations can be merged (physically
// contiguous pages) is the likely cause; not confirmed without a PMU.
var gfniSplit = map[int]int{4: splitExtra, 8: splitExtra}

const splitExtra = 2

// splitStageBytes is the ring the split kernel of typesize ts needs.
func splitStageBytes(ts, extra int) int { return (3 + extra) * ts * 512 }

// tile8Perm is tileTable(8) as a byte permutation: quadword d byte i takes
// byte d of element 7-i.
func tile8Perm() *bytePerm {
	var p bytePerm
	for q := 0; q < 8; q++ {
		for i := 0; i < 8; i++ {
			p[8*q+i] = (7-i)*8 + q
		}
	}
	return &p
}

// untile8Perm inverts tile8Perm after the inverse bit transpose, whose
// tiles come out in forward element order: byte 8k+d takes 8d+k.
func untile8Perm() *bytePerm {
	var p bytePerm
	for d := 0; d < 8; d++ {
		for k := 0; k < 8; k++ {
			p[8*k+d] = 8*d + k
		}
	}
	return &p
}

// tiles8Forward is tilesForward for typesize 8 with the tile-forming byte
// permute folded into the first stage of the quadword transpose (two-table
// permutes of the raw element vectors); the bit transpose, acting on each
// quadword alone, commutes with the quadword moves and comes last. This
// saves 8 of the 40 shuffles per sub-block.
func tiles8Forward(a *gfniArgs, sb int) []reg.VecVirtual {
	v := make([]reg.VecVirtual, 8)
	for g := range v {
		v[g] = ZMM()
		VMOVDQU64(Mem{Base: a.jp, Disp: 512*sb + 64*g}, v[g])
	}
	transposeQwordsPerm(v, tile8Perm(), identityPerm())
	for d := range v {
		vgf2p8affineqb(v[d], a.matrix, v[d])
	}
	return v
}

// tiles8Inverse is tilesInverse for typesize 8, the bit transpose first and
// the untiling permute folded into the last quadword-transpose stage.
func tiles8Inverse(a *gfniArgs, sb int, col func(d int) reg.VecVirtual) {
	v := make([]reg.VecVirtual, 8)
	for d := range v {
		v[d] = col(d)
		vgf2p8affineqb(v[d], a.matrix, v[d])
	}
	transposeQwordsPerm(v, identityPerm(), untile8Perm())
	for g := range v {
		VMOVDQU64(v[g], Mem{Base: a.jp, Disp: 512*sb + 64*g})
	}
}

// lanes4x4 transposes the 128-bit lanes of 4 vectors: lane j of v[i]
// becomes lane i of output j. It is its own inverse.
func lanes4x4(v []reg.VecVirtual) []reg.VecVirtual {
	t := make([]reg.VecVirtual, 4)
	for i, imm := range []uint8{0x44, 0xEE, 0x44, 0xEE} {
		t[i] = ZMM()
		VSHUFI64X2(U8(imm), v[i/2*2+1], v[i/2*2], t[i])
	}
	out := make([]reg.VecVirtual, 4)
	for j := range out {
		out[j] = ZMM()
		imm := uint8(0x88)
		if j%2 == 1 {
			imm = 0xDD
		}
		VSHUFI64X2(U8(imm), t[j/2+2], t[j/2], out[j])
	}
	return out
}

// splitSlots points one register per ring slot at the stage.
func splitSlots(a *gfniArgs, ts, extra int) []reg.GPVirtual {
	slot := make([]reg.GPVirtual, 3+extra)
	for i := range slot {
		slot[i] = GP64()
		LEAQ(Mem{Base: a.stage.Base, Disp: i * ts * 512}, slot[i])
	}
	return slot
}

// splitColumnDelay is x of the overview for column d.
func splitColumnDelay(d, extra int) int { return extra * (d % 2) }

// gfniSplitForward is the split kernel shuffling.
func gfniSplitForward(name string, a *gfniArgs, ts, extra int) {
	t, rowT, q := GP64(), GP64(), GP64()
	slot := splitSlots(a, ts, extra) // superblocks t, t-1, ...
	XORQ(t, t)
	MOVQ(a.dst, rowT) // line t of row 0
	MOVQ(a.src, a.jp)
	split := func(odd int) Mem {
		var idx [64]int
		for p := 0; p < 64; p++ {
			lane, h, g := p/16, p/8%2, p%8
			idx[p] = 64*h + 8*g + 2*lane + odd
		}
		return byteTable(idx)
	}
	phaseA := func(p int) {
		var cols [2][]reg.VecVirtual
		for h := range cols {
			if ts == 8 {
				cols[h] = tiles8Forward(a, 2*p+h)
			} else {
				cols[h] = tilesForward(a, ts, 2*p+h)
			}
		}
		for d := 0; d < ts; d++ {
			for odd := 0; odd < 2; odd++ {
				x := ZMM()
				VMOVDQU64(split(odd), x)
				VPERMI2B(cols[1][d], cols[0][d], x)
				VMOVDQU64(x, Mem{Base: slot[0], Disp: 512*d + 256*odd + 64*p})
			}
		}
	}
	// phaseB writes column d; q walks the rows from column 0 on. With
	// check, rows of superblocks that do not exist are skipped.
	phaseB := func(d int, check bool, label string) {
		if d == 0 {
			MOVQ(rowT, q)
		}
		x := splitColumnDelay(d, extra)
		var rows [2][]reg.VecVirtual
		for odd := range rows {
			v := make([]reg.VecVirtual, 4)
			for p := range v {
				v[p] = ZMM()
				VMOVDQU64(Mem{Base: slot[1+odd+x], Disp: 512*d + 256*odd + 64*p}, v[p])
			}
			rows[odd] = lanes4x4(v)
		}
		for b := 0; b < 8; b++ {
			delay := 1 + b%2 + x
			skip := fmt.Sprintf("%sskip%d_%d", label, d, b)
			if check {
				LEAQ(Mem{Base: t, Disp: -delay}, a.tmp)
				CMPQ(a.tmp, a.blocks)
				JAE(LabelRef(skip)) // also before the first: unsigned wrap
			}
			VMOVDQU64(rows[b%2][b/2], Mem{Base: q, Disp: -64 * delay})
			if check {
				Label(skip)
			}
			ADDQ(a.rowLen, q)
		}
	}
	lag := 2 + extra // passes the last superblock's rows wait
	Label(name + "loop")
	CMPQ(t, U8(lag))
	JB(LabelRef(name + "edge"))
	CMPQ(t, a.blocks)
	JAE(LabelRef(name + "edge"))
	for p := 0; p < 4; p++ {
		phaseA(p)
		for d := p * ts / 4; d < (p+1)*ts/4; d++ {
			phaseB(d, false, name)
		}
	}
	JMP(LabelRef(name + "next"))
	Comment("first and last passes: some rows belong to no superblock")
	Label(name + "edge")
	CMPQ(t, a.blocks)
	JAE(LabelRef(name + "edgeB"))
	for p := 0; p < 4; p++ {
		phaseA(p)
	}
	Label(name + "edgeB")
	for d := 0; d < ts; d++ {
		phaseB(d, true, name+"e")
	}
	Label(name + "next")
	Comment("the oldest slot takes superblock t+1")
	for i := 1; i < len(slot); i++ {
		XCHGQ(slot[0], slot[i])
	}
	INCQ(t)
	ADDQ(U8(64), rowT)
	ADDQ(U32(ts*512), a.jp)
	LEAQ(Mem{Base: a.blocks, Disp: lag}, a.tmp)
	CMPQ(t, a.tmp)
	JB(LabelRef(name + "loop"))
	VZEROUPPER()
	RET()
}

// gfniSplitInverse is the split kernel unshuffling: pass u reads the even
// rows of superblock u-1-extra+x and the odd rows of u-extra+x into their
// slots while phase A rebuilds the elements of superblock u-2-extra.
func gfniSplitInverse(name string, a *gfniArgs, ts, extra int) {
	u, rowT, q, addr := GP64(), GP64(), GP64(), GP64()
	slot := splitSlots(a, ts, extra) // superblocks u-lead, u-lead+1, ...
	lead := 2 + extra
	XORQ(u, u)
	MOVQ(a.dst, rowT) // line u of row 0
	MOVQ(a.src, a.jp)
	SUBQ(U32(lead*ts*512), a.jp) // elements of superblock u-lead, used once it is real
	unsplit := func(h int) Mem {
		var idx [64]int
		for p := 0; p < 64; p++ {
			g, b := p/8, 7-p%8 // tilesInverse takes rows 7..0
			idx[p] = 64*(b%2) + 16*(b/2) + 8*h + g
		}
		return byteTable(idx)
	}
	// phaseB reads column d's rows; with check, rows of superblocks that
	// do not exist are read from the stage instead (any readable bytes).
	phaseB := func(d int, check bool) {
		if d == 0 {
			MOVQ(rowT, q)
		}
		x := splitColumnDelay(d, extra)
		var rows [2][]reg.VecVirtual
		rows[0], rows[1] = make([]reg.VecVirtual, 4), make([]reg.VecVirtual, 4)
		for b := 0; b < 8; b++ {
			k := x - extra - 1 + b%2 // row b of superblock u+k
			v := ZMM()
			if check {
				LEAQ(Mem{Base: q, Disp: 64 * k}, addr)
				LEAQ(Mem{Base: u, Disp: k}, a.tmp)
				CMPQ(a.tmp, a.blocks)
				CMOVQCC(slot[0], addr) // also before the first: unsigned wrap
				VMOVDQU64(Mem{Base: addr}, v)
			} else {
				VMOVDQU64(Mem{Base: q, Disp: 64 * k}, v)
			}
			rows[b%2][b/2] = v
			ADDQ(a.rowLen, q)
		}
		for odd := range rows {
			v := lanes4x4(rows[odd])
			for p := range v {
				VMOVDQU64(v[p], Mem{Base: slot[1+odd+x], Disp: 512*d + 256*odd + 64*p})
			}
		}
	}
	phaseA := func(p int) {
		for h := 0; h < 2; h++ {
			col := func(d int) reg.VecVirtual {
				e, v := ZMM(), ZMM()
				VMOVDQU64(Mem{Base: slot[0], Disp: 512*d + 64*p}, e)
				VMOVDQU64(unsplit(h), v)
				VPERMI2B(Mem{Base: slot[0], Disp: 512*d + 256 + 64*p}, e, v)
				return v
			}
			if ts == 8 {
				tiles8Inverse(a, 2*p+h, col)
			} else {
				tilesInverse(a, ts, 2*p+h, col)
			}
		}
	}
	Label(name + "loop")
	CMPQ(u, U8(lead))
	JB(LabelRef(name + "edge"))
	CMPQ(u, a.blocks)
	JAE(LabelRef(name + "edge"))
	for p := 0; p < 4; p++ {
		for d := p * ts / 4; d < (p+1)*ts/4; d++ {
			phaseB(d, false)
		}
		phaseA(p)
	}
	JMP(LabelRef(name + "next"))
	Comment("first and last passes: some rows or the elements belong to no superblock")
	Label(name + "edge")
	for d := 0; d < ts; d++ {
		phaseB(d, true)
	}
	CMPQ(u, U8(lead))
	JB(LabelRef(name + "next"))
	for p := 0; p < 4; p++ {
		phaseA(p)
	}
	Label(name + "next")
	Comment("the slot just emptied takes the newest superblock")
	for i := len(slot) - 1; i > 0; i-- {
		XCHGQ(slot[0], slot[i])
	}
	INCQ(u)
	ADDQ(U8(64), rowT)
	ADDQ(U32(ts*512), a.jp)
	LEAQ(Mem{Base: a.blocks, Disp: lead}, a.tmp)
	CMPQ(u, a.tmp)
	JB(LabelRef(name + "loop"))
	VZEROUPPER()
	RET()
}
