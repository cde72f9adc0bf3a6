package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX2 superblock kernels are the AVX-512 ones at half width: 256
// elements (8 sub-blocks of 32), vector b of sub-block sb staged at
// stage[b][sb], and an 8x8 dword transpose of stage[b][*] giving 32-byte
// slices of bit rows 8(j0+d)+b.

func genAVX2Super() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX2Super"
		if inverse {
			name = "unshuffleAVX2Super"
		}
		usesVEX[name] = true
		TEXT(name, 0, sig())
		Pragma("noescape")
		Doc(name+" handles superblocks of 256 elements of any typesize:", "see the generator.")
		a := loadArgs(inverse)
		local := AllocLocal(8*8*32 + 32)
		base := GP64()
		LEAQ(local, base)
		ADDQ(U8(31), base)
		ANDQ(I32(-32), base)
		at := func(b, sb int) Mem { return Mem{Base: base, Disp: b*256 + sb*32} }
		ts24 := GP64()
		LEAQ(Mem{Base: a.ts8, Index: a.ts8, Scale: 2}, ts24)
		var maskMem [3]Mem
		for i, m := range roundMasks {
			maskMem[i] = broadcastConst(fmt.Sprintf("bitshuffleMask%d", i), m, 32)
		}
		q, qq := a.rb, GP64() // rb walks the rows; blockLoop resets it per chunk
		el := a.tmp
		blockLoop(name, a, 32, func() {
			if !inverse {
				for sb := 0; sb < 8; sb++ {
					y := avx2LoadVectors(a, el, ts24)
					transposeVEX(y, maskMem, YMM)
					for b, v := range y {
						VMOVDQU(v, at(b, sb))
					}
					if sb < 7 {
						for i := 0; i < 4; i++ {
							ADDQ(a.ts8, a.jp) // 32 elements on
						}
					}
				}
				Comment("vector d: 32 bytes of bit row 8(j0+d)+b")
				for b := 0; b < 8; b++ {
					v := make([]reg.VecVirtual, 8)
					for sb := range v {
						v[sb] = YMM()
						VMOVDQU(at(b, sb), v[sb])
					}
					v = transposeDwords(v)
					MOVQ(q, qq)
					done := fmt.Sprintf("%sstored%d", name, b)
					for d := 0; d < 8; d++ {
						skipIfDone(a, d, done)
						VMOVDQU(v[d], Mem{Base: qq})
						LEAQ(Mem{Base: qq, Index: a.rowLen, Scale: 8}, qq)
					}
					Label(done)
					ADDQ(a.rowLen, q)
				}
				return
			}
			Comment("vector d: 32 bytes of bit row 8(j0+d)+b; rows past typesize stay zero")
			for b := 0; b < 8; b++ {
				v := make([]reg.VecVirtual, 8)
				for d := range v {
					v[d] = YMM()
					VPXOR(v[d], v[d], v[d])
				}
				MOVQ(q, qq)
				done := fmt.Sprintf("%sloaded%d", name, b)
				for d := 0; d < 8; d++ {
					skipIfDone(a, d, done)
					VMOVDQU(Mem{Base: qq}, v[d])
					LEAQ(Mem{Base: qq, Index: a.rowLen, Scale: 8}, qq)
				}
				Label(done)
				v = transposeDwords(v)
				for sb := range v {
					VMOVDQU(v[sb], at(b, sb))
				}
				ADDQ(a.rowLen, q)
			}
			Comment("stores in address order: later elements repair what earlier ones overran")
			MOVQ(a.jp, el)
			for sb := 0; sb < 8; sb++ {
				y := make([]reg.VecVirtual, 8)
				for b := range y {
					y[b] = YMM()
					VMOVDQU(at(b, sb), y[b])
				}
				transposeVEX(y, maskMem, YMM)
				avx2StoreElements(a, el, y)
			}
		})
	}
}

// avx2LoadVectors builds vector k = [d][g] (byte j0+d of element 8g+k,
// dword d) for the 4 groups at a.jp, using el as the element pointer.
func avx2LoadVectors(a *args, el, ts24 reg.GPVirtual) []reg.VecVirtual {
	y := make([]reg.VecVirtual, 8)
	MOVQ(a.jp, el)
	for k := range y {
		y[k] = YMM()
		x0, x1, x2, x3 := XMM(), XMM(), XMM(), XMM()
		VMOVQ(Mem{Base: el}, x0)
		VMOVQ(Mem{Base: el, Index: a.ts8, Scale: 1}, x1)
		VPUNPCKLBW(x1, x0, x0)
		VMOVQ(Mem{Base: el, Index: a.ts8, Scale: 2}, x2)
		VMOVQ(Mem{Base: el, Index: ts24, Scale: 1}, x3)
		VPUNPCKLBW(x3, x2, x2)
		VPUNPCKHWD(x2, x0, x1)
		VPUNPCKLWD(x2, x0, x0)
		VINSERTI128(U8(1), x1, x0.AsY(), y[k])
		if k < 7 {
			ADDQ(a.ts, el)
		}
	}
	return y
}

// avx2StoreElements writes vectors k = [d][g] back as the 8 bytes from
// column j0 of elements 8g+k, in address order, advancing el past them.
func avx2StoreElements(a *args, el reg.GPVirtual, y []reg.VecVirtual) {
	shuf := table("bitshuffleT4x4", func() {
		for lane := 0; lane < 2; lane++ {
			for i := 0; i < 16; i += 8 {
				var word uint64
				for j := 0; j < 8; j++ {
					p := i + j // output 4g+d takes input 4d+g
					g, d := p/4, p%4
					word |= uint64(4*d+g) << (8 * j)
				}
				DATA(lane*16+i, U64(word))
			}
		}
	})
	pairs := table("bitshufflePairLanes", func() {
		for i, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
			DATA(4*i, U32(v))
		}
	})
	pidx := YMM()
	VMOVDQU(pairs, pidx)
	for k := range y {
		VPSHUFB(shuf, y[k], y[k])
		VPERMD(y[k], pidx, y[k])
	}
	for g := 0; g < 4; g++ {
		for k := range y {
			if g == 2 {
				VEXTRACTI128(U8(1), y[k], y[k].AsX())
			}
			if g%2 == 0 {
				VMOVQ(y[k].AsX(), Mem{Base: el})
			} else {
				VPEXTRQ(U8(1), y[k].AsX(), Mem{Base: el})
			}
			ADDQ(a.ts, el)
		}
	}
}

// transposeDwords transposes 8 vectors as an 8x8 matrix of dwords: result
// vector i dword p is input vector p dword i.
func transposeDwords(r []reg.VecVirtual) []reg.VecVirtual {
	t := make([]reg.VecVirtual, 8)
	for i := 0; i < 8; i += 2 {
		t[i], t[i+1] = YMM(), YMM()
		VPUNPCKLDQ(r[i+1], r[i], t[i])
		VPUNPCKHDQ(r[i+1], r[i], t[i+1])
	}
	// t[0] = r0r1 dwords 0,1 | 4,5; t[1] = 2,3 | 6,7; t[2],t[3] for r2r3 ...
	u := make([]reg.VecVirtual, 8)
	for h := 0; h < 8; h += 4 {
		u[h], u[h+1], u[h+2], u[h+3] = YMM(), YMM(), YMM(), YMM()
		VPUNPCKLQDQ(t[h+2], t[h], u[h])     // d0 | d4 of r[h..h+3]
		VPUNPCKHQDQ(t[h+2], t[h], u[h+1])   // d1 | d5
		VPUNPCKLQDQ(t[h+3], t[h+1], u[h+2]) // d2 | d6
		VPUNPCKHQDQ(t[h+3], t[h+1], u[h+3]) // d3 | d7
	}
	out := make([]reg.VecVirtual, 8)
	for d := 0; d < 4; d++ {
		out[d], out[d+4] = YMM(), YMM()
		VPERM2I128(U8(0x20), u[4+d], u[d], out[d])
		VPERM2I128(U8(0x31), u[4+d], u[d], out[d+4])
	}
	return out
}
