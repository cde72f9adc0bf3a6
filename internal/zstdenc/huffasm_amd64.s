//go:build !purego && !noasm && gc

#include "textflag.h"

// One literal's code into the accumulator: the symbol at off(SI)(BX*1),
// its entry in ce (code | bits<<16).
#define HUF_PUT(off) \
	MOVBLZX off(SI)(BX*1), AX \
	MOVL    (R11)(AX*4), DX \
	MOVWLZX DX, CX \
	SHRL    $16, DX \
	SHLXQ   R9, CX, CX \
	ORQ     CX, R8 \
	ADDQ    DX, R9

// The whole bytes of the accumulator to dst, the rest kept.
#define HUF_FLUSH \
	MOVQ  R8, (DI) \
	MOVQ  R9, CX \
	ANDQ  $-8, CX \
	SHRXQ CX, R8, R8 \
	SHRQ  $3, CX \
	ADDQ  CX, DI \
	ANDQ  $7, R9

// func huffStreamAsm(dst, src *byte, n int, ce *[256]uint32) (pos int, acc, nb uint64)
//
// R8 the accumulator, R9 its bit count, DI where it flushes, SI src, BX
// the literals left, R11 ce; AX, CX, DX scratch. Five codes of at most
// 11 bits go in between flushes, which leave at most 7 bits.
TEXT ·huffStreamAsm(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), BX
	MOVQ ce+24(FP), R11
	XORQ R8, R8
	XORQ R9, R9
	CMPQ BX, $5
	JLT  tail

group:
	HUF_PUT(-1)
	HUF_PUT(-2)
	HUF_PUT(-3)
	HUF_PUT(-4)
	HUF_PUT(-5)
	SUBQ $5, BX
	HUF_FLUSH
	CMPQ BX, $5
	JGE  group

tail:
	TESTQ BX, BX
	JEQ   done
	HUF_PUT(-1)
	DECQ  BX
	JMP   tail

done:
	HUF_FLUSH
	SUBQ dst+0(FP), DI
	MOVQ DI, pos+32(FP)
	MOVQ R8, acc+40(FP)
	MOVQ R9, nb+48(FP)
	RET
