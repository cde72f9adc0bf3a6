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
