//go:build !purego && !noasm && gc

#include "go_asm.h"
#include "textflag.h"

// The fast strategy's loop (Encoder.fast in fast.go) in assembly, every
// step as the Go loop takes it, so the frames are the same. Table
// entries are positions plus base; an entry below base (negative once
// base is taken off, as a 32-bit difference) is from an earlier frame
// and never compared.
//
// Registers throughout: SI buf, DI the table, R9 the hash multiplier,
// CX the hash shift, R11 base, AX ip0. The search uses BX ip2, R8 step,
// R10 nextStep, R12 the 8 bytes at ip2, R13 ip0's hash, R14 the next
// position's, R15 ip0's candidate, DX scratch; the match path reuses
// them. The frame's arguments rep1, rep2, anchor, ilimit, end and cur
// are the loop's other variables.

#define HASH(src, dst) \
	MOVQ  src, dst \
	IMULQ R9, dst \
	SHRQ  CX, dst

// R12 = the end of the match of R12 against R13 (R12 > R13), at most R10.
#define EXTEND(l8, ldiff, l1, ldone) \
l8: \
	LEAQ  8(R12), DX \
	CMPQ  DX, R10 \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
	JMP   l8 \
ldiff: \
	BSFQ  DX, DX \
	SHRQ  $3, DX \
	ADDQ  DX, R12 \
	JMP   ldone \
l1: \
	CMPQ    R12, R10 \
	JGE     ldone \
	MOVBLZX (SI)(R12*1), DX \
	CMPB    DL, (SI)(R13*1) \
	JNE     ldone \
	INCQ    R12 \
	INCQ    R13 \
	JMP     l1 \
ldone:

// func fastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur int)
TEXT ·fastBlockAsm(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), DX
	MOVQ fastCtx_buf(DX), SI
	MOVQ fastCtx_table(DX), DI
	MOVQ fastCtx_mul(DX), R9
	MOVQ fastCtx_shift(DX), CX
	MOVQ fastCtx_base(DX), R11
	MOVQ fastCtx_ip0(DX), AX

outer:
	MOVQ $2, R8
	LEAQ 128(AX), R10
	LEAQ 2(AX), BX
	LEAQ 1(BX), DX
	CMPQ DX, ilimit+32(FP)
	JGE  finish
	HASH((SI)(AX*1), R13)
	HASH(1(SI)(AX*1), R14)
	MOVL    (DI)(R13*4), R15
	SUBL    R11, R15
	MOVLQSX R15, R15

search:
	// ip0: entered, then the repeat offset at ip2, then the candidate.
	LEAL (R11)(AX*1), DX
	MOVL DX, (DI)(R13*4)
	MOVQ (SI)(BX*1), R12
	MOVQ BX, DX
	SUBQ rep1+8(FP), DX
	JLE  cand0
	CMPL R12, (SI)(DX*1)
	JEQ  foundRep

cand0:
	TESTQ R15, R15
	JLT   next0
	MOVL  (SI)(AX*1), DX
	CMPL  DX, (SI)(R15*1)
	JEQ   found0

next0:
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
	MOVLQSX R15, R15
	MOVQ    R14, R13
	IMULQ   R9, R12
	SHRQ    CX, R12
	MOVQ    R12, R14

	// ip0+1.
	INCQ  AX
	INCQ  BX
	LEAL  (R11)(AX*1), DX
	MOVL  DX, (DI)(R13*4)
	TESTQ R15, R15
	JLT   next1
	MOVL  (SI)(AX*1), DX
	CMPL  DX, (SI)(R15*1)
	JEQ   found1

next1:
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
	MOVLQSX R15, R15
	MOVQ    R14, R13
	HASH((SI)(BX*1), R14)
	LEAQ    -1(BX), AX
	LEAQ    (AX)(R8*1), BX
	CMPQ    BX, R10
	JLT     stepped
	INCQ    R8
	ADDQ    $128, R10

stepped:
	LEAQ 1(BX), DX
	CMPQ DX, ilimit+32(FP)
	JLT  search
	JMP  finish

foundRep:
	// The repeat offset at ip2, one byte earlier if that matches too.
	LEAL    1(R11)(AX*1), DX
	MOVL    DX, (DI)(R14*4)
	MOVQ    AX, cur+48(FP)
	MOVQ    BX, AX
	MOVQ    AX, R15
	SUBQ    rep1+8(FP), R15
	MOVQ    $4, R8
	MOVBLZX -1(SI)(AX*1), DX
	CMPB    DL, -1(SI)(R15*1)
	JNE     extend
	DECQ    AX
	DECQ    R15
	INCQ    R8
	JMP     extend

found0:
	LEAL 1(R11)(AX*1), DX
	MOVL DX, (DI)(R14*4)
	JMP  foundCand

found1:
	CMPQ R8, $4
	JGT  foundCand
	LEAL -1(R11)(BX*1), DX
	MOVL DX, (DI)(R14*4)

foundCand:
	// The candidate R15: its offset becomes rep1; back over equal bytes.
	MOVQ AX, cur+48(FP)
	MOVQ rep1+8(FP), DX
	MOVQ DX, rep2+16(FP)
	MOVQ AX, DX
	SUBQ R15, DX
	MOVQ DX, rep1+8(FP)
	MOVQ $4, R8
	MOVQ anchor+24(FP), R10

back:
	CMPQ    AX, R10
	JLE     extend
	TESTQ   R15, R15
	JLE     extend
	MOVBLZX -1(SI)(AX*1), DX
	CMPB    DL, -1(SI)(R15*1)
	JNE     extend
	DECQ    AX
	DECQ    R15
	INCQ    R8
	JMP     back

extend:
	// The match from ip0 (AX) against R15, ml (R8) bytes known.
	MOVQ end+40(FP), R10
	LEAQ (AX)(R8*1), R12
	LEAQ (R15)(R8*1), R13
	EXTEND(ext8, extdiff, ext1, extdone)
	MOVQ R12, R8
	SUBQ AX, R8
	MOVQ AX, DX
	SUBQ R15, DX
	MOVQ DX, R15

	// emit: the literals from anchor to ip0, then the sequence.
	MOVQ c+0(FP), R14
	MOVQ anchor+24(FP), R10
	MOVQ AX, R13
	SUBQ R10, R13
	MOVQ fastCtx_nlits(R14), DX
	ADDQ fastCtx_lits(R14), DX
	CMPQ R13, $16
	JGT  litlong
	LEAQ 16(R10), R12
	CMPQ R12, fastCtx_bufLen(R14)
	JGT  litlong
	MOVOU (SI)(R10*1), X0
	MOVOU X0, (DX)
	ADDQ  R13, DX
	JMP   litdone

litlong:
	LEAQ (SI)(R10*1), R12
	MOVQ R13, BX

lit16:
	CMPQ  BX, $16
	JLT   lit1
	MOVOU (R12), X0
	MOVOU X0, (DX)
	ADDQ  $16, R12
	ADDQ  $16, DX
	SUBQ  $16, BX
	JMP   lit16

lit1:
	TESTQ   BX, BX
	JEQ     litdone
	MOVBLZX (R12), R10
	MOVB    R10, (DX)
	INCQ    R12
	INCQ    DX
	DECQ    BX
	JMP     lit1

litdone:
	SUBQ fastCtx_lits(R14), DX
	MOVQ DX, fastCtx_nlits(R14)
	MOVQ fastCtx_nseqs(R14), DX
	INCQ fastCtx_nseqs(R14)
	SHLQ $4, DX
	ADDQ fastCtx_seqs(R14), DX
	MOVL R13, seq_ll(DX)
	MOVL R8, seq_ml(DX)
	MOVL R15, seq_offset(DX)
	MOVL $0, seq_ofx(DX)
	ADDQ R8, AX
	MOVQ AX, anchor+24(FP)
	CMPQ AX, ilimit+32(FP)
	JGT  outer

	// Enter cur+2 and ip0-2, then take the matches at rep2.
	MOVQ cur+48(FP), DX
	HASH(2(SI)(DX*1), R12)
	LEAL 2(R11)(DX*1), DX
	MOVL DX, (DI)(R12*4)
	HASH(-2(SI)(AX*1), R12)
	LEAL -2(R11)(AX*1), DX
	MOVL DX, (DI)(R12*4)

rep2loop:
	CMPQ AX, ilimit+32(FP)
	JGT  outer
	MOVQ rep2+16(FP), R15
	CMPQ AX, R15
	JLT  outer
	MOVQ AX, R13
	SUBQ R15, R13
	MOVL (SI)(AX*1), DX
	CMPL DX, (SI)(R13*1)
	JNE  outer
	LEAQ 4(AX), R12
	ADDQ $4, R13
	MOVQ end+40(FP), R10
	EXTEND(rext8, rextdiff, rext1, rextdone)
	MOVQ R12, R8
	SUBQ AX, R8
	MOVQ rep1+8(FP), DX
	MOVQ R15, rep1+8(FP)
	MOVQ DX, rep2+16(FP)
	HASH((SI)(AX*1), R12)
	LEAL (R11)(AX*1), DX
	MOVL DX, (DI)(R12*4)
	MOVQ c+0(FP), R14
	MOVQ fastCtx_nseqs(R14), DX
	INCQ fastCtx_nseqs(R14)
	SHLQ $4, DX
	ADDQ fastCtx_seqs(R14), DX
	MOVL $0, seq_ll(DX)
	MOVL R8, seq_ml(DX)
	MOVL R15, seq_offset(DX)
	MOVL $0, seq_ofx(DX)
	ADDQ R8, AX
	MOVQ AX, anchor+24(FP)
	JMP  rep2loop

finish:
	MOVQ c+0(FP), R14
	MOVQ rep1+8(FP), DX
	MOVQ DX, fastCtx_rep1(R14)
	MOVQ rep2+16(FP), DX
	MOVQ DX, fastCtx_rep2(R14)
	MOVQ anchor+24(FP), DX
	MOVQ DX, fastCtx_anchor(R14)
	RET
