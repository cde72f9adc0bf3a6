//go:build !purego && !noasm && gc

#include "go_asm.h"
#include "textflag.h"

// The fast strategy's loop (Encoder.fast in fast.go) in assembly, every
// step as the Go loop takes it, so the frames are the same. Table
// entries are positions plus base; an entry below base (negative once
// base is taken off, as a 32-bit difference) is from an earlier frame
// and never compared.
//
// A candidate is kept as the 32-bit difference, zero-extended: its sign
// bit (TESTL) says whether it is stale, and a real one is the position.
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
// The first 16 bytes are compared a word at a time (most matches end
// there, and a word's compare decides soonest), the rest 32 at a time (SSE2:
// PCMPEQB and PMOVMSKB, a bit per equal byte), then 16, 8 and one.
// DX and R14 are scratch.
#define EXTEND(lfirst, l32, ldiff32, l16, ldiff16, l8, ldiff, l1, ldone) \
lfirst: \
	LEAQ  8(R12), DX \
	CMPQ  DX, R10 \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
	LEAQ  8(R12), DX \
	CMPQ  DX, R10 \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
l32: \
	LEAQ     32(R12), DX \
	CMPQ     DX, R10 \
	JGT      l16 \
	MOVOU    (SI)(R12*1), X0 \
	MOVOU    16(SI)(R12*1), X2 \
	MOVOU    (SI)(R13*1), X1 \
	MOVOU    16(SI)(R13*1), X3 \
	PCMPEQB  X1, X0 \
	PCMPEQB  X3, X2 \
	MOVOU    X0, X1 \
	PAND     X2, X1 \
	PMOVMSKB X1, DX \
	XORL     $0xFFFF, DX \
	JNZ      ldiff32 \
	ADDQ     $32, R12 \
	ADDQ     $32, R13 \
	JMP      l32 \
ldiff32: \
	PMOVMSKB X0, DX \
	PMOVMSKB X2, R14 \
	SHLL     $16, R14 \
	ORL      R14, DX \
	NOTL     DX \
	BSFL     DX, DX \
	ADDQ     DX, R12 \
	JMP      ldone \
l16: \
	LEAQ     16(R12), DX \
	CMPQ     DX, R10 \
	JGT      l8 \
	MOVOU    (SI)(R12*1), X0 \
	MOVOU    (SI)(R13*1), X1 \
	PCMPEQB  X1, X0 \
	PMOVMSKB X0, DX \
	XORL     $0xFFFF, DX \
	JNZ      ldiff16 \
	ADDQ     $16, R12 \
	ADDQ     $16, R13 \
l8: \
	LEAQ  8(R12), DX \
	CMPQ  DX, R10 \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
	JMP   l1 \
ldiff16: \
	BSFL  DX, DX \
	ADDQ  DX, R12 \
	JMP   ldone \
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

// fastDummy stands in for a stale candidate's bytes (see cand0): any
// value does, the candidate being checked again where they compare equal.
// Its index from buf (the frame's dummy) is never a position in buf, as
// fastDummy lies outside every buffer, so that check is exact.
DATA  ·fastDummy+0(SB)/8, $0x9abcdef012345678
GLOBL ·fastDummy(SB), RODATA|NOPTR, $8

// func fastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur, dummy int)
TEXT ·fastBlockAsm(SB), NOSPLIT, $0-64
	MOVQ c+0(FP), DX
	MOVQ fastCtx_buf(DX), SI
	LEAQ ·fastDummy(SB), R8
	SUBQ SI, R8
	MOVQ R8, dummy+56(FP)
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

	// The first turn after a match (or the block's start) branches on
	// whether a candidate is stale: where matches are close together
	// (text) most are real and found there, and the branch resolves
	// before the candidate's bytes are read. The turns after it, where a
	// search goes on through data without matches, take the candidates
	// without that branch (see cand0).
	LEAL (R11)(AX*1), DX
	MOVL DX, (DI)(R13*4)
	MOVQ (SI)(BX*1), R12
	MOVQ BX, DX
	SUBQ rep1+8(FP), DX
	JLE  fcand0
	CMPL R12, (SI)(DX*1)
	JEQ  foundRep

fcand0:
	TESTL R15, R15
	JLT   fnext0
	MOVL  (SI)(AX*1), DX
	CMPL  DX, (SI)(R15*1)
	JEQ   found0

fnext0:
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
	MOVQ    R14, R13
	IMULQ   R9, R12
	SHRQ    CX, R12
	MOVQ    R12, R14
	INCQ    AX
	INCQ    BX
	LEAL    (R11)(AX*1), DX
	MOVL    DX, (DI)(R13*4)
	TESTL   R15, R15
	JLT     fnext1
	MOVL    (SI)(AX*1), DX
	CMPL    DX, (SI)(R15*1)
	JEQ     found1

fnext1:
	// As next1 below; ip2 stays short of nextStep (128 on) here.
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
	MOVQ    R14, R13
	HASH((SI)(BX*1), R14)
	LEAQ    -1(BX), AX
	LEAQ    1(BX), BX
	LEAQ    1(BX), DX
	CMPQ    DX, ilimit+32(FP)
	JGE     finish

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
	// A stale candidate (negative) reads fastDummy instead, so that one
	// branch, taken on equal bytes only, decides: whether the table held
	// this frame's position is close to random on a frame's first pass
	// over it and mispredicted as a branch of its own, where a search
	// that goes on finds few matches.
	TESTL   R15, R15
	CMOVQLT dummy+56(FP), R15
	MOVL    (SI)(AX*1), DX
	CMPL    DX, (SI)(R15*1)
	JEQ     maybe0

next0:
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
	MOVQ    R14, R13
	IMULQ   R9, R12
	SHRQ    CX, R12
	MOVQ    R12, R14

	// ip0+1.
	INCQ  AX
	INCQ  BX
	LEAL  (R11)(AX*1), DX
	MOVL  DX, (DI)(R13*4)
	TESTL   R15, R15
	CMOVQLT dummy+56(FP), R15
	MOVL    (SI)(AX*1), DX
	CMPL    DX, (SI)(R15*1)
	JEQ     maybe1

next1:
	MOVL    (DI)(R14*4), R15
	SUBL    R11, R15
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

maybe0:
	// Equal to fastDummy's bytes: a match only if the candidate was real.
	CMPQ R15, dummy+56(FP)
	JEQ  next0

found0:
	LEAL 1(R11)(AX*1), DX
	MOVL DX, (DI)(R14*4)
	JMP  foundCand

maybe1:
	CMPQ R15, dummy+56(FP)
	JEQ  next1

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
	EXTEND(extfirst, ext32, extdiff32, ext16, extdiff16, ext8, extdiff, ext1, extdone)
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

	// ip0 moves to the match's end now, a copy of the extension's
	// result: the next search's loads wait on it, and ip0 plus ml would
	// have added two steps to that wait.
	MOVQ R12, AX
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

	// ip0 is entered first (nothing between reads the table), so that
	// ip0 can move to the match's end as soon as it is known.
	HASH((SI)(AX*1), R14)
	LEAL (R11)(AX*1), DX
	MOVL DX, (DI)(R14*4)
	LEAQ 4(AX), R12
	ADDQ $4, R13
	MOVQ end+40(FP), R10
	EXTEND(rextfirst, rext32, rextdiff32, rext16, rextdiff16, rext8, rextdiff, rext1, rextdone)
	MOVQ R12, R8
	SUBQ AX, R8
	MOVQ R12, AX
	MOVQ rep1+8(FP), DX
	MOVQ R15, rep1+8(FP)
	MOVQ DX, rep2+16(FP)
	MOVQ c+0(FP), R14
	MOVQ fastCtx_nseqs(R14), DX
	INCQ fastCtx_nseqs(R14)
	SHLQ $4, DX
	ADDQ fastCtx_seqs(R14), DX
	MOVL $0, seq_ll(DX)
	MOVL R8, seq_ml(DX)
	MOVL R15, seq_offset(DX)
	MOVL $0, seq_ofx(DX)
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

// R12 = the end of the match of R12 against R13 (R12 > R13), at most
// end (the frame's).
// DEXTEND is EXTEND for the double fast loop: after two steps of 8
// bytes (where most of text's and timestamps' matches end, and a word's
// compare decides sooner than the vector compare and its mask's bit
// search; one step of 8 left those planes 1.01-1.04 slower), 32 bytes a step with SSE2
// while 32 are left (a plane of one byte or of long runs is one match
// of 32 KiB), the first unequal byte from the compare's mask; 8 at a
// time, then one, in the last 32 bytes.
#define DEXTEND(l8, l32, l32diff, l8b, ldiff, l1, ldone) \
l8: \
	LEAQ  8(R12), DX \
	CMPQ  DX, end+40(FP) \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
	LEAQ  8(R12), DX \
	CMPQ  DX, end+40(FP) \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
l32: \
	LEAQ     32(R12), DX \
	CMPQ     DX, end+40(FP) \
	JGT      l8b \
	MOVOU    (SI)(R12*1), X0 \
	MOVOU    16(SI)(R12*1), X1 \
	MOVOU    (SI)(R13*1), X2 \
	MOVOU    16(SI)(R13*1), X3 \
	PCMPEQB  X2, X0 \
	PCMPEQB  X3, X1 \
	PMOVMSKB X0, DX \
	PMOVMSKB X1, CX \
	SHLL     $16, CX \
	ORL      CX, DX \
	XORL     $0xFFFFFFFF, DX \
	JNZ      l32diff \
	ADDQ     $32, R12 \
	ADDQ     $32, R13 \
	JMP      l32 \
l32diff: \
	BSFL  DX, DX \
	ADDQ  DX, R12 \
	JMP   ldone \
l8b: \
	LEAQ  8(R12), DX \
	CMPQ  DX, end+40(FP) \
	JGT   l1 \
	MOVQ  (SI)(R12*1), DX \
	XORQ  (SI)(R13*1), DX \
	JNZ   ldiff \
	ADDQ  $8, R12 \
	ADDQ  $8, R13 \
	JMP   l8b \
ldiff: \
	BSFQ  DX, DX \
	SHRQ  $3, DX \
	ADDQ  DX, R12 \
	JMP   ldone \
l1: \
	CMPQ    R12, end+40(FP) \
	JGE     ldone \
	MOVBLZX (SI)(R12*1), DX \
	CMPB    DL, (SI)(R13*1) \
	JNE     ldone \
	INCQ    R12 \
	INCQ    R13 \
	JMP     l1 \
ldone:

// func dfastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur, shL, shS, base, nextStep int, mulL, mulS uint64, bound int, lvalid, free bool)
//
// SI buf, DI the long table, R8 the short one, R9 base (the tables'
// entries are positions plus base), R10 the long hash's multiplier (the
// short one's and the shifts in the frame, the shifts taken into CX as
// needed), AX ip. The search:
// R11 its step, 1 + (ip-anchor)>>8, kept from turn to turn (nextStep
// the position from which it is one more, bound the lesser of
// nextStep+step and ilimit: a next position below it needs neither a
// longer step nor the last turn) so that the next position is one add
// away from ip; BX the 8 bytes at ip, R12 the long hash, R13 and R14
// the long and short entries, then candidates, R15 the next position,
// DX its long hash and CX its long entry. A match: AX its start, R15
// its source, then its offset; BX its length; R14 1 for the repeat
// offset (no backing up, no new offset). lvalid: the long candidate one
// byte on after a short match is this frame's. free: the search tests
// the entries without branches (dbody), else with them (dbodyB).
TEXT ·dfastBlockAsm(SB), NOSPLIT, $0-114
	MOVQ c+0(FP), DX
	MOVQ fastCtx_buf(DX), SI
	MOVQ fastCtx_table(DX), DI
	MOVQ fastCtx_table2(DX), R8
	MOVQ fastCtx_ip0(DX), AX
	MOVQ base+72(FP), R9
	MOVQ mulL+88(FP), R10

dloop:
	CMPQ    AX, ilimit+32(FP)
	JGE     dfinish
	MOVQ    AX, R11
	SUBQ    anchor+24(FP), R11
	SHRQ    $8, R11
	INCQ    R11
	MOVQ    R11, DX
	SHLQ    $8, DX
	ADDQ    anchor+24(FP), DX
	MOVQ    DX, nextStep+80(FP)
	ADDQ    R11, DX
	MOVQ    ilimit+32(FP), CX
	CMPQ    DX, CX
	CMOVQGT CX, DX
	MOVQ    DX, bound+104(FP)
	MOVQ    (SI)(AX*1), R12
	IMULQ   R10, R12
	MOVQ    shL+56(FP), CX
	SHRQ    CX, R12
	MOVL    (DI)(R12*4), R13
	CMPB    free+113(FP), $0
	JNE     dbody

dbodyB:
	// dbody below with the entries' tests as branches, for data whose
	// searches find a match within a position or two (text): there an
	// entry of this frame goes with a match, which the branches'
	// history predicts.
	MOVQ  (SI)(AX*1), BX
	MOVQ  BX, R14
	IMULQ mulS+96(FP), R14
	MOVQ  shS+64(FP), CX
	SHRQ  CX, R14
	LEAL  (R9)(AX*1), R15
	MOVL  R15, (DI)(R12*4)
	MOVL  (R8)(R14*4), CX
	MOVL  R15, (R8)(R14*4)
	MOVL  CX, R14
	LEAQ  1(AX), R15
	SUBQ  rep1+8(FP), R15
	MOVL  1(SI)(AX*1), CX
	CMPL  CX, (SI)(R15*1)
	JEQ   dfoundRep
	LEAQ  (AX)(R11*1), R15
	CMPQ  R15, bound+104(FP)
	JGE   dslow

dsteppedB:
	MOVQ  (SI)(R15*1), DX
	IMULQ R10, DX
	MOVQ  shL+56(FP), CX
	SHRQ  CX, DX
	MOVL  (DI)(DX*4), CX
	SUBL  R9, R13
	JMI   dshortB
	CMPQ  BX, (SI)(R13*1)
	JEQ   dfoundLong

dshortB:
	SUBL R9, R14
	JMI  dnextB
	CMPL BX, (SI)(R14*1)
	JEQ  dfoundShort

dnextB:
	MOVQ R15, AX
	MOVQ DX, R12
	MOVL CX, R13
	JMP  dbodyB

dbody:
	// AX ip (below ilimit), R12 its long hash, R13 the long table's
	// entry for it, read a turn ahead when the turn before found nothing.
	MOVQ  (SI)(AX*1), BX
	MOVQ  BX, R14
	IMULQ mulS+96(FP), R14
	MOVQ  shS+64(FP), CX
	SHRQ  CX, R14
	LEAL  (R9)(AX*1), R15
	MOVL  R15, (DI)(R12*4)
	MOVL  (R8)(R14*4), CX
	MOVL  R15, (R8)(R14*4)
	MOVL  CX, R14

	// The repeat offset one byte on (ip+1-rep1 is never below 0: rep1
	// starts at 1 and is otherwise the offset of a match behind ip),
	// then the long candidate, then the short one.
	LEAQ 1(AX), R15
	SUBQ rep1+8(FP), R15
	MOVL 1(SI)(AX*1), CX
	CMPL CX, (SI)(R15*1)
	JEQ  dfoundRep

	// The position the search goes to if this one has no match (one
	// more byte of step per 256 since the last match), its long hash
	// in DX and its long table entry in CX, read now (after this
	// position's entry went in, as the next turn would read it) so that
	// the table's latency overlaps this turn's compares. R15 the
	// position. When it reaches ilimit there is no next turn: dlast
	// tries this position's candidates without reading ahead.
	LEAQ (AX)(R11*1), R15
	CMPQ R15, bound+104(FP)
	JGE  dslow

dstepped:
	MOVQ  (SI)(R15*1), DX
	IMULQ R10, DX
	MOVQ  shL+56(FP), CX
	SHRQ  CX, DX
	MOVL  (DI)(DX*4), CX

	// An entry below base is from an earlier frame (the Go loop's
	// int32(entry-base) below 0; base and the positions are below 2^30,
	// and the tree strategies' unsorted mark, all ones, left in a
	// table is below base so). Whether an entry is this frame's is
	// close to random on planes that fill a small part of the tables,
	// so it is not a branch: an earlier frame's entry is replaced by
	// R15, the next position, which is past ip where every entry of
	// this frame is before it, and its 8 bytes are in buf; whether the
	// candidate is before ip is looked at only when the bytes are equal.
dlong:
	SUBL    R9, R13
	CMOVLMI R15, R13
	CMPQ    BX, (SI)(R13*1)
	JEQ     dlongEq

dshort:
	SUBL    R9, R14
	CMOVLMI R15, R14
	CMPL    BX, (SI)(R14*1)
	JEQ     dshortEq

dnext:
	MOVQ R15, AX
	MOVQ DX, R12
	MOVL CX, R13
	JMP  dbody

dlongEq:
	CMPQ R13, AX
	JLT  dfoundLong
	JMP  dshort

dshortEq:
	CMPQ R14, AX
	JLT  dfoundShort
	JMP  dnext

dslow:
	// The next position reaches bound: either ip reached nextStep (the
	// step grows, and bound with it) or the next position is at ilimit
	// or past it.
	CMPQ AX, nextStep+80(FP)
	JLT  dlast

dstep:
	// One more byte of step per 256 (more than one only once the step
	// is 256 or more).
	INCQ    R11
	ADDQ    $256, nextStep+80(FP)
	CMPQ    AX, nextStep+80(FP)
	JGE     dstep
	MOVQ    nextStep+80(FP), DX
	ADDQ    R11, DX
	MOVQ    ilimit+32(FP), CX
	CMPQ    DX, CX
	CMOVQGT CX, DX
	MOVQ    DX, bound+104(FP)
	LEAQ    (AX)(R11*1), R15
	CMPQ    R15, ilimit+32(FP)
	JGE     dlast
	CMPB    free+113(FP), $0
	JNE     dstepped
	JMP     dsteppedB

dlast:
	SUBL R9, R13
	JMI  dlastShort
	CMPQ BX, (SI)(R13*1)
	JEQ  dfoundLong

dlastShort:
	SUBL R9, R14
	JMI  dfinish
	CMPL BX, (SI)(R14*1)
	JEQ  dfoundShort
	JMP  dfinish

dfoundRep:
	MOVQ AX, cur+48(FP)
	INCQ AX
	MOVQ AX, R15
	SUBQ rep1+8(FP), R15
	LEAQ 4(AX), R12
	LEAQ 4(R15), R13
	MOVQ $1, R14
	JMP  dext

dfoundLong:
	MOVQ AX, cur+48(FP)
	MOVQ R13, R15
	LEAQ 8(AX), R12
	LEAQ 8(R15), R13
	XORQ R14, R14
	JMP  dext

dfoundShort:
	// A long match one byte on is preferred to the short one; its
	// position goes in the long table either way.
	MOVQ    AX, cur+48(FP)
	MOVQ    1(SI)(AX*1), R12
	MOVQ    R12, R13
	IMULQ   R10, R13
	MOVQ    shL+56(FP), CX
	SHRQ    CX, R13
	MOVL    (DI)(R13*4), CX
	LEAL    1(R9)(AX*1), DX
	MOVL    DX, (DI)(R13*4)
	CMPL    CX, R9
	SETGE   lvalid+112(FP)
	CMOVLLT R9, CX
	SUBL    R9, CX
	CMPQ    R12, (SI)(CX*1)
	JNE     dshortOnly
	CMPB    lvalid+112(FP), $0
	JEQ     dshortOnly
	MOVL    CX, R13
	INCQ    AX
	MOVQ    R13, R15
	LEAQ    8(AX), R12
	LEAQ    8(R15), R13
	XORQ    R14, R14
	JMP     dext

dshortOnly:
	MOVQ R14, R15
	LEAQ 4(AX), R12
	LEAQ 4(R15), R13
	XORQ R14, R14

dext:
	DEXTEND(dext8, dext32, dext32diff, dext8b, dextdiff, dext1, dextdone)
	// R11 (the step, free until dloop) keeps the match's end: ip moves
	// there as a copy once the sequence is out, where ip plus the length
	// (worked out from it, then moved by backing up) put two more steps
	// before the next search's loads, as in the fast loop.
	MOVQ  R12, R11
	MOVQ  R12, BX
	SUBQ  AX, BX
	TESTQ R14, R14
	JNE   drepemit
	MOVQ  anchor+24(FP), R13

dback:
	CMPQ    AX, R13
	JLE     dbackdone
	TESTQ   R15, R15
	JLE     dbackdone
	MOVBLZX -1(SI)(AX*1), DX
	CMPB    DL, -1(SI)(R15*1)
	JNE     dbackdone
	DECQ    AX
	DECQ    R15
	INCQ    BX
	JMP     dback

dbackdone:
	MOVQ rep1+8(FP), DX
	MOVQ DX, rep2+16(FP)
	MOVQ AX, DX
	SUBQ R15, DX
	MOVQ DX, rep1+8(FP)
	MOVQ DX, R15
	JMP  demit

drepemit:
	MOVQ rep1+8(FP), R15

demit:
	// The sequence (ll R13, ml BX, offset R15), then its literals.
	MOVQ c+0(FP), R14
	MOVQ AX, R13
	SUBQ anchor+24(FP), R13
	MOVQ fastCtx_nseqs(R14), DX
	INCQ fastCtx_nseqs(R14)
	SHLQ $4, DX
	ADDQ fastCtx_seqs(R14), DX
	MOVL R13, seq_ll(DX)
	MOVL BX, seq_ml(DX)
	MOVL R15, seq_offset(DX)
	MOVL $0, seq_ofx(DX)
	MOVQ anchor+24(FP), R12
	MOVQ fastCtx_nlits(R14), DX
	ADDQ fastCtx_lits(R14), DX
	CMPQ R13, $16
	JGT  dlitlong
	LEAQ 16(R12), CX
	CMPQ CX, fastCtx_bufLen(R14)
	JGT  dlitlong
	MOVOU (SI)(R12*1), X0
	MOVOU X0, (DX)
	ADDQ  R13, DX
	JMP   dlitdone

dlitlong:
	ADDQ SI, R12
	MOVQ R13, CX

dlit16:
	CMPQ  CX, $16
	JLT   dlit1
	MOVOU (R12), X0
	MOVOU X0, (DX)
	ADDQ  $16, R12
	ADDQ  $16, DX
	SUBQ  $16, CX
	JMP   dlit16

dlit1:
	TESTQ   CX, CX
	JEQ     dlitdone
	MOVBLZX (R12), R15
	MOVB    R15, (DX)
	INCQ    R12
	INCQ    DX
	DECQ    CX
	JMP     dlit1

dlitdone:
	SUBQ fastCtx_lits(R14), DX
	MOVQ DX, fastCtx_nlits(R14)
	MOVQ R11, AX
	MOVQ AX, anchor+24(FP)
	CMPQ AX, ilimit+32(FP)
	JGT  dfinish

	// cur+2 and ip-2 in the long table, cur+2 and ip-1 in the short.
	MOVQ  cur+48(FP), DX
	MOVQ  shL+56(FP), CX
	MOVQ  2(SI)(DX*1), R12
	IMULQ R10, R12
	SHRQ  CX, R12
	LEAL  2(R9)(DX*1), R13
	MOVL  R13, (DI)(R12*4)
	MOVQ  -2(SI)(AX*1), R12
	IMULQ R10, R12
	SHRQ  CX, R12
	LEAL  -2(R9)(AX*1), R13
	MOVL  R13, (DI)(R12*4)
	MOVQ  shS+64(FP), CX
	MOVQ  2(SI)(DX*1), R12
	IMULQ mulS+96(FP), R12
	SHRQ  CX, R12
	LEAL  2(R9)(DX*1), R13
	MOVL  R13, (R8)(R12*4)
	MOVQ  -1(SI)(AX*1), R12
	IMULQ mulS+96(FP), R12
	SHRQ  CX, R12
	LEAL  -1(R9)(AX*1), R13
	MOVL  R13, (R8)(R12*4)

drep2:
	// Matches at rep2 right after: each swaps the two offsets.
	CMPQ AX, ilimit+32(FP)
	JGT  dloop
	MOVQ rep2+16(FP), R15
	CMPQ AX, R15
	JLT  dloop
	MOVQ AX, R13
	SUBQ R15, R13
	MOVL (SI)(AX*1), DX
	CMPL DX, (SI)(R13*1)
	JNE  dloop
	LEAQ 4(AX), R12
	ADDQ $4, R13
	DEXTEND(drext8, drext32, drext32diff, drext8b, drextdiff, drext1, drextdone)
	MOVQ  R12, R11
	MOVQ  R12, BX
	SUBQ  AX, BX
	MOVQ  rep1+8(FP), DX
	MOVQ  R15, rep1+8(FP)
	MOVQ  DX, rep2+16(FP)
	MOVQ  (SI)(AX*1), R12
	MOVQ  R12, R13
	IMULQ R10, R12
	MOVQ  shL+56(FP), CX
	SHRQ  CX, R12
	LEAL  (R9)(AX*1), DX
	MOVL  DX, (DI)(R12*4)
	IMULQ mulS+96(FP), R13
	MOVQ  shS+64(FP), CX
	SHRQ  CX, R13
	MOVL  DX, (R8)(R13*4)
	MOVQ  c+0(FP), R14
	MOVQ  fastCtx_nseqs(R14), DX
	INCQ  fastCtx_nseqs(R14)
	SHLQ  $4, DX
	ADDQ  fastCtx_seqs(R14), DX
	MOVL  $0, seq_ll(DX)
	MOVL  BX, seq_ml(DX)
	MOVL  R15, seq_offset(DX)
	MOVL  $0, seq_ofx(DX)
	MOVQ  R11, AX
	MOVQ  AX, anchor+24(FP)
	JMP   drep2

dfinish:
	MOVQ c+0(FP), R14
	MOVQ rep1+8(FP), DX
	MOVQ DX, fastCtx_rep1(R14)
	MOVQ rep2+16(FP), DX
	MOVQ DX, fastCtx_rep2(R14)
	MOVQ anchor+24(FP), DX
	MOVQ DX, fastCtx_anchor(R14)
	RET
