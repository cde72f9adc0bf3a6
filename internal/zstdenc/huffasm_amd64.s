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

// Four bytes of AX (or BX) counted: the low two, then the next two.
#define HIST_WORD(r, rl, rh) \
	MOVBLZX rl, DX \
	MOVBLZX rh, CX \
	INCL    (DI)(DX*4) \
	INCL    1024(DI)(CX*4) \
	SHRQ    $16, r \
	MOVBLZX rl, DX \
	MOVBLZX rh, CX \
	INCL    2048(DI)(DX*4) \
	INCL    3072(DI)(CX*4)

// func histAsm(t *[4][256]uint32, src *byte, n int)
//
// Adds the n bytes at src (n a multiple of 16) to the four tables,
// byte i to table i%4. SI src, R8 its end, DI t, AX and BX the bytes,
// CX and DX their indexes. Two 8-byte loads a turn: a load and the
// loop's steps per byte cost more than picking bytes out of a word.
TEXT ·histAsm(SB), NOSPLIT, $0-24
	MOVQ t+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R8
	ADDQ SI, R8
	CMPQ SI, R8
	JAE  histdone

histloop:
	MOVQ (SI), AX
	MOVQ 8(SI), BX
	ADDQ $16, SI
	HIST_WORD(AX, AL, AH)
	SHRQ $16, AX
	HIST_WORD(AX, AL, AH)
	HIST_WORD(BX, BL, BH)
	SHRQ $16, BX
	HIST_WORD(BX, BL, BH)
	CMPQ SI, R8
	JB   histloop

histdone:
	RET
