//go:build !purego && !noasm && gc

#include "go_asm.h"
#include "textflag.h"

// One FSE state's bits and transition, encodeSequences' put and state
// update: k = (state + tt[sym].deltaNbBits) >> 16 bits of the state go
// into the accumulator, and the next state is
// states[(state >> k) + tt[sym].deltaFind & 511]. sym is in AX; CX and
// DX are scratch.
#define FSE_ENCODE(state, table) \
	MOVL    (fseCTable_tt+0)(table)(AX*8), DX \
	ADDL    state, DX \
	SHRL    $16, DX \
	BZHIQ   DX, state, CX \
	SHLXQ   R9, CX, CX \
	ORQ     CX, R8 \
	ADDQ    DX, R9 \
	SHRXL   DX, state, CX \
	ADDL    (fseCTable_tt+4)(table)(AX*8), CX \
	ANDL    $511, CX \
	MOVWLZX fseCTable_states(table)(CX*2), state

// The whole bytes of the accumulator to dst, the rest kept.
#define FLUSH \
	MOVQ  R8, (DI) \
	MOVQ  R9, CX \
	ANDQ  $-8, CX \
	SHRXQ CX, R8, R8 \
	SHRQ  $3, CX \
	ADDQ  CX, DI \
	ANDQ  $7, R9

// func encodeSeqsAsm(dst *byte, seqs *seq, lc, oc, mc *uint8, ll, of, ml *fseCTable, b *seqBits, last int, llBits, mlBits *[64]uint8)
//
// R8 the accumulator, R9 its bit count, DI where it flushes, R10, R11,
// R12 the offset, match length and literal length states, R13, R14, R15
// their tables, SI the sequence, BX its index; AX the code, CX and DX
// scratch. The code slices and extra-bit tables stay in the frame.
TEXT ·encodeSeqsAsm(SB), NOSPLIT, $0-96
	MOVQ b+64(FP), AX
	MOVQ seqBits_acc(AX), R8
	MOVQ seqBits_nb(AX), R9
	MOVQ dst+0(FP), DI
	ADDQ seqBits_pos(AX), DI
	MOVQ seqBits_vof(AX), R10
	MOVQ seqBits_vml(AX), R11
	MOVQ seqBits_vll(AX), R12
	MOVQ of+48(FP), R13
	MOVQ ml+56(FP), R14
	MOVQ ll+40(FP), R15
	MOVQ last+72(FP), BX
	MOVQ BX, SI
	SHLQ $4, SI
	ADDQ seqs+8(FP), SI

loop:
	MOVQ    oc+24(FP), AX
	MOVBLZX (AX)(BX*1), AX
	ANDL    $63, AX
	FSE_ENCODE(R10, R13)
	MOVQ    mc+32(FP), AX
	MOVBLZX (AX)(BX*1), AX
	ANDL    $63, AX
	FSE_ENCODE(R11, R14)
	MOVQ    lc+16(FP), AX
	MOVBLZX (AX)(BX*1), AX
	ANDL    $63, AX
	FSE_ENCODE(R12, R15)

	// The literal length's extra bits, its low DX bits.
	MOVQ    llBits+80(FP), DX
	MOVBLZX (DX)(AX*1), DX
	MOVL    seq_ll(SI), CX
	BZHIQ   DX, CX, CX
	SHLXQ   R9, CX, CX
	ORQ     CX, R8
	ADDQ    DX, R9

	// The match length's and the offset's, DX and AX bits: a flush
	// before them only when they would not fit the accumulator (at
	// most 63 bits, so that a flush's shift empties it), as libzstd
	// flushes once a sequence unless the extra bits are long. The
	// bytes written are the same either way.
	MOVQ    mc+32(FP), AX
	MOVBLZX (AX)(BX*1), AX
	ANDL    $63, AX
	MOVQ    mlBits+88(FP), DX
	MOVBLZX (DX)(AX*1), DX
	MOVQ    oc+24(FP), AX
	MOVBLZX (AX)(BX*1), AX
	ANDL    $63, AX
	LEAQ    (R9)(DX*1), CX
	ADDQ    AX, CX
	CMPQ    CX, $63
	JLE     extra
	FLUSH

extra:
	// The match length's, the low DX bits of the length less 3.
	MOVL  seq_ml(SI), CX
	SUBL  $3, CX
	BZHIQ DX, CX, CX
	SHLXQ R9, CX, CX
	ORQ   CX, R8
	ADDQ  DX, R9
	MOVL  seq_ofx(SI), CX
	SHLXQ R9, CX, CX
	ORQ   CX, R8
	ADDQ  AX, R9
	FLUSH

	SUBQ $16, SI
	DECQ BX
	JGE  loop

	MOVQ b+64(FP), AX
	MOVQ R8, seqBits_acc(AX)
	MOVQ R9, seqBits_nb(AX)
	SUBQ dst+0(FP), DI
	MOVQ DI, seqBits_pos(AX)
	MOVQ R10, seqBits_vof(AX)
	MOVQ R11, seqBits_vml(AX)
	MOVQ R12, seqBits_vll(AX)
	RET

// The repeat offset choice of the offset in AX, branch-free: DX its
// value (the first repeat code it equals, or the offset plus 3), R8,
// R9, R10 moved as the decoder moves them. The offsets repeat codes 1,
// 2, 3 name are r0, r1, r2 after literals, r1, r2, r0-1 without; BX
// then 1 for r0 again (nothing moves), 2 for r1 (it swaps with r0),
// more for the rest (r0 goes in front of the others).
#define REPCHOICE \
	MOVL    R8, R11 \
	MOVL    R9, R12 \
	MOVL    R10, R13 \
	LEAL    -1(R8), DX \
	XORL    BX, BX \
	TESTL   $0xFFFFFFFF, seq_ll(SI) \
	CMOVLEQ R9, R11 \
	CMOVLEQ R10, R12 \
	CMOVLEQ DX, R13 \
	SETEQ   BL \
 \
	LEAL    3(AX), DX \
	MOVL    $3, CX \
	CMPL    AX, R13 \
	CMOVLEQ CX, DX \
	MOVL    $2, CX \
	CMPL    AX, R12 \
	CMOVLEQ CX, DX \
	MOVL    $1, CX \
	CMPL    AX, R11 \
	CMOVLEQ CX, DX \
 \
	ADDL    DX, BX \
	CMPL    BX, $2 \
	CMOVLHI R9, R10 \
	CMPL    BX, $1 \
	CMOVLNE R8, R9 \
	MOVL    AX, R8

// The offset code (the top bit of DX, its extra bits the rest), the
// literal length code (from a table below 64, from the top bit above)
// and the match length code (of the length less 3), each stored and
// counted; then the next sequence.
#define CODES(lbig, ldone, mbig, mdone) \
	BSRL DX, AX \
	BTCL AX, DX \
	MOVL DX, seq_ofx(SI) \
	MOVQ oc+24(FP), R12 \
	MOVB AL, (R12)(DI*1) \
	INCL 256(R14)(AX*4) \
 \
	MOVL seq_ll(SI), CX \
	CMPL CX, $64 \
	JAE  lbig \
	MOVBLZX seqCodeTables_llSmall(R15)(CX*1), AX \
	JMP  ldone \
 \
lbig: \
	BSRL CX, AX \
	ADDL $19, AX \
	ANDL $63, AX \
 \
ldone: \
	MOVQ lc+16(FP), R11 \
	MOVB AL, (R11)(DI*1) \
	INCL (R14)(AX*4) \
 \
	MOVL seq_ml(SI), CX \
	SUBL $3, CX \
	CMPL CX, $128 \
	JAE  mbig \
	MOVBLZX seqCodeTables_mlSmall(R15)(CX*1), AX \
	JMP  mdone \
 \
mbig: \
	BSRL CX, AX \
	ADDL $36, AX \
	ANDL $63, AX \
 \
mdone: \
	MOVQ mc+32(FP), R13 \
	MOVB AL, (R13)(DI*1) \
	INCL 512(R14)(AX*4) \
 \
	ADDQ $16, SI \
	INCQ DI

// func seqCodesAsm(seqs *seq, n int, lc, oc, mc *uint8, counts *[3][64]uint32, r *[3]uint32, tabs *seqCodeTables, hits int)
//
// SI the sequence, DI its index, R8, R9, R10 the repeat offsets, R14
// the counts, R15 tabs; AX, BX, CX, DX, R11, R12, R13 scratch; hits is
// the function's own slot. The repeat offset choice is branch-free
// (conditional moves, REPCHOICE): whether a sequence has literals is
// as good as random on noisy data, and a mispredicted branch a
// sequence cost more than the moves. Only whether the offset is a
// repeat candidate at all is a branch (see cloop).
TEXT ·seqCodesAsm(SB), NOSPLIT, $0-72
	MOVQ seqs+0(FP), SI
	MOVQ counts+40(FP), R14
	MOVQ tabs+56(FP), R15
	MOVQ r+48(FP), AX
	MOVL 0(AX), R8
	MOVL 4(AX), R9
	MOVL 8(AX), R10
	XORQ DI, DI

	// hits counts the sequences whose offset is a repeat candidate.
	MOVQ $0, hits+64(FP)

cloop:
	// An offset none of r0, r1, r2 and r0-1 is new whether the
	// sequence has literals or not: it goes in front of the repeat
	// offsets without the choice, whose conditional moves make each
	// sequence wait on the one before. Where few offsets are repeat
	// candidates (text: 1%) the four branches are seldom taken; where
	// more are (timestamps_i64 64%, sparse_f64 91%), they mispredict,
	// and once more than a 16th of the sequences so far (and four)
	// were, the rest of the block goes through the choice alone
	// (rloop).
	MOVL seq_offset(SI), AX
	CMPL AX, R8
	JEQ  chit
	CMPL AX, R9
	JEQ  chit
	CMPL AX, R10
	JEQ  chit
	LEAL -1(R8), DX
	CMPL AX, DX
	JEQ  chit
	LEAL 3(AX), DX
	MOVL R9, R10
	MOVL R8, R9
	MOVL AX, R8
	CODES(nllbig, nlldone, nmlbig, nmldone)
	CMPQ DI, n+8(FP)
	JLT  cloop
	JMP  cdone

chit:
	MOVQ hits+64(FP), CX
	INCQ CX
	MOVQ CX, hits+64(FP)
	SHLQ $4, CX
	SUBQ $64, CX
	CMPQ CX, DI
	JGT  rloop
	REPCHOICE
	CODES(hllbig, hlldone, hmlbig, hmldone)
	CMPQ DI, n+8(FP)
	JLT  cloop
	JMP  cdone

rloop:
	MOVL seq_offset(SI), AX
	REPCHOICE
	CODES(rllbig, rlldone, rmlbig, rmldone)
	CMPQ DI, n+8(FP)
	JLT  rloop

cdone:
	MOVQ r+48(FP), AX
	MOVL R8, 0(AX)
	MOVL R9, 4(AX)
	MOVL R10, 8(AX)
	RET
