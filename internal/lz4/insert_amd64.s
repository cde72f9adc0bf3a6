//go:build !purego && !noasm && gc

#include "textflag.h"

// Registers of insertLoop:
//   SI  the bytes of the next position to insert (p, then p+1, ...)
//   DI  the hash table (uint32 entries)
//   R8  the chain table (uint16 entries), R13 the next position's slot
//   AX  the index being inserted, R11 another of the same step
//   DX  the target, R12 and R14 counts of positions left
//   BX  a position's hash, CX its distance to the previous entry
//   R9  scratch, R10 distanceMax
//
// The chain's slot of an index is its low 16 bits. Within a segment that
// does not wrap around the chain, the slots are consecutive: a pointer
// steps through them, four positions a step.

// INSERT(off, index): inserts the position at off(SI), of index index:
// its hash's entry gives the distance, capped at distanceMax, that goes
// to its chain slot, off*2(R13); then the entry becomes index.
#define INSERT(off, index) \
	IMUL3L  $-1640531535, off(SI), BX \
	SHRL    $17, BX \
	MOVL    index, CX \
	SUBL    (DI)(BX*4), CX \
	CMPL    CX, R10 \
	CMOVLHI R10, CX \
	MOVW    CX, (off*2)(R13) \
	MOVL    index, (DI)(BX*4)

// func insertLoop(p *byte, hash *[hcHashSize]uint32, chain *[hcChainSize]uint16, idx, target uint32)
TEXT ·insertLoop(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ hash+8(FP), DI
	MOVQ chain+16(FP), R8
	MOVL idx+24(FP), AX
	MOVL target+28(FP), DX
	MOVL $0xFFFF, R10
	// Fewer than 8 positions (most calls from the searches' insertion
	// of a short match): one at a time, without a segment's setup.
	MOVL DX, R12
	SUBL AX, R12
	CMPL R12, $8
	JAE  segment
	TESTL R12, R12
	JZ   done

short:
	MOVWLZX AX, R9
	LEAQ    (R8)(R9*2), R13
	INSERT(0, AX)
	INCQ SI
	INCL AX
	DECL R12
	JNZ  short
	RET

segment:
	CMPL AX, DX
	JAE  done
	// R12 = min(target-idx, the slots left before the chain wraps).
	MOVWLZX AX, R9
	LEAQ    (R8)(R9*2), R13
	MOVL    $0x10000, R12
	SUBL    R9, R12
	MOVL    DX, R14
	SUBL    AX, R14
	CMPL    R14, R12
	CMOVLCS R14, R12
	MOVL    R12, R14
	SHRL    $2, R14
	JZ      tail

quad:
	INSERT(0, AX)
	LEAL 1(AX), R11
	INSERT(1, R11)
	LEAL 2(AX), R11
	INSERT(2, R11)
	LEAL 3(AX), R11
	INSERT(3, R11)
	ADDQ $4, SI
	ADDQ $8, R13
	ADDL $4, AX
	DECL R14
	JNZ  quad

tail:
	ANDL $3, R12
	JZ   segment

single:
	INSERT(0, AX)
	INCQ SI
	ADDQ $2, R13
	INCL AX
	DECL R12
	JNZ  single
	JMP  segment

done:
	RET
