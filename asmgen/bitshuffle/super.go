package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The superblock kernels run the 64-element plan (gather, byte transpose,
// bit transpose across 8 vectors) on the 8 sub-blocks of a 512-element
// superblock, staging vector b of sub-block sb at stage[b][sb]; a quadword
// transpose of stage[b][*] then yields 64-byte slices of bit rows
// 8(j0+d)+b, so each row gets a whole cache line per superblock.

func genAVX512Super() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX512Super"
		if inverse {
			name = "unshuffleAVX512Super"
		}
		usesVEX[name] = true
		TEXT(name, 0, sig())
		Pragma("noescape")
		Doc(name+" handles superblocks of 512 elements of any typesize:", "see the generator.")
		a := loadArgs(inverse)
		loadTransposeStages()
		stage := alignedStage(a)
		at := func(b, sb int) Mem { return stage.Offset(b*512 + sb*64) }
		masks := [3]reg.VecVirtual{ZMM(), ZMM(), ZMM()}
		for i, m := range roundMasks {
			MOVQ(U64(m), a.tmp)
			VPBROADCASTQ(a.tmp, masks[i])
		}
		perm := ZMM()
		VMOVDQU64(t8x8Table(), perm)
		// avo takes VPXORQ x, x, x as a read of x, which would keep every
		// zeroed register alive across the function: copy one zero instead.
		zero := ZMM()
		VPXORQ(zero, zero, zero)
		idxEl := ZMM()
		k1 := K()
		multiples(a.ts8, idxEl, k1, a.tmp)
		// With a frame the allocator has one general register fewer, so
		// rb itself walks the rows (blockLoop sets it again per chunk).
		q, qq := a.rb, GP64()
		el := a.tmp // free inside the loop body
		blockLoop(name, a, 64, func() {
			if !inverse {
				for sb := 0; sb < 8; sb++ {
					z := make([]reg.VecVirtual, 8)
					MOVQ(a.jp, el)
					for k := range z {
						z[k] = ZMM()
						KXNORW(k1, k1, k1)
						VMOVDQA64(zero, z[k])
						VPGATHERQQ(Mem{Base: el, Index: idxEl, Scale: 1}, k1, z[k])
						VPERMB(z[k], perm, z[k])
						ADDQ(a.ts, el)
					}
					transposeAVX512(z, masks)
					for b, v := range z {
						VMOVDQU64(v, at(b, sb))
					}
					if sb < 7 {
						ADDQ(a.ts8, a.jp) // 64 elements on
						for i := 0; i < 7; i++ {
							ADDQ(a.ts8, a.jp)
						}
					}
				}
				Comment("vector d: 64 bytes of bit row 8(j0+d)+b")
				for b := 0; b < 8; b++ {
					v := make([]reg.VecVirtual, 8)
					for sb := range v {
						v[sb] = ZMM()
						VMOVDQU64(at(b, sb), v[sb])
					}
					transposeQwords(v)
					MOVQ(q, qq)
					done := fmt.Sprintf("%sstored%d", name, b)
					for d := 0; d < 8; d++ {
						skipIfDone(a, d, done)
						VMOVDQU64(v[d], Mem{Base: qq})
						ADDQ(a.row8, qq)
					}
					Label(done)
					ADDQ(a.rowLen, q)
				}
				return
			}
			Comment("vector d: 64 bytes of bit row 8(j0+d)+b; rows past typesize stay zero")
			for b := 0; b < 8; b++ {
				v := make([]reg.VecVirtual, 8)
				for d := range v {
					v[d] = ZMM()
					VMOVDQA64(zero, v[d])
				}
				MOVQ(q, qq)
				done := fmt.Sprintf("%sloaded%d", name, b)
				for d := 0; d < 8; d++ {
					skipIfDone(a, d, done)
					VMOVDQU64(Mem{Base: qq}, v[d])
					ADDQ(a.row8, qq)
				}
				Label(done)
				transposeQwords(v)
				for sb := range v {
					VMOVDQU64(v[sb], at(b, sb))
				}
				ADDQ(a.rowLen, q)
			}
			Comment("stores in address order: later elements repair what earlier ones overran")
			MOVQ(a.jp, el)
			for sb := 0; sb < 8; sb++ {
				z := make([]reg.VecVirtual, 8)
				for b := range z {
					z[b] = ZMM()
					VMOVDQU64(at(b, sb), z[b])
				}
				transposeAVX512(z, masks)
				for k := range z {
					VPERMB(z[k], perm, z[k])
				}
				x := make([]reg.VecVirtual, 8)
				for g := 0; g < 8; g++ {
					for k := 0; k < 8; k++ {
						if g%2 == 0 {
							x[k] = XMM()
							VEXTRACTI32X4(U8(g/2), z[k], x[k])
							VMOVQ(x[k], Mem{Base: el})
						} else {
							VPEXTRQ(U8(1), x[k], Mem{Base: el})
						}
						ADDQ(a.ts, el)
					}
				}
			}
		})
	}
}
