//go:build !purego && !noasm && gc

#include "textflag.h"

// func matchLenTail(buf *byte, a, b, end int) int
//
// How many bytes at buf+a and buf+b agree, stopping at end (a < end,
// b < a): 64 bytes a step with SSE2 (four PCMPEQB, their masks ANDed,
// one PMOVMSKB deciding) while 64 are left, the first unequal byte then
// from the four masks; 8 bytes a step, then one, in the last 64.
// Nothing at or past end is read.
TEXT ·matchLenTail(SB), NOSPLIT, $0-40
	MOVQ buf+0(FP), SI
	MOVQ a+8(FP), R8
	MOVQ b+16(FP), R9
	MOVQ end+24(FP), R10
	LEAQ (SI)(R8*1), DI
	LEAQ (SI)(R9*1), SI
	SUBQ R8, R10
	XORL AX, AX

loop64:
	LEAQ    64(AX), DX
	CMPQ    DX, R10
	JGT     tail8
	MOVOU   (DI)(AX*1), X0
	MOVOU   16(DI)(AX*1), X1
	MOVOU   32(DI)(AX*1), X2
	MOVOU   48(DI)(AX*1), X3
	MOVOU   (SI)(AX*1), X4
	MOVOU   16(SI)(AX*1), X5
	MOVOU   32(SI)(AX*1), X6
	MOVOU   48(SI)(AX*1), X7
	PCMPEQB X4, X0
	PCMPEQB X5, X1
	PCMPEQB X6, X2
	PCMPEQB X7, X3
	MOVOU   X0, X4
	PAND    X1, X4
	MOVOU   X2, X5
	PAND    X3, X5
	PAND    X5, X4
	PMOVMSKB X4, DX
	CMPL    DX, $0xFFFF
	JNE     diff64
	ADDQ    $64, AX
	JMP     loop64

diff64:
	// The masks of the four 16-byte words as 64 bits, a bit set per
	// equal byte; the first clear bit is the first difference.
	PMOVMSKB X0, DX
	PMOVMSKB X1, CX
	SHLQ     $16, CX
	ORQ      CX, DX
	PMOVMSKB X2, CX
	SHLQ     $32, CX
	ORQ      CX, DX
	PMOVMSKB X3, CX
	SHLQ     $48, CX
	ORQ      CX, DX
	NOTQ     DX
	BSFQ     DX, DX
	ADDQ     DX, AX
	MOVQ     AX, ret+32(FP)
	RET

tail8:
	LEAQ 8(AX), DX
	CMPQ DX, R10
	JGT  tail1
	MOVQ (DI)(AX*1), DX
	XORQ (SI)(AX*1), DX
	JNZ  diff8
	ADDQ $8, AX
	JMP  tail8

diff8:
	BSFQ DX, DX
	SHRQ $3, DX
	ADDQ DX, AX
	MOVQ AX, ret+32(FP)
	RET

tail1:
	CMPQ    AX, R10
	JGE     done
	MOVBLZX (DI)(AX*1), DX
	CMPB    DL, (SI)(AX*1)
	JNE     done
	INCQ    AX
	JMP     tail1

done:
	MOVQ AX, ret+32(FP)
	RET
