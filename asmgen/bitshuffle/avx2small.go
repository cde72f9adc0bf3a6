package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Typesizes 1 and 2 on AVX2 get their own kernels: the general plan
// transposes 8 byte columns of which 7 or 6 are then thrown away. They
// work on superblocks of 512 elements, 8 blocks of 64: each block gives 8
// bytes of each of the 8*ts rows, staged on the stack so that every row
// is written (or, unshuffling, read) 64 bytes at a time; with 8-byte
// accesses the row lines, often a multiple of 4 KiB apart and so in one
// L1 set, were evicted between blocks. Nothing is read or written past the
// superblock.
//
// Shuffle: typesize 2 first splits the elements into a vector of their
// low bytes and one of their high bytes; VPMOVMSKB collects bit 7 of 32
// bytes, and doubling every byte moves the next bit up. Unshuffle, per
// byte column: an 8x8 byte transpose of the rows' quadwords gives, per
// group of 8 elements, one quadword whose byte b is row b's byte, and the
// portable 8x8 bit transpose (shift, xor, mask) runs on every quadword
// lane; typesize 2 then interleaves the two columns.

func genAVX2Small() {
	for _, ts := range []int{1, 2} {
		for _, inverse := range []bool{false, true} {
			genAVX2Bits(ts, inverse)
		}
	}
}

func genAVX2Bits(ts int, inverse bool) {
	{
		sig1 := "func(dst, src []byte, rowLen, blocks int)"
		name := fmt.Sprintf("shuffleAVX2Bits%d", ts)
		if inverse {
			name = fmt.Sprintf("unshuffleAVX2Bits%d", ts)
		}
		TEXT(name, 0, sig1)
		Pragma("noescape")
		Doc(name+fmt.Sprintf(" handles typesize %d in superblocks of 512 elements:", ts), "see the generator.")
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
		r3 := GP64()
		LEAQ(Mem{Base: r1, Index: r1, Scale: 2}, r3)
		bases := []reg.GPVirtual{rows}
		for i := 1; i < 2*ts; i++ {
			p := GP64()
			LEAQ(Mem{Base: bases[i-1], Index: r1, Scale: 4}, p)
			bases = append(bases, p)
		}
		row := func(b int) Mem {
			base := bases[b/4]
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
		// stage[r]: the 64 bytes of row r in this superblock; k walks
		// the 8 blocks' quadwords
		local := AllocLocal(8*ts*64 + 32)
		st, k := GP64(), GP64()
		LEAQ(local, st)
		ADDQ(U8(31), st)
		ANDQ(I32(-32), st)
		srow := func(b int) Mem { return Mem{Base: st, Index: k, Scale: 1, Disp: 64 * b} }
		copyRows := func(in bool) {
			for r := 0; r < 8*ts; r++ {
				for h := 0; h < 2; h++ {
					y := YMM()
					if in {
						VMOVDQU(row(r).Offset(32*h), y)
						VMOVDQU(y, Mem{Base: st, Disp: 64*r + 32*h})
					} else {
						VMOVDQU(Mem{Base: st, Disp: 64*r + 32*h}, y)
						VMOVDQU(y, row(r).Offset(32*h))
					}
				}
			}
		}
		var masks [3]Mem
		if inverse {
			for i, m := range []uint64{0x00AA00AA00AA00AA, 0x0000CCCC0000CCCC, 0x00000000F0F0F0F0} {
				masks[i] = broadcastConst([]string{"bitshuffleT1", "bitshuffleT2", "bitshuffleT3"}[i], m, 32)
			}
		}
		var split reg.VecVirtual
		if ts == 2 && !inverse {
			split = YMM()
			VMOVDQU(table("bitshuffleSplit2", func() {
				var idx [32]byte
				for i := range idx {
					// within each 128-bit lane: low bytes, then high
					j := i % 16
					idx[i] = byte(2*(j%8) + j/8)
				}
				emitBytes(idx[:])
			}), split)
		}
		Label(name + "loop")
		if inverse {
			copyRows(true)
		}
		XORQ(k, k)
		Label(name + "block")
		if !inverse {
			// cols[d][h]: byte d of elements 32h..32h+31
			cols := make([][2]reg.VecVirtual, ts)
			if ts == 1 {
				for h := range cols[0] {
					cols[0][h] = YMM()
					VMOVDQU(Mem{Base: el, Disp: 32 * h}, cols[0][h])
				}
			} else {
				for h := 0; h < 2; h++ {
					lo, hi := YMM(), YMM()
					for i, v := range []reg.VecVirtual{lo, hi} {
						VMOVDQU(Mem{Base: el, Disp: 64*h + 32*i}, v)
						VPSHUFB(split, v, v)
						VPERMQ(U8(0xD8), v, v) // low bytes, then high bytes
					}
					cols[0][h], cols[1][h] = YMM(), YMM()
					VPERM2I128(U8(0x20), hi, lo, cols[0][h])
					VPERM2I128(U8(0x31), hi, lo, cols[1][h])
				}
			}
			for d, c := range cols {
				for b := 7; b >= 0; b-- {
					m0, m1 := GP64(), GP64()
					VPMOVMSKB(c[0], m0.As32())
					VPMOVMSKB(c[1], m1.As32())
					SHLQ(U8(32), m1)
					ORQ(m0, m1)
					MOVQ(m1, srow(8*d+b))
					if b > 0 {
						VPADDB(c[0], c[0], c[0])
						VPADDB(c[1], c[1], c[1])
					}
				}
			}
		} else {
			var out [][2]reg.VecVirtual // per column, elements 0-31 and 32-63
			for d := 0; d < ts; d++ {
				x := make([]reg.VecVirtual, 8)
				for b := range x {
					x[b] = XMM()
					VMOVQ(srow(8*d+b), x[b])
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
				out = append(out, y)
			}
			if ts == 1 {
				VMOVDQU(out[0][0], Mem{Base: el})
				VMOVDQU(out[0][1], Mem{Base: el, Disp: 32})
			} else {
				for h := 0; h < 2; h++ {
					lo, hi := YMM(), YMM()
					VPUNPCKLBW(out[1][h], out[0][h], lo) // elements 0-7, 16-23
					VPUNPCKHBW(out[1][h], out[0][h], hi) // 8-15, 24-31
					VPERM2I128(U8(0x20), hi, lo, out[0][h])
					VPERM2I128(U8(0x31), hi, lo, out[1][h])
					VMOVDQU(out[0][h], Mem{Base: el, Disp: 64 * h})
					VMOVDQU(out[1][h], Mem{Base: el, Disp: 64*h + 32})
				}
			}
		}
		ADDQ(U8(64*ts), el)
		ADDQ(U8(8), k)
		CMPQ(k, U8(64))
		JB(LabelRef(name + "block"))
		if !inverse {
			copyRows(false)
		}
		for _, p := range bases {
			ADDQ(U8(64), p)
		}
		DECQ(n)
		JNZ(LabelRef(name + "loop"))
		VZEROUPPER()
		RET()
	}
}
