package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Typesize 1 on AVX2 gets its own kernels: the general plan transposes 8
// byte columns of which 7 are then thrown away. Blocks are 64 elements,
// 8 bytes of each of the 8 rows, so every row takes whole quadword stores
// and nothing is read or written past the block.
//
// Shuffle: VPMOVMSKB collects bit 7 of 32 bytes; doubling every byte moves
// the next bit up. Unshuffle: an 8x8 byte transpose of the rows' quadwords
// gives, per group of 8 elements, one quadword whose byte b is row b's
// byte, and the portable 8x8 bit transpose (shift, xor, mask) runs on
// every quadword lane.

func genAVX2Bits1() {
	sig1 := "func(dst, src []byte, rowLen, blocks int)"
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX2Bits1"
		if inverse {
			name = "unshuffleAVX2Bits1"
		}
		TEXT(name, NOSPLIT, sig1)
		Pragma("noescape")
		Doc(name+" handles typesize 1 in blocks of 64 elements:", "see the generator.")
		el, rows, r1, n := GP64(), GP64(), GP64(), GP64()
		if inverse {
			Load(Param("dst").Base(), el)
			Load(Param("src").Base(), rows)
		} else {
			Load(Param("src").Base(), el)
			Load(Param("dst").Base(), rows)
		}
		Load(Param("rowLen"), r1)
		Load(Param("blocks"), n)
		r3, p4 := GP64(), GP64()
		LEAQ(Mem{Base: r1, Index: r1, Scale: 2}, r3)
		LEAQ(Mem{Base: rows, Index: r1, Scale: 4}, p4)
		row := func(b int) Mem {
			base := rows
			if b >= 4 {
				base = p4
			}
			switch b % 4 {
			case 1:
				return Mem{Base: base, Index: r1, Scale: 1}
			case 2:
				return Mem{Base: base, Index: r1, Scale: 2}
			case 3:
				return Mem{Base: base, Index: r3, Scale: 1}
			}
			return Mem{Base: base}
		}
		var masks [3]Mem
		if inverse {
			for i, m := range []uint64{0x00AA00AA00AA00AA, 0x0000CCCC0000CCCC, 0x00000000F0F0F0F0} {
				masks[i] = broadcastConst([]string{"bitshuffleT1", "bitshuffleT2", "bitshuffleT3"}[i], m, 32)
			}
		}
		Label(name + "loop")
		if !inverse {
			y0, y1 := YMM(), YMM()
			VMOVDQU(Mem{Base: el}, y0)
			VMOVDQU(Mem{Base: el, Disp: 32}, y1)
			for b := 7; b >= 0; b-- {
				m0, m1 := GP64(), GP64()
				VPMOVMSKB(y0, m0.As32())
				VPMOVMSKB(y1, m1.As32())
				SHLQ(U8(32), m1)
				ORQ(m0, m1)
				MOVQ(m1, row(b))
				if b > 0 {
					VPADDB(y0, y0, y0)
					VPADDB(y1, y1, y1)
				}
			}
		} else {
			x := make([]reg.VecVirtual, 8)
			for b := range x {
				x[b] = XMM()
				VMOVQ(row(b), x[b])
			}
			// [m][b] pairs, then quads, then all 8 rows per group m
			p := make([]reg.VecVirtual, 4)
			for i := range p {
				p[i] = XMM()
				VPUNPCKLBW(x[2*i+1], x[2*i], p[i])
			}
			wlo0, whi0, wlo1, whi1 := XMM(), XMM(), XMM(), XMM()
			VPUNPCKLWD(p[1], p[0], wlo0) // groups 0-3, rows 0-3
			VPUNPCKHWD(p[1], p[0], whi0) // groups 4-7, rows 0-3
			VPUNPCKLWD(p[3], p[2], wlo1) // groups 0-3, rows 4-7
			VPUNPCKHWD(p[3], p[2], whi1)
			q := [4]reg.VecVirtual{XMM(), XMM(), XMM(), XMM()}
			VPUNPCKLDQ(wlo1, wlo0, q[0]) // groups 0, 1
			VPUNPCKHDQ(wlo1, wlo0, q[1]) // groups 2, 3
			VPUNPCKLDQ(whi1, whi0, q[2]) // groups 4, 5
			VPUNPCKHDQ(whi1, whi0, q[3]) // groups 6, 7
			y := [2]reg.VecVirtual{YMM(), YMM()}
			VINSERTI128(U8(1), q[1], q[0].AsY(), y[0])
			VINSERTI128(U8(1), q[3], q[2].AsY(), y[1])
			for r, s := range []uint64{7, 14, 28} {
				for _, v := range y {
					t := YMM()
					VPSRLQ(U8(s), v, t)
					VPXOR(v, t, t)
					VPAND(masks[r], t, t)
					VPXOR(t, v, v)
					VPSLLQ(U8(s), t, t)
					VPXOR(t, v, v)
				}
			}
			VMOVDQU(y[0], Mem{Base: el})
			VMOVDQU(y[1], Mem{Base: el, Disp: 32})
		}
		ADDQ(U8(64), el)
		ADDQ(U8(8), rows)
		ADDQ(U8(8), p4)
		DECQ(n)
		JNZ(LabelRef(name + "loop"))
		VZEROUPPER()
		RET()
	}
}
