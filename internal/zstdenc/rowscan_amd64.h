// The body of rowScan64Asm, rowScan32Asm and rowScan16Asm (tags_amd64.s),
// which differ only in the rows' size: with ROWS64, ROWS32 or ROWS16
// defined, rows of 64, 32 or 16 entries (the row's shift and mask, the
// tag compare's 16-byte words, the rotation of its bits by the head, the
// prefetch's lines of entries). The same steps for every size, so the
// same bytes as rowSearch64 and rowSearch (whose tries are the row's
// size where these run: rowsAsmOK).
#ifdef ROWS64
#define ROWLOG 6
#define ROWMASK 63
#endif
#ifdef ROWS32
#define ROWLOG 5
#define ROWMASK 31
#endif
#ifdef ROWS16
#define ROWLOG 4
#define ROWMASK 15
#endif

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
	ANDL    $ROWMASK, DI    \
	MOVB    DI, (R10)(BX*1) \
	SHLQ    $ROWLOG, BX     \
	ORQ     DI, BX          \
	MOVB    AX, (R9)(BX*1)  \
	LEAL    (R13)(R14*1), AX \
	MOVL    AX, (R11)(BX*4)

// ROWAHEAD asks for the row of position R14+8 (when its 8 bytes are in
// buf), as libzstd's inserts do through their cache of hashes: its tags
// and entries at the row's next head, which entering R14+8 will write
// (heads are small and read at once; the tags and entries are
// megabytes). The last inserts before a search so ask for the rows of
// the search and of the positions after it (after a match, the rows the
// search's own prefetch rowAhead on did not ask for). Clobbers AX, BX,
// DI.
#define ROWAHEAD(l) \
	LEAQ    16(R14), AX     \
	CMPQ    AX, buflen+8(FP) \
	JGT     l               \
	MOVQ    8(SI)(R14*1), AX \
	IMULQ   R12, AX         \
	SHRQ    CX, AX          \
	MOVL    AX, AX          \
	SHRL    $8, AX          \
	MOVBLZX (R10)(AX*1), DI \
	DECL    DI              \
	ANDL    $ROWMASK, DI    \
	SHLQ    $ROWLOG, AX     \
	ORQ     DI, AX          \
	PREFETCHT0 (R9)(AX*1)   \
	PREFETCHT0 (R11)(AX*4)  \
l:

// What lazysteps_amd64.h takes in rowScan64Asm: its operands (LZROWS)
// and the labels it goes on at.
#define LZROWS
#define LZSEARCH position
#define LZDONE rdone

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
	ROWAHEAD(ahead1)
	ROWINSERT
	INCQ R14
	CMPQ R14, DX
	JLT  range1
	LEAQ -32(R8), R14

range2:
	CMPQ R14, R8
	JGE  search

range2loop:
	ROWAHEAD(ahead2)
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

	// The row of ip+rowAhead: its tags and all its entries (four lines
	// for rows of 64, two for 32, one for 16: the candidates fall
	// anywhere in the row; reading its head first would make the
	// prefetch wait for a load that may miss).
	LEAQ  16(R8), AX
	CMPQ  AX, buflen+8(FP)
	JGT   compare
	MOVQ  8(SI)(R8*1), AX
	IMULQ mul+88(FP), AX
	SHRQ  CX, AX
	MOVL  AX, AX
	SHRL  $8, AX
	SHLQ  $ROWLOG, AX
	PREFETCHT0 (R9)(AX*1)
	PREFETCHT0 (R11)(AX*4)
#ifndef ROWS16
	PREFETCHT0 64(R11)(AX*4)
#endif
#ifdef ROWS64
	PREFETCHT0 128(R11)(AX*4)
	PREFETCHT0 192(R11)(AX*4)
#endif

compare:
	MOVQ     R12, AX
	SHLQ     $ROWLOG, AX
	LEAQ     (R9)(AX*1), BX
	LEAQ     (R11)(AX*4), R11
	MOVOU    (BX), X1
	PCMPEQB  X0, X1
	PMOVMSKB X1, DX
#ifndef ROWS16
	MOVOU    16(BX), X2
	PCMPEQB  X0, X2
	PMOVMSKB X2, CX
	SHLQ     $16, CX
	ORQ      CX, DX
#endif
#ifdef ROWS64
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
#endif
	MOVBLZX  (R10)(R12*1), R13
	ANDL     $ROWMASK, R13
	MOVQ     R13, CX
	// Rotated right by the head within the row's bits: bit j is then
	// the entry j places after the head.
#ifdef ROWS64
	RORQ     CX, DX
#endif
#ifdef ROWS32
	RORL     CX, DX
#endif
#ifdef ROWS16
	RORW     CX, DX
#endif
	MOVQ     over-48(SP), BX
	XORL     R14, R14

loop:
	TESTQ DX, DX
	JZ    insert
	BSFQ  DX, CX
	ADDQ  R13, CX
	ANDQ  $ROWMASK, CX
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
	ANDL    $ROWMASK, CX
	MOVB    CX, (R10)(R12*1)
	SHLQ    $ROWLOG, R12
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
#undef ROWINSERT
#undef ROWAHEAD
#undef ROWLOG
#undef ROWMASK
