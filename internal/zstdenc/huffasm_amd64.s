//go:build !purego && !noasm && gc

#include "go_asm.h"
#include "textflag.h"

// One literal's code into the accumulator: the symbol at off(SI)(BX*1),
// its code at (R11)(AX*8) and its length 2048 bytes on (ce's halves).
#define HUF_PUT(off) \
	MOVBLZX off(SI)(BX*1), AX \
	SHLXQ   R9, (R11)(AX*8), CX \
	ORQ     CX, R8 \
	ADDQ    2048(R11)(AX*8), R9

// The whole bytes of the accumulator to dst, the rest kept.
#define HUF_FLUSH \
	MOVQ  R8, (DI) \
	MOVQ  R9, CX \
	ANDQ  $-8, CX \
	SHRXQ CX, R8, R8 \
	SHRQ  $3, CX \
	ADDQ  CX, DI \
	ANDQ  $7, R9

// func huffStreamAsm(dst, src *byte, n int, ce *[512]uint64) (pos int, acc, nb uint64)
//
// R8 the accumulator, R9 its bit count, DI where it flushes, SI src, BX
// the literals left, R11 ce; AX, CX scratch. Five codes of at most
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

// The second stream's code, as HUF_PUT: the symbol at off(R10)(BX*1),
// its bits into R12, their count R13.
#define HUF_PUT2(off) \
	MOVBLZX off(R10)(BX*1), DX \
	SHLXQ   R13, (R11)(DX*8), CX \
	ORQ     CX, R12 \
	ADDQ    2048(R11)(DX*8), R13

// The second stream's flush, as HUF_FLUSH, to R14.
#define HUF_FLUSH2 \
	MOVQ  R12, (R14) \
	MOVQ  R13, CX \
	ANDQ  $-8, CX \
	SHRXQ CX, R12, R12 \
	SHRQ  $3, CX \
	ADDQ  CX, R14 \
	ANDQ  $7, R13

// func huffPairAsm(dstA, dstB, srcA, srcB *byte, n int, ce *[512]uint64, st *huffPair)
//
// Two streams at once, each as huffStreamAsm writes it: the n literals
// at srcA into dstA, the n at srcB into dstB, last first. Each code's
// shift waits on the bit count the code before it left, so one stream
// runs at the speed of that chain; two independent chains fill the
// time. R8, R9, DI the first stream's accumulator, bit count and dst,
// SI its literals; R12, R13, R14, R10 the second's; BX the literals
// left, R11 ce; AX, CX, DX scratch. The bytes written, the accumulators
// and their bit counts go to st.
TEXT ·huffPairAsm(SB), NOSPLIT, $0-56
	MOVQ dstA+0(FP), DI
	MOVQ dstB+8(FP), R14
	MOVQ srcA+16(FP), SI
	MOVQ srcB+24(FP), R10
	MOVQ n+32(FP), BX
	MOVQ ce+40(FP), R11
	XORQ R8, R8
	XORQ R9, R9
	XORQ R12, R12
	XORQ R13, R13
	CMPQ BX, $5
	JLT  pairtail

pairgroup:
	HUF_PUT(-1)
	HUF_PUT2(-1)
	HUF_PUT(-2)
	HUF_PUT2(-2)
	HUF_PUT(-3)
	HUF_PUT2(-3)
	HUF_PUT(-4)
	HUF_PUT2(-4)
	HUF_PUT(-5)
	HUF_PUT2(-5)
	SUBQ $5, BX
	HUF_FLUSH
	HUF_FLUSH2
	CMPQ BX, $5
	JGE  pairgroup

pairtail:
	TESTQ BX, BX
	JEQ   pairdone
	HUF_PUT(-1)
	HUF_PUT2(-1)
	DECQ  BX
	JMP   pairtail

pairdone:
	HUF_FLUSH
	HUF_FLUSH2
	MOVQ st+48(FP), AX
	SUBQ dstA+0(FP), DI
	MOVQ DI, huffPair_posA(AX)
	SUBQ dstB+8(FP), R14
	MOVQ R14, huffPair_posB(AX)
	MOVQ R8, huffPair_accA(AX)
	MOVQ R12, huffPair_accB(AX)
	MOVQ R9, huffPair_nbA(AX)
	MOVQ R13, huffPair_nbB(AX)
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
