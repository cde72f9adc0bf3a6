//go:build !purego && !noasm && gc

#include "textflag.h"

// Registers of insertLoop:
//   SI  the bytes of the next position to insert (p, then p+1, ...)
//   DI  the hash table (uint32 entries), R8 the chain table (uint16)
//   AX  the index being inserted, R11 the next one, DX the target
//   BX  a position's hash, CX its distance to the previous entry
//   R9  the index's low 16 bits (its chain slot), R10 distanceMax

// INSERT(off, index): inserts the position at off(SI), of index index:
// its hash's entry gives the distance, capped at 0xFFFF, that goes to
// its chain slot; then the entry becomes index.
#define INSERT(off, index) \
	IMUL3L $-1640531535, off(SI), BX \
	SHRL   $17, BX \
	MOVL   index, CX \
	SUBL   (DI)(BX*4), CX \
	CMPL   CX, R10 \
	CMOVLHI R10, CX \
	MOVWLZX index, R9 \
	MOVW   CX, (R8)(R9*2) \
	MOVL   index, (DI)(BX*4)

// func insertLoop(p *byte, hash *[hcHashSize]uint32, chain *[hcChainSize]uint16, idx, target uint32)
TEXT ·insertLoop(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ hash+8(FP), DI
	MOVQ chain+16(FP), R8
	MOVL idx+24(FP), AX
	MOVL target+28(FP), DX
	MOVL $0xFFFF, R10
	// Two positions a step while idx+2 <= target.
	LEAL 2(AX), R11
	CMPL R11, DX
	JHI  single

pair:
	INSERT(0, AX)
	LEAL 1(AX), R11
	INSERT(1, R11)
	ADDQ $2, SI
	ADDL $2, AX
	LEAL 2(AX), R11
	CMPL R11, DX
	JLS  pair

single:
	CMPL AX, DX
	JAE  done
	INSERT(0, AX)

done:
	RET
