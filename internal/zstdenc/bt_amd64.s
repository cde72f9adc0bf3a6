//go:build !purego && !noasm && gc

#include "textflag.h"

// func dubtSortAsm(bt *uint32, buf *byte, cur, end, nb, btLow int, base uint32, bmask int)
//
// dubtSort's walk (ZSTD_insertDUBT1), step for step:
//   AX m, the candidate          BX es, CX el (where the common
//   DX end                       prefixes with the bounds end)
//   SI buf, DI cur               R8 bt
//   R9 the candidate's node      R10 its two children (one load)
//   R11 a, the compare's end     R12 buf + m - cur
//   R13 the smaller slot         R14 the larger slot (pointers)
//   R15 scratch
TEXT ·dubtSortAsm(SB), NOSPLIT, $0-64
	MOVQ bt+0(FP), R8
	MOVQ buf+8(FP), SI
	MOVQ cur+16(FP), DI
	MOVQ end+24(FP), DX
	MOVQ bmask+56(FP), R9
	ANDQ DI, R9
	LEAQ (R8)(R9*8), R13
	LEAQ 4(R13), R14
	MOVL (R13), AX
	SUBL base+48(FP), AX
	MOVLQSX AX, AX
	MOVQ DI, BX
	MOVQ DI, CX
	CMPQ nb+32(FP), $0
	JLE  done

loop:
	TESTQ AX, AX
	JLE   done
	MOVQ  bmask+56(FP), R9
	ANDQ  AX, R9
	LEAQ  (R8)(R9*8), R9
	MOVQ  (R9), R10
	MOVQ  BX, R11
	CMPQ  CX, R11
	CMOVQLT CX, R11
	LEAQ  (SI)(AX*1), R12
	SUBQ  DI, R12

cmp16:
	LEAQ 16(R11), R15
	CMPQ R15, DX
	JGT  tail8
	MOVQ (SI)(R11*1), R15
	XORQ (R12)(R11*1), R15
	JNZ  diff0
	MOVQ 8(SI)(R11*1), R15
	XORQ 8(R12)(R11*1), R15
	JNZ  diff8
	ADDQ $16, R11
	JMP  cmp16

diff8:
	ADDQ $8, R11

diff0:
	BSFQ R15, R15
	SHRQ $3, R15
	ADDQ R15, R11
	JMP  decide

tail8:
	LEAQ 8(R11), R15
	CMPQ R15, DX
	JGT  tail1
	MOVQ (SI)(R11*1), R15
	CMPQ R15, (R12)(R11*1)
	JNE  tail1
	ADDQ $8, R11
	JMP  tail8

tail1:
	// Equal up to the end: its side is unknown; drop the rest.
	CMPQ    R11, DX
	JGE     done
	MOVBLZX (SI)(R11*1), R15
	CMPB    R15, (R12)(R11*1)
	JNE     decide
	INCQ    R11
	JMP     tail1

decide:
	MOVBLZX (R12)(R11*1), R15
	CMPB    R15, (SI)(R11*1)
	JCC     largerSide

	// The candidate is smaller: it fills the smaller slot, and its
	// larger child is the next.
	MOVL base+48(FP), R15
	ADDL AX, R15
	MOVL R15, (R13)
	MOVQ R11, BX
	CMPQ AX, btLow+40(FP)
	JLE  smallerOut
	LEAQ 4(R9), R13
	SHRQ $32, R10
	MOVL R10, AX
	SUBL base+48(FP), AX
	MOVLQSX AX, AX
	DECQ nb+32(FP)
	JGT  loop
	JMP  done

largerSide:
	MOVL base+48(FP), R15
	ADDL AX, R15
	MOVL R15, (R14)
	MOVQ R11, CX
	CMPQ AX, btLow+40(FP)
	JLE  largerOut
	MOVQ R9, R14
	MOVL R10, AX
	SUBL base+48(FP), AX
	MOVLQSX AX, AX
	DECQ nb+32(FP)
	JGT  loop

done:
	MOVL $0, (R13)
	MOVL $0, (R14)
	RET

smallerOut:
	MOVL $0, (R14)
	RET

largerOut:
	MOVL $0, (R13)
	RET

