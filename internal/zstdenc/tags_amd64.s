//go:build !purego && !noasm && gc

#include "textflag.h"

// func tagMatchesSSE2(tags *byte, tag uint8, n int) uint64
//
// SI the tags, X0 the tag in every byte, CX n, AX the result; each
// 16 tags give 16 bits (PMOVMSKB), placed at their offset.
TEXT ·tagMatchesSSE2(SB), NOSPLIT, $0-32
	MOVQ    tags+0(FP), SI
	MOVBLZX tag+8(FP), AX
	MOVQ    n+16(FP), CX
	IMULL   $0x01010101, AX
	MOVL    AX, X0
	PSHUFL  $0, X0, X0
	MOVOU   (SI), X1
	PCMPEQB X0, X1
	PMOVMSKB X1, AX
	CMPQ    CX, $16
	JEQ     done
	MOVOU   16(SI), X2
	PCMPEQB X0, X2
	PMOVMSKB X2, DX
	SHLQ    $16, DX
	ORQ     DX, AX
	CMPQ    CX, $32
	JEQ     done
	MOVOU   32(SI), X3
	PCMPEQB X0, X3
	PMOVMSKB X3, DX
	SHLQ    $32, DX
	ORQ     DX, AX
	MOVOU   48(SI), X4
	PCMPEQB X0, X4
	PMOVMSKB X4, DX
	SHLQ    $48, DX
	ORQ     DX, AX

done:
	MOVQ AX, ret+24(FP)
	RET

// func prefetchRow(tags *byte, entries *uint32)
//
// Asks for the cache lines at tags and entries (and the entries' next
// line) without waiting for them.
TEXT ·prefetchRow(SB), NOSPLIT, $0-16
	MOVQ       tags+0(FP), AX
	MOVQ       entries+8(FP), BX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	RET

// func tagMatches64Prefetch(tags *byte, tag uint8, ptags *byte, pentries *uint32) uint64
//
// tagMatchesSSE2 on a row of 64 tags, with prefetchRow's three
// PREFETCHT0 of another row (ptags, pentries) issued first: one call
// where there were two.
TEXT ·tagMatches64Prefetch(SB), NOSPLIT, $0-40
	MOVQ       ptags+16(FP), AX
	MOVQ       pentries+24(FP), BX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	MOVQ       tags+0(FP), SI
	MOVBLZX    tag+8(FP), AX
	IMULL      $0x01010101, AX
	MOVL       AX, X0
	PSHUFL     $0, X0, X0
	MOVOU      (SI), X1
	PCMPEQB    X0, X1
	PMOVMSKB   X1, AX
	MOVOU      16(SI), X2
	PCMPEQB    X0, X2
	PMOVMSKB   X2, DX
	SHLQ       $16, DX
	ORQ        DX, AX
	MOVOU      32(SI), X3
	PCMPEQB    X0, X3
	PMOVMSKB   X3, DX
	SHLQ       $32, DX
	ORQ        DX, AX
	MOVOU      48(SI), X4
	PCMPEQB    X0, X4
	PMOVMSKB   X4, DX
	SHLQ       $48, DX
	ORQ        DX, AX
	MOVQ       AX, ret+32(FP)
	RET

// ROWINSERT enters position R14 at its row's head (rowInsert): its hash
// from buf (SI) by mul (R12) and shift (CX), the row's head one back in
// heads (R10), the tag in tags (R9), base (R13) plus R14 in entries
// (R11). Clobbers AX, BX, DI.
#define ROWINSERT \
	MOVQ    (SI)(R14*1), AX \
	IMULQ   R12, AX         \
	SHRQ    CX, AX          \
	MOVL    AX, AX          \
	MOVL    AX, BX          \
	SHRL    $8, BX          \
	MOVBLZX (R10)(BX*1), DI \
	DECL    DI              \
	ANDL    $63, DI         \
	MOVB    DI, (R10)(BX*1) \
	SHLQ    $6, BX          \
	ORQ     DI, BX          \
	MOVB    AX, (R9)(BX*1)  \
	LEAL    (R13)(R14*1), AX \
	MOVL    AX, (R11)(BX*4)

// What lazysteps_amd64.h takes in rowScan64Asm: its operands (LZROWS)
// and the labels it goes on at.
#define LZROWS
#define LZSEARCH position
#define LZDONE rdone

// func rowScan64Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)
//
// rowSearch64's steps for rows of 64 at ip: the positions waiting
// (next up to ip) entered in their rows as rowUpdate enters them (the
// inside of a long match skipped); ip's hash, row and tag; the prefetch
// of the row rowAhead on (when ip+16 <= buflen: its tags and all its
// entries); the tag compare; the candidates newest first from the length
// to beat, each rejected by its 4 bytes at that length or compared in
// full up to end; then ip entered at its row's head.
//
// With over > 0, one search from over: returns ip, the best length and
// its offset (0, 0 when nothing beat over) and ip+1, the next position
// to enter. With over 0, lazy's loop while it finds nothing: from ip up
// to ilimit, each position whose ip+1 does not start a repeat of rep1 is
// searched from 3 and, without a match, the next one is
// (ip-anchor)>>searchStrength + 1 on. Returns at ilimit or beyond (best
// and off 0), at the first position with a repeat at ip+1, not searched
// (best and off 0), or at a match: at depth 0 the first (its length,
// offset and start ip), at depths 1 and 2 the one lazy's steps at the
// next positions leave (as in chain16ScanAsm, whose steps' code this
// is), rep 1 if it is a repeat of rep1; with the next position to
// enter.
//
// R8 ip, R15 the next position to enter. Entering a range: R14 the
// position, DX the end, SI buf, R9 tags, R10 heads, R11 entries, R12 mul,
// CX shift, R13 base. Searching: DI end, R11 the row's entries, R12 the
// row, R13 its head, DX the matching tags (bit j: the entry j after the
// head), BX the best length, R14 its offset, AX the candidate, CX the
// length. On the stack: the match the lazy steps hold (ml, moff, isrep,
// mst), which search this is (state: 0 the scan's, 1 and 2 the steps
// one and two positions on, 3 the one search asked for) and its length
// to beat.
TEXT ·rowScan64Asm(SB), NOSPLIT, $48-176
	MOVQ buf+0(FP), SI
	MOVQ ip+16(FP), R8
	MOVQ next+112(FP), R15
	MOVQ end+24(FP), DI
	MOVQ over+56(FP), AX
	TESTQ AX, AX
	JZ   scan
	MOVQ AX, over-48(SP)
	MOVQ $3, state-40(SP)
	JMP  position

scan:
	MOVQ $3, over-48(SP)
	MOVQ $0, state-40(SP)

top:
	CMPQ R8, ilimit+32(FP)
	JGE  nothing

	// A repeat of rep1 at ip+1: lazy takes it from here.
	MOVQ rep1+48(FP), AX
	LEAQ 1(R8), BX
	CMPQ BX, AX
	JLT  position
	SUBQ AX, BX
	MOVL (SI)(BX*1), DX
	CMPL DX, 1(SI)(R8*1)
	JEQ  nothing

position:
	MOVQ tags+64(FP), R9
	MOVQ heads+72(FP), R10
	MOVQ entries+80(FP), R11
	MOVQ mul+88(FP), R12
	MOVQ shift+96(FP), CX
	MOVL base+104(FP), R13

	// The positions waiting: from min(next, ip), all of them, or the
	// first rowSkipStart and the last rowSkipEnd of more than
	// rowSkipThreshold.
	MOVQ    R15, R14
	CMPQ    R14, R8
	CMOVQGT R8, R14
	MOVQ    R8, DX
	SUBQ    R14, DX
	CMPQ    DX, $384
	JLE     range2
	LEAQ    96(R14), DX

range1:
	ROWINSERT
	INCQ R14
	CMPQ R14, DX
	JLT  range1
	LEAQ -32(R8), R14

range2:
	CMPQ R14, R8
	JGE  search

range2loop:
	ROWINSERT
	INCQ R14
	CMPQ R14, R8
	JLT  range2loop

search:
	MOVQ end+24(FP), DI

	// h = uint32(load64(ip) * mul >> shift): the row above 8 bits, the
	// tag below.
	MOVQ  (SI)(R8*1), AX
	IMULQ R12, AX
	SHRQ  CX, AX
	MOVL  AX, R12
	MOVL  R12, AX
	ANDL  $0xff, AX
	IMULL $0x01010101, AX
	MOVL  AX, X0
	PSHUFL $0, X0, X0
	SHRL  $8, R12

	// The row of ip+rowAhead: its tags and its four lines of entries
	// (the candidates fall anywhere in the row; reading its head first
	// would make the prefetch wait for a load that may miss).
	LEAQ  16(R8), AX
	CMPQ  AX, buflen+8(FP)
	JGT   compare
	MOVQ  8(SI)(R8*1), AX
	IMULQ mul+88(FP), AX
	SHRQ  CX, AX
	MOVL  AX, AX
	SHRL  $8, AX
	SHLQ  $6, AX
	PREFETCHT0 (R9)(AX*1)
	PREFETCHT0 (R11)(AX*4)
	PREFETCHT0 64(R11)(AX*4)
	PREFETCHT0 128(R11)(AX*4)
	PREFETCHT0 192(R11)(AX*4)

compare:
	MOVQ     R12, AX
	SHLQ     $6, AX
	LEAQ     (R9)(AX*1), BX
	LEAQ     (R11)(AX*4), R11
	MOVOU    (BX), X1
	PCMPEQB  X0, X1
	PMOVMSKB X1, DX
	MOVOU    16(BX), X2
	PCMPEQB  X0, X2
	PMOVMSKB X2, CX
	SHLQ     $16, CX
	ORQ      CX, DX
	MOVOU    32(BX), X3
	PCMPEQB  X0, X3
	PMOVMSKB X3, CX
	SHLQ     $32, CX
	ORQ      CX, DX
	MOVOU    48(BX), X4
	PCMPEQB  X0, X4
	PMOVMSKB X4, CX
	SHLQ     $48, CX
	ORQ      CX, DX
	MOVBLZX  (R10)(R12*1), R13
	ANDL     $63, R13
	MOVQ     R13, CX
	RORQ     CX, DX
	MOVQ     over-48(SP), BX
	XORL     R14, R14

loop:
	TESTQ DX, DX
	JZ    insert
	BSFQ  DX, CX
	ADDQ  R13, CX
	ANDQ  $63, CX
	MOVL  (R11)(CX*4), AX
	SUBL  base+104(FP), AX
	JMI   insert // from an earlier frame: the rest are older
	LEAQ  -3(AX)(BX*1), CX
	MOVL  (SI)(CX*1), CX
	LEAQ  -3(R8)(BX*1), R9
	CMPL  CX, (SI)(R9*1)
	JNE   next
	XORL  CX, CX

len8:
	LEAQ 8(R8)(CX*1), R9
	CMPQ R9, DI
	JGT  len1
	MOVQ -8(SI)(R9*1), R9
	LEAQ (AX)(CX*1), R10
	XORQ (SI)(R10*1), R9
	JNZ  found
	ADDQ $8, CX
	JMP  len8

found:
	BSFQ R9, R9
	SHRQ $3, R9
	ADDQ R9, CX
	JMP  longer

len1:
	LEAQ    (R8)(CX*1), R9
	CMPQ    R9, DI
	JGE     longer
	MOVBLZX (SI)(R9*1), R9
	LEAQ    (AX)(CX*1), R10
	MOVBLZX (SI)(R10*1), R10
	CMPL    R9, R10
	JNE     longer
	INCQ    CX
	JMP     len1

longer:
	CMPQ CX, BX
	JLE  next
	MOVQ CX, BX
	MOVQ R8, R14
	SUBQ AX, R14
	LEAQ (R8)(CX*1), R9
	CMPQ R9, DI
	JEQ  insert

next:
	LEAQ -1(DX), CX
	ANDQ CX, DX
	JMP  loop

insert:
	MOVQ    heads+72(FP), R10
	MOVBLZX (R10)(R12*1), CX
	DECL    CX
	ANDL    $63, CX
	MOVB    CX, (R10)(R12*1)
	SHLQ    $6, R12
	ORQ     CX, R12
	MOVQ    tags+64(FP), R9
	MOVQ    X0, CX
	MOVB    CX, (R9)(R12*1)
	MOVQ    entries+80(FP), R11
	MOVL    base+104(FP), CX
	ADDL    R8, CX
	MOVL    CX, (R11)(R12*4)
	LEAQ    1(R8), R15
	MOVQ    state-40(SP), AX
	TESTQ   AX, AX
	JNZ     searched
	TESTQ   R14, R14
	JNZ     rmatch

	// Nothing found: on by (ip-anchor)>>searchStrength + 1.
	MOVQ R8, AX
	SUBQ anchor+40(FP), AX
	SHRQ $8, AX
	LEAQ 1(R8)(AX*1), R8
	JMP  top

searched:
	// BX the best length, R14 its offset (0: nothing beat the length
	// to beat): a lazy step's, or the one search Go asked for.
	CMPQ  AX, $1
	JEQ   lzstep1done
	CMPQ  AX, $2
	JEQ   lzstep2done
	TESTQ R14, R14
	JNZ   rgreedy
	JMP   nothing

rmatch:
	CMPQ depth+120(FP), $0
	JEQ  rgreedy
	MOVQ BX, ml-8(SP)
	MOVQ R14, moff-16(SP)
	MOVQ $0, isrep-24(SP)
	MOVQ R8, mst-32(SP)

#define LZSTEPS_FIRST
#include "lazysteps_amd64.h"
#undef LZSTEPS_FIRST

#include "lazysteps_amd64.h"

rdone:
	MOVQ R8, rip+128(FP)
	MOVQ ml-8(SP), AX
	MOVQ AX, best+136(FP)
	MOVQ moff-16(SP), AX
	MOVQ AX, off+144(FP)
	MOVQ mst-32(SP), AX
	MOVQ AX, st+152(FP)
	MOVQ isrep-24(SP), AX
	MOVQ AX, rep+160(FP)
	MOVQ R15, nextOut+168(FP)
	RET

rgreedy:
	MOVQ R8, rip+128(FP)
	MOVQ BX, best+136(FP)
	MOVQ R14, off+144(FP)
	MOVQ R8, st+152(FP)
	MOVQ $0, rep+160(FP)
	MOVQ R15, nextOut+168(FP)
	RET

nothing:
	MOVQ R8, rip+128(FP)
	MOVQ $0, best+136(FP)
	MOVQ $0, off+144(FP)
	MOVQ R8, st+152(FP)
	MOVQ $0, rep+160(FP)
	MOVQ R15, nextOut+168(FP)
	RET
#undef LZROWS
#undef LZSEARCH
#undef LZDONE

// func chain16ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint16, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int)
//
// greedy16's and lazy16's loop over the positions that find nothing,
// with hcSearch16 from 3 inline, and lazy16's steps after a match: from
// ip up to ilimit, each position whose ip+1 does not start a repeat of
// rep1 has the positions waiting (next up to ip) entered in the 16-bit
// chains, then its chain walked (at most tries candidates, each rejected
// by its 4 bytes at the length to beat or compared in full up to end);
// without a match the next position is (ip-anchor)>>searchStrength + 1
// on. Returns at ilimit or beyond (best and off 0), at the first
// position with a repeat at ip+1 or with more than rowSkipThreshold
// positions waiting (the Go loop then takes it as it would, chain16Skip
// recording the skip), not searched (best and off 0), or at a match:
// at depth 0 the first (its length, offset and start ip), at depths 1
// and 2 the one lazy16's steps at the next positions (a repeat of rep1,
// then hcSearch16 from lazyOver, one position on or, at depth 2, two)
// leave, rep 1 if it is a repeat of rep1. nextOut is the next position
// to enter.
//
// SI buf, R8 ip, DI end, R10 chain, R11 cmask, R15 the next position to
// enter. Entering: R14 the position, R9 heads, R12 mul, CX shift, R13
// hmask. Walking: AX the candidate, R12 its link, BX the best length,
// R14 its offset, DX the tries left, CX, R9 and R13 scratch. On the
// stack: the match the lazy steps hold (ml, moff, isrep, mst), which of
// the three searches the walk serves (state: 0 the first, 1 and 2 the
// steps one and two positions on) and its length to beat (over).
TEXT ·chain16ScanAsm(SB), NOSPLIT, $72-224
#define CHAIN16
#include "chainscan_amd64.h"
#undef CHAIN16

// func chain32ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint32, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq, base uint32) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int)
//
// chain16ScanAsm over the uint32 chains (lazy's over sources of more
// than 64 KiB, up to rows' 256 KiB): the same loop, hcSearch from 3
// inline, lazy's steps after a match and the sequences' emit, with the
// entries biased by base (an entry is base plus its position, one below
// base from an earlier frame, which ends the walk) rather than a
// position plus one. The registers are chain16ScanAsm's; base is read
// from the arguments where a position is entered or a link followed
// (no register is left).
TEXT ·chain32ScanAsm(SB), NOSPLIT, $72-232
#include "chainscan_amd64.h"
