//go:build !purego && !noasm && gc

#include "textflag.h"

// func decodeFast(dst, src []byte, si, di int, table *[17][16]byte) (nextSi, nextDi int)
//
// Registers:
//	SI	the input position; R14 it at the current token
//	DI	the output position; R15 it at the current token
//	R9	the table of shortOffsetTable
//	R10	the last token position of the loop (src's end - 32)
//	R13	src's end - 4: a match's length bytes may not pass it
//	R12	dst's start, R11 the last output position of the loop (end-64)
//	AX	the token, then the match length
//	BX	the literal length, then the match's end
//	CX	the offset
//	R8	the match's start
//	DX, X0, X1	scratch
//
// At a token SI <= R10 and DI <= R11: the 16 bytes read for fewer than 15
// literals end before src's last 15, the offset follows within src, and a
// match of up to 18 bytes after them leaves 32 bytes of dst for the wide
// copies' overshoot. Every other sequence is checked against those limits
// before it writes anything that matters, or left to the Go loop: the
// positions return to the token (bail) and the Go loop decodes it.
TEXT ·decodeFast(SB), NOSPLIT, $0-88
	MOVQ dst_base+0(FP), R12
	MOVQ dst_len+8(FP), R11
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R10
	LEAQ -4(SI)(R10*1), R13
	LEAQ -32(SI)(R10*1), R10
	LEAQ -64(R12)(R11*1), R11
	ADDQ si+48(FP), SI
	MOVQ di+56(FP), DI
	ADDQ R12, DI
	MOVQ table+64(FP), R9
	PCALIGN $32

loop:
	CMPQ SI, R10
	JHI  done
	CMPQ DI, R11
	JHI  done
	MOVBLZX (SI), AX
	MOVQ SI, R14
	MOVQ DI, R15
	MOVL AX, BX
	SHRL $4, BX
	CMPL BX, $15
	JEQ  longLiterals
	// Fewer than 15 literals: one 16-byte move. The next position in
	// src comes from the token's in one step, the loop's longest chain.
	MOVOU   1(SI), X0
	MOVOU   X0, (DI)
	MOVWQZX 1(SI)(BX*1), CX
	LEAQ    3(SI)(BX*1), SI
	ADDQ    BX, DI

matchLength:
	ANDL $15, AX
	CMPL AX, $15
	JEQ  longMatch
	ADDL $4, AX
	MOVQ DI, R8
	SUBQ CX, R8
	CMPQ R8, R12
	JCS  bail
	CMPQ CX, $16
	JCS  shortOffset
	// Offset 16 or more: the match's first 16 bytes are written before
	// the next 16 are read.
	MOVOU (R8), X1
	MOVOU X1, (DI)
	CMPL AX, $16
	JHI  match18
	ADDQ AX, DI
	JMP  loop

match18:
	MOVOU 16(R8), X1
	MOVOU X1, 16(DI)
	ADDQ AX, DI
	JMP  loop

shortOffset:
	TESTQ CX, CX
	JEQ   bail
	LEAQ  (DI)(AX*1), BX

	// The match at R8 with offset CX < 16 ends at BX: its first CX bytes,
	// shuffled by the table's row CX into the 16 bytes their repeats
	// start with, are stored at DI and then every step bytes, the
	// table's last row: the multiple of CX that fits in 16.
expand:
	MOVQ   CX, DX
	SHLQ   $4, DX
	MOVOU  (R8), X0
	PSHUFB (DX)(R9*1), X0
	MOVBQZX 256(CX)(R9*1), DX

	// Two stores a step: a long run (zeros at offset 1 in a shuffled
	// stream of sparse data) takes half the branches. The second store
	// ends before BX+32, within the room the loop's limits leave.
repeat:
	MOVOU X0, (DI)
	MOVOU X0, (DI)(DX*1)
	LEAQ  (DI)(DX*2), DI
	CMPQ  DI, BX
	JCS   repeat
	MOVQ  BX, DI
	JMP   loop

	// The match at R8 ends at BX, 16 bytes or more back from DI.
copy16:
	MOVOU (R8), X0
	MOVOU X0, (DI)
	ADDQ  $16, R8
	ADDQ  $16, DI
	CMPQ  DI, BX
	JCS   copy16

matchDone:
	MOVQ BX, DI
	JMP  loop

longLiterals:
	INCQ SI

literalRun:
	// The length bytes, none of them past R10.
	CMPQ    SI, R10
	JHI     bail
	MOVBLZX (SI), DX
	INCQ    SI
	ADDQ    DX, BX
	CMPL    DX, $255
	JEQ     literalRun
	// The literals must end by R10 in src and R11 in dst.
	LEAQ    (SI)(BX*1), DX
	CMPQ    DX, R10
	JHI     bail
	LEAQ    (DI)(BX*1), R8
	CMPQ    R8, R11
	JHI     bail

copyLiterals:
	MOVOU (SI), X0
	MOVOU X0, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	CMPQ  DI, R8
	JCS   copyLiterals
	MOVWQZX (DX), CX
	LEAQ  2(DX), SI
	MOVQ  R8, DI
	JMP   matchLength

longMatch:
	// The length bytes: C rejects a run that passes R13.
	MOVBLZX (SI), DX
	INCQ    SI
	CMPQ    SI, R13
	JHI     bail
	ADDQ    DX, AX
	CMPL    DX, $255
	JEQ     longMatch
	ADDQ    $4, AX
	TESTQ   CX, CX
	JEQ     bail
	MOVQ    DI, R8
	SUBQ    CX, R8
	CMPQ    R8, R12
	JCS     bail
	// The match must end by R11, leaving room for the overshoot.
	LEAQ    (DI)(AX*1), BX
	CMPQ    BX, R11
	JHI     bail
	CMPQ    CX, $16
	JCS     expand
	// Offset 32 or more and up to 32 bytes, the common long match: two
	// moves of 16 bytes, without the loop's mispredicted exit.
	CMPQ    CX, $32
	JCS     copy16
	CMPQ    AX, $32
	JHI     copy16
	MOVOU   (R8), X0
	MOVOU   16(R8), X1
	MOVOU   X0, (DI)
	MOVOU   X1, 16(DI)
	MOVQ    BX, DI
	JMP     loop

bail:
	MOVQ R14, SI
	MOVQ R15, DI

done:
	SUBQ src_base+24(FP), SI
	SUBQ R12, DI
	MOVQ SI, nextSi+72(FP)
	MOVQ DI, nextDi+80(FP)
	RET
