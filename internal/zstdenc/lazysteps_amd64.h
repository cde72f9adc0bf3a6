// lazy16's and lazy's steps after a match (one position on, then two
// at depth 2), shared by the scans in assembly: rowScan64Asm
// (tags_amd64.s) and chain16ScanAsm/chain32ScanAsm (chainscan_amd64.h).
// Included twice inside each function's TEXT: with LZSTEPS_FIRST
// defined, the first step up to its search (lzstep1, entered with the
// match held on the stack); without it, what comes after a step's
// search (lzstep1done and lzstep2done, entered with BX the best length
// found and R14 its offset, 0 when nothing beat over). The includer
// defines LZROWS for rowScan64Asm's operands (rep1 and depth read from
// its arguments; else rep1 from the stack and the chain scans' depth),
// LZSEARCH (its search at R8 for a length over over-48(SP),
// which goes on at lzstep1done or lzstep2done by state-40(SP)) and
// LZDONE (the match held is decided). The stack slots (ml, moff, isrep,
// mst, state, over) sit at the same offsets in every includer.
#ifdef LZROWS
#define LZREP1 rep1+48(FP)
#define LZDEPTH depth+120(FP)
#else
#define LZREP1 r1-56(SP)
#define LZDEPTH depth+128(FP)
#endif
#ifdef LZSTEPS_FIRST
lzstep1:
	// One position on (lazy16's steps, lazy's gains).
	CMPQ R8, ilimit+32(FP)
	JGE  LZDONE
	INCQ R8
	CMPQ isrep-24(SP), $0
	JNE  lzover1
	MOVQ LZREP1, AX
	CMPQ R8, AX
	JLT  lzover1
	MOVQ R8, BX
	SUBQ AX, BX
	MOVL (SI)(BX*1), CX
	CMPL CX, (SI)(R8*1)
	JNE  lzover1
	MOVL $4, CX

lzrep1len8:
	LEAQ 8(R8)(CX*1), R13
	CMPQ R13, DI
	JGT  lzrep1len1
	MOVQ -8(SI)(R13*1), R13
	LEAQ (BX)(CX*1), R9
	XORQ (SI)(R9*1), R13
	JNZ  lzrep1found
	ADDQ $8, CX
	JMP  lzrep1len8

lzrep1found:
	BSFQ R13, R13
	SHRQ $3, R13
	ADDQ R13, CX
	JMP  lzrep1cmp

lzrep1len1:
	LEAQ    (R8)(CX*1), R13
	CMPQ    R13, DI
	JGE     lzrep1cmp
	MOVBLZX (SI)(R13*1), R13
	LEAQ    (BX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPL    R13, R9
	JNE     lzrep1cmp
	INCQ    CX
	JMP     lzrep1len1

lzrep1cmp:
	// The repeat of CX bytes if n*3 > ml*3 - offCost(moff) + 1 (the
	// match held is not a repeat here).
	LEAQ (CX)(CX*2), AX
	MOVQ ml-8(SP), R9
	LEAQ (R9)(R9*2), R9
	MOVQ moff-16(SP), R13
	ADDQ $3, R13
	BSRQ R13, R13
	SUBQ R13, R9
	INCQ R9
	CMPQ AX, R9
	JLE  lzover1
	MOVQ CX, ml-8(SP)
	MOVQ LZREP1, AX
	MOVQ AX, moff-16(SP)
	MOVQ $1, isrep-24(SP)
	MOVQ R8, mst-32(SP)

lzover1:
	// over = lazyOver(ml, moff, isrep, 4, ip, end); R9 keeps
	// ml*4 - offCost(moff, isrep) for the comparison after.
	MOVQ    moff-16(SP), R13
	ADDQ    $3, R13
	BSRQ    R13, R13
	XORL    AX, AX
	CMPQ    isrep-24(SP), $0
	CMOVQNE AX, R13
	MOVQ    ml-8(SP), AX
	SHLQ    $2, AX
	SUBQ    R13, AX
	ADDQ    $6, AX
	SARQ    $2, AX
	MOVQ    DI, CX
	SUBQ    R8, CX
	DECQ    CX
	CMPQ    AX, CX
	CMOVQGT CX, AX
	MOVL    $3, CX
	CMPQ    AX, CX
	CMOVQLT CX, AX
	MOVQ    AX, over-48(SP)
	MOVQ    $1, state-40(SP)
	JMP     LZSEARCH
#else
lzstep1done:
	// A match found one position on replaces the one held if
	// n*4 - offCost(off) > ml*4 - offCost(moff, isrep) + 4.
	TESTQ R14, R14
	JZ    lzstep2
	LEAQ  3(R14), CX
	BSRQ  CX, CX
	MOVQ  BX, AX
	SHLQ  $2, AX
	SUBQ  CX, AX
	MOVQ    moff-16(SP), R13
	ADDQ    $3, R13
	BSRQ    R13, R13
	XORL    CX, CX
	CMPQ    isrep-24(SP), $0
	CMOVQNE CX, R13
	MOVQ    ml-8(SP), CX
	SHLQ    $2, CX
	SUBQ    R13, CX
	ADDQ    $4, CX
	CMPQ    AX, CX
	JLE     lzstep2
	MOVQ    BX, ml-8(SP)
	MOVQ    R14, moff-16(SP)
	MOVQ    $0, isrep-24(SP)
	MOVQ    R8, mst-32(SP)
	JMP     lzstep1

lzstep2:
	// Two positions on, at depth 2.
	CMPQ LZDEPTH, $2
	JNE  LZDONE
	CMPQ R8, ilimit+32(FP)
	JGE  LZDONE
	INCQ R8
	CMPQ isrep-24(SP), $0
	JNE  lzover2
	MOVQ LZREP1, AX
	CMPQ R8, AX
	JLT  lzover2
	MOVQ R8, BX
	SUBQ AX, BX
	MOVL (SI)(BX*1), CX
	CMPL CX, (SI)(R8*1)
	JNE  lzover2
	MOVL $4, CX

lzrep2len8:
	LEAQ 8(R8)(CX*1), R13
	CMPQ R13, DI
	JGT  lzrep2len1
	MOVQ -8(SI)(R13*1), R13
	LEAQ (BX)(CX*1), R9
	XORQ (SI)(R9*1), R13
	JNZ  lzrep2found
	ADDQ $8, CX
	JMP  lzrep2len8

lzrep2found:
	BSFQ R13, R13
	SHRQ $3, R13
	ADDQ R13, CX
	JMP  lzrep2cmp

lzrep2len1:
	LEAQ    (R8)(CX*1), R13
	CMPQ    R13, DI
	JGE     lzrep2cmp
	MOVBLZX (SI)(R13*1), R13
	LEAQ    (BX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPL    R13, R9
	JNE     lzrep2cmp
	INCQ    CX
	JMP     lzrep2len1

lzrep2cmp:
	// The repeat if n*4 > ml*4 - offCost(moff) + 1.
	MOVQ CX, AX
	SHLQ $2, AX
	MOVQ ml-8(SP), R9
	SHLQ $2, R9
	MOVQ moff-16(SP), R13
	ADDQ $3, R13
	BSRQ R13, R13
	SUBQ R13, R9
	INCQ R9
	CMPQ AX, R9
	JLE  lzover2
	MOVQ CX, ml-8(SP)
	MOVQ LZREP1, AX
	MOVQ AX, moff-16(SP)
	MOVQ $1, isrep-24(SP)
	MOVQ R8, mst-32(SP)

lzover2:
	// over = lazyOver(ml, moff, isrep, 7, ip, end).
	MOVQ    moff-16(SP), R13
	ADDQ    $3, R13
	BSRQ    R13, R13
	XORL    AX, AX
	CMPQ    isrep-24(SP), $0
	CMOVQNE AX, R13
	MOVQ    ml-8(SP), AX
	SHLQ    $2, AX
	SUBQ    R13, AX
	ADDQ    $9, AX
	SARQ    $2, AX
	MOVQ    DI, CX
	SUBQ    R8, CX
	DECQ    CX
	CMPQ    AX, CX
	CMOVQGT CX, AX
	MOVL    $3, CX
	CMPQ    AX, CX
	CMOVQLT CX, AX
	MOVQ    AX, over-48(SP)
	MOVQ    $2, state-40(SP)
	JMP     LZSEARCH

lzstep2done:
	// The same with a margin of 7.
	TESTQ R14, R14
	JZ    LZDONE
	LEAQ  3(R14), CX
	BSRQ  CX, CX
	MOVQ  BX, AX
	SHLQ  $2, AX
	SUBQ  CX, AX
	MOVQ    moff-16(SP), R13
	ADDQ    $3, R13
	BSRQ    R13, R13
	XORL    CX, CX
	CMPQ    isrep-24(SP), $0
	CMOVQNE CX, R13
	MOVQ    ml-8(SP), CX
	SHLQ    $2, CX
	SUBQ    R13, CX
	ADDQ    $7, CX
	CMPQ    AX, CX
	JLE     LZDONE
	MOVQ    BX, ml-8(SP)
	MOVQ    R14, moff-16(SP)
	MOVQ    $0, isrep-24(SP)
	MOVQ    R8, mst-32(SP)
	JMP     lzstep1
#endif
#undef LZREP1
#undef LZDEPTH
