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

// func rowScan64Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)
//
// rowSearch64's steps for rows of 64 at ip (rowSearch's for rows of 32
// and 16 in rowScan32Asm and rowScan16Asm below, the same body): the positions waiting
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
#define ROWS64
#include "rowscan_amd64.h"
#undef ROWS64

// func rowScan32Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)
//
// rowScan64Asm for rows of 32 (search log 5: libzstd's levels 5 and 9
// over 256 KiB, c-blosc 1.x's clevels 3 and 5 on its unsplit blocks).
TEXT ·rowScan32Asm(SB), NOSPLIT, $48-176
#define ROWS32
#include "rowscan_amd64.h"
#undef ROWS32

// func rowScan16Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)
//
// rowScan64Asm for rows of 16 (search log 4: libzstd's level 7 over 256
// KiB, c-blosc 1.x's clevel 4).
TEXT ·rowScan16Asm(SB), NOSPLIT, $48-176
#define ROWS16
#include "rowscan_amd64.h"
#undef ROWS16

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
