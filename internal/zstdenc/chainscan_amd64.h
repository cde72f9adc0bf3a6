// The body of chain16ScanAsm and chain32ScanAsm (tags_amd64.s), which
// differ only in the chains' entries: with CHAIN16 defined, 16-bit
// entries holding a position plus one; without it, 32-bit entries
// holding base plus a position (base is an argument, the results sit 8
// bytes further on). Included once inside each function's TEXT.
// The lazy steps after a match are lazysteps_amd64.h, which
// rowScan64Asm includes too.
#define LZSEARCH lsearch
#define LZDONE cdone
	MOVQ buf+0(FP), SI
	MOVQ ip+16(FP), R8
	MOVQ end+24(FP), DI
	MOVQ chain+80(FP), R10
	MOVQ cmask+96(FP), R11
	MOVQ next+120(FP), R15
	MOVQ anchor+40(FP), AX
	MOVQ AX, anc-72(SP)
	MOVQ rep1+48(FP), AX
	MOVQ AX, r1-56(SP)
	MOVQ rep2+56(FP), AX
	MOVQ AX, r2-64(SP)

ctop:
	CMPQ R8, ilimit+32(FP)
	JGE  cnothing

	// A repeat of rep1 at ip+1: the Go loop takes it from here.
	MOVQ r1-56(SP), AX
	LEAQ 1(R8), BX
	CMPQ BX, AX
	JLT  cposition
	SUBQ AX, BX
	MOVL (SI)(BX*1), DX
	CMPL DX, 1(SI)(R8*1)
	JEQ  cnothing

cposition:
	// The inside of a long match: the Go loop skips it.
	MOVQ R8, AX
	SUBQ R15, AX
	CMPQ AX, $384
	JGT  cnothing

csearch:
	// hcSearch16 at ip from 3 (the first search of a position): the
	// positions waiting first.
	MOVQ heads+72(FP), R9
	MOVQ mul+104(FP), R12
	MOVQ shift+112(FP), CX
	MOVQ hmask+88(FP), R13
	MOVQ R15, R14
	CMPQ R14, R8
	JGE  centered

cinsert:
	MOVQ    (SI)(R14*1), AX
	IMULQ   R12, AX
	SHRQ    CX, AX
	ANDQ    R13, AX
#ifdef CHAIN16
	MOVWLZX (R9)(AX*2), BX
#else
	MOVL    (R9)(AX*4), BX
#endif
	MOVQ    R14, DX
	ANDQ    R11, DX
#ifdef CHAIN16
	MOVW    BX, (R10)(DX*2)
	LEAQ    1(R14), BX
	MOVW    BX, (R9)(AX*2)
#else
	MOVL    BX, (R10)(DX*4)
	MOVL    base+152(FP), BX
	ADDL    R14, BX
	MOVL    BX, (R9)(AX*4)
#endif
	INCQ    R14
	CMPQ    R14, R8
	JLT     cinsert
	MOVQ    R8, R15

centered:
	MOVQ    (SI)(R8*1), AX
	IMULQ   R12, AX
	SHRQ    CX, AX
	ANDQ    R13, AX
#ifdef CHAIN16
	MOVWLZX (R9)(AX*2), AX
	DECQ    AX
#else
	MOVL    (R9)(AX*4), AX
	SUBL    base+152(FP), AX
	MOVLQSX AX, AX
#endif
	MOVQ    tries+64(FP), DX
	MOVL    $3, BX
	XORL    R14, R14

cwalk:
	TESTQ   AX, AX
	JMI     cwalked
	MOVQ    AX, CX
	ANDQ    R11, CX
#ifdef CHAIN16
	MOVWLZX (R10)(CX*2), R12
#else
	MOVL    (R10)(CX*4), R12
#endif
	LEAQ    -3(AX)(BX*1), CX
	MOVL    (SI)(CX*1), CX
	LEAQ    -3(R8)(BX*1), R13
	CMPL    CX, (SI)(R13*1)
	JNE     cnext
	XORL    CX, CX

clen8:
	LEAQ 8(R8)(CX*1), R13
	CMPQ R13, DI
	JGT  clen1
	MOVQ -8(SI)(R13*1), R13
	LEAQ (AX)(CX*1), R9
	XORQ (SI)(R9*1), R13
	JNZ  cfound
	ADDQ $8, CX
	JMP  clen8

cfound:
	BSFQ R13, R13
	SHRQ $3, R13
	ADDQ R13, CX
	JMP  clonger

clen1:
	LEAQ    (R8)(CX*1), R13
	CMPQ    R13, DI
	JGE     clonger
	MOVBLZX (SI)(R13*1), R13
	LEAQ    (AX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPL    R13, R9
	JNE     clonger
	INCQ    CX
	JMP     clen1

clonger:
	CMPQ CX, BX
	JLE  cnext
	MOVQ CX, BX
	MOVQ R8, R14
	SUBQ AX, R14
	LEAQ (R8)(CX*1), R13
	CMPQ R13, DI
	JEQ  cwalked

cnext:
	// The candidate at least the chain's length back: its link is
	// stale.
	MOVQ R8, R13
	SUBQ AX, R13
	CMPQ R13, R11
	JGT  cwalked
	DECQ DX
	JZ   cwalked
#ifdef CHAIN16
	LEAQ -1(R12), AX
#else
	MOVL    R12, AX
	SUBL    base+152(FP), AX
	MOVLQSX AX, AX
#endif
	JMP  cwalk

cwalked:
	// BX the best length, R14 its offset (0: nothing beat 3).
	TESTQ R14, R14
	JNZ   cmatch

	// Nothing found: on by (ip-anchor)>>searchStrength + 1.
	MOVQ R8, AX
	SUBQ anc-72(SP), AX
	SHRQ $8, AX
	LEAQ 1(R8)(AX*1), R8
	JMP  ctop

cmatch:
	MOVQ BX, ml-8(SP)
	MOVQ R14, moff-16(SP)
	MOVQ $0, isrep-24(SP)
	MOVQ R8, mst-32(SP)
	CMPQ depth+128(FP), $0
	JEQ  cdone

#define LZSTEPS_FIRST
#include "lazysteps_amd64.h"
#undef LZSTEPS_FIRST

lsearch:
	// hcSearch16 at ip from over for the lazy steps (a copy of the
	// search above, whose walk then serves state 1 or 2).
	MOVQ heads+72(FP), R9
	MOVQ mul+104(FP), R12
	MOVQ shift+112(FP), CX
	MOVQ hmask+88(FP), R13
	MOVQ R15, R14
	CMPQ R14, R8
	JGE  lentered

linsert:
	MOVQ    (SI)(R14*1), AX
	IMULQ   R12, AX
	SHRQ    CX, AX
	ANDQ    R13, AX
#ifdef CHAIN16
	MOVWLZX (R9)(AX*2), BX
#else
	MOVL    (R9)(AX*4), BX
#endif
	MOVQ    R14, DX
	ANDQ    R11, DX
#ifdef CHAIN16
	MOVW    BX, (R10)(DX*2)
	LEAQ    1(R14), BX
	MOVW    BX, (R9)(AX*2)
#else
	MOVL    BX, (R10)(DX*4)
	MOVL    base+152(FP), BX
	ADDL    R14, BX
	MOVL    BX, (R9)(AX*4)
#endif
	INCQ    R14
	CMPQ    R14, R8
	JLT     linsert
	MOVQ    R8, R15

lentered:
	MOVQ    (SI)(R8*1), AX
	IMULQ   R12, AX
	SHRQ    CX, AX
	ANDQ    R13, AX
#ifdef CHAIN16
	MOVWLZX (R9)(AX*2), AX
	DECQ    AX
#else
	MOVL    (R9)(AX*4), AX
	SUBL    base+152(FP), AX
	MOVLQSX AX, AX
#endif
	MOVQ    tries+64(FP), DX
	MOVQ    over-48(SP), BX
	XORL    R14, R14

lwalk:
	TESTQ   AX, AX
	JMI     lwalked
	MOVQ    AX, CX
	ANDQ    R11, CX
#ifdef CHAIN16
	MOVWLZX (R10)(CX*2), R12
#else
	MOVL    (R10)(CX*4), R12
#endif
	LEAQ    -3(AX)(BX*1), CX
	MOVL    (SI)(CX*1), CX
	LEAQ    -3(R8)(BX*1), R13
	CMPL    CX, (SI)(R13*1)
	JNE     lnext
	XORL    CX, CX

llen8:
	LEAQ 8(R8)(CX*1), R13
	CMPQ R13, DI
	JGT  llen1
	MOVQ -8(SI)(R13*1), R13
	LEAQ (AX)(CX*1), R9
	XORQ (SI)(R9*1), R13
	JNZ  lfound
	ADDQ $8, CX
	JMP  llen8

lfound:
	BSFQ R13, R13
	SHRQ $3, R13
	ADDQ R13, CX
	JMP  llonger

llen1:
	LEAQ    (R8)(CX*1), R13
	CMPQ    R13, DI
	JGE     llonger
	MOVBLZX (SI)(R13*1), R13
	LEAQ    (AX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPL    R13, R9
	JNE     llonger
	INCQ    CX
	JMP     llen1

llonger:
	CMPQ CX, BX
	JLE  lnext
	MOVQ CX, BX
	MOVQ R8, R14
	SUBQ AX, R14
	LEAQ (R8)(CX*1), R13
	CMPQ R13, DI
	JEQ  lwalked

lnext:
	// The candidate at least the chain's length back: its link is
	// stale.
	MOVQ R8, R13
	SUBQ AX, R13
	CMPQ R13, R11
	JGT  lwalked
	DECQ DX
	JZ   lwalked
#ifdef CHAIN16
	LEAQ -1(R12), AX
#else
	MOVL    R12, AX
	SUBL    base+152(FP), AX
	MOVLQSX AX, AX
#endif
	JMP  lwalk

lwalked:
	// BX the best length, R14 its offset (0: nothing beat over).
	CMPQ state-40(SP), $1
	JNE  lzstep2done

#include "lazysteps_amd64.h"

cdone:
	// The match is decided (ml, moff, isrep, mst): back over the
	// bytes before it that match too (not for a repeat), then its
	// literals and itself go out as emit writes them, when the
	// literals can be copied 16 bytes at a time within buf (else Go
	// takes the match from here), and the repeats of rep2 after it.
	MOVQ mst-32(SP), R8
	MOVQ ml-8(SP), BX
	MOVQ moff-16(SP), R14
	MOVQ anc-72(SP), DX
	CMPQ isrep-24(SP), $0
	JNE  ccaught

ccatch:
	CMPQ    R8, DX
	JLE     ccaught
	MOVQ    R8, AX
	SUBQ    R14, AX
	JLE     ccaught
	MOVBLZX -1(SI)(R8*1), CX
	MOVBLZX -1(SI)(AX*1), R9
	CMPL    CX, R9
	JNE     ccaught
	DECQ    R8
	INCQ    BX
	JMP     ccatch

ccaught:
	MOVQ R8, mst-32(SP)
	MOVQ BX, ml-8(SP)
	LEAQ 15(R8), AX
	CMPQ AX, buflen+8(FP)
	JGT  cpending

	// The literals, anchor (DX) to st (R8), onto lits (whose room Go
	// checked: at least end-anchor+16 bytes).
	MOVQ R8, CX
	SUBQ DX, CX
	MOVQ lits+136(FP), R9
	MOVQ 8(R9), AX
	MOVQ (R9), R12
	ADDQ AX, R12
	ADDQ CX, AX
	MOVQ AX, 8(R9)
	LEAQ (SI)(DX*1), R13
	XORL AX, AX

ccopy:
	CMPQ  AX, CX
	JGE   ccopied
	MOVOU (R13)(AX*1), X1
	MOVOU X1, (R12)(AX*1)
	ADDQ  $16, AX
	JMP   ccopy

ccopied:
	// The sequence (seqs has room for one per 4 bytes from anchor to
	// end, Go checked): literal length, match length, offset, 0.
	MOVQ seqs+144(FP), R9
	MOVQ 8(R9), AX
	MOVQ AX, R12
	SHLQ $4, R12
	ADDQ (R9), R12
	MOVL CX, (R12)
	MOVL BX, 4(R12)
	MOVL R14, 8(R12)
	MOVL $0, 12(R12)
	INCQ AX
	MOVQ AX, 8(R9)

	// A new offset becomes rep1.
	CMPQ isrep-24(SP), $0
	JNE  cemitted
	MOVQ r1-56(SP), AX
	MOVQ AX, r2-64(SP)
	MOVQ R14, r1-56(SP)

cemitted:
	ADDQ BX, R8
	MOVQ R8, anc-72(SP)

crep0:
	// Repeats of rep2 at ip, each a sequence without literals, rep1
	// and rep2 swapped.
	CMPQ R8, ilimit+32(FP)
	JGT  ctop
	MOVQ r2-64(SP), AX
	CMPQ R8, AX
	JLT  ctop
	MOVQ R8, BX
	SUBQ AX, BX
	MOVL (SI)(BX*1), CX
	CMPL CX, (SI)(R8*1)
	JNE  ctop
	MOVL $4, CX

crep0len8:
	LEAQ 8(R8)(CX*1), R13
	CMPQ R13, DI
	JGT  crep0len1
	MOVQ -8(SI)(R13*1), R13
	LEAQ (BX)(CX*1), R9
	XORQ (SI)(R9*1), R13
	JNZ  crep0found
	ADDQ $8, CX
	JMP  crep0len8

crep0found:
	BSFQ R13, R13
	SHRQ $3, R13
	ADDQ R13, CX
	JMP  crep0emit

crep0len1:
	LEAQ    (R8)(CX*1), R13
	CMPQ    R13, DI
	JGE     crep0emit
	MOVBLZX (SI)(R13*1), R13
	LEAQ    (BX)(CX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPL    R13, R9
	JNE     crep0emit
	INCQ    CX
	JMP     crep0len1

crep0emit:
	MOVQ r1-56(SP), R9
	MOVQ r2-64(SP), AX
	MOVQ AX, r1-56(SP)
	MOVQ R9, r2-64(SP)
	MOVQ seqs+144(FP), R9
	MOVQ 8(R9), R13
	MOVQ R13, R12
	SHLQ $4, R12
	ADDQ (R9), R12
	MOVL $0, (R12)
	MOVL CX, 4(R12)
	MOVL AX, 8(R12)
	MOVL $0, 12(R12)
	INCQ R13
	MOVQ R13, 8(R9)
	ADDQ CX, R8
	MOVQ R8, anc-72(SP)
	JMP  crep0

cpending:
#ifdef CHAIN16
	MOVQ R8, rip+152(FP)
#else
	MOVQ R8, rip+160(FP)
#endif
	MOVQ anc-72(SP), AX
#ifdef CHAIN16
	MOVQ AX, ranchor+160(FP)
#else
	MOVQ AX, ranchor+168(FP)
#endif
	MOVQ r1-56(SP), AX
#ifdef CHAIN16
	MOVQ AX, rrep1+168(FP)
#else
	MOVQ AX, rrep1+176(FP)
#endif
	MOVQ r2-64(SP), AX
#ifdef CHAIN16
	MOVQ AX, rrep2+176(FP)
#else
	MOVQ AX, rrep2+184(FP)
#endif
	MOVQ ml-8(SP), AX
#ifdef CHAIN16
	MOVQ AX, best+184(FP)
#else
	MOVQ AX, best+192(FP)
#endif
	MOVQ moff-16(SP), AX
#ifdef CHAIN16
	MOVQ AX, off+192(FP)
#else
	MOVQ AX, off+200(FP)
#endif
	MOVQ mst-32(SP), AX
#ifdef CHAIN16
	MOVQ AX, st+200(FP)
#else
	MOVQ AX, st+208(FP)
#endif
	MOVQ isrep-24(SP), AX
#ifdef CHAIN16
	MOVQ AX, rep+208(FP)
	MOVQ R15, nextOut+216(FP)
#else
	MOVQ AX, rep+216(FP)
	MOVQ R15, nextOut+224(FP)
#endif
	RET

cnothing:
#ifdef CHAIN16
	MOVQ R8, rip+152(FP)
#else
	MOVQ R8, rip+160(FP)
#endif
	MOVQ anc-72(SP), AX
#ifdef CHAIN16
	MOVQ AX, ranchor+160(FP)
#else
	MOVQ AX, ranchor+168(FP)
#endif
	MOVQ r1-56(SP), AX
#ifdef CHAIN16
	MOVQ AX, rrep1+168(FP)
#else
	MOVQ AX, rrep1+176(FP)
#endif
	MOVQ r2-64(SP), AX
#ifdef CHAIN16
	MOVQ AX, rrep2+176(FP)
	MOVQ $0, best+184(FP)
	MOVQ $0, off+192(FP)
	MOVQ R8, st+200(FP)
	MOVQ $0, rep+208(FP)
	MOVQ R15, nextOut+216(FP)
#else
	MOVQ AX, rrep2+184(FP)
	MOVQ $0, best+192(FP)
	MOVQ $0, off+200(FP)
	MOVQ R8, st+208(FP)
	MOVQ $0, rep+216(FP)
	MOVQ R15, nextOut+224(FP)
#endif
	RET
#undef LZSEARCH
#undef LZDONE
