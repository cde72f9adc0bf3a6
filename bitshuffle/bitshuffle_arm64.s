//go:build !purego && !noasm && gc

#include "textflag.h"

// NEON bit shuffle, blocks of 16 elements (two groups of 8). The plan is the
// one the amd64 generator documents: for each chunk of 8 byte columns
// j0..j0+7, vector k holds byte j0+d of element 8g+k at byte 2d+g; an 8x8
// bit transpose across the 8 vectors leaves in vector b, halfword d, the two
// bytes this block adds to bit row 8(j0+d)+b. Unshuffle runs it backwards.
//
// Registers:
//   R0       bit-row side: dst when shuffling, src when unshuffling; +2 a block
//   R1       element side: src when shuffling, dst when unshuffling; +16*typesize a block
//   R2       typesize
//   R3       rowLen, the length of one bit row
//   R4       blocks left
//   R5       8*typesize, from element k to element 8+k
//   R6       8*rowLen, from bit row r to r+8
//   R7       nd = min(typesize, 8), byte columns that exist in a chunk
//   R8       j0, the chunk's first byte column
//   R9       element pointer (element k, column j0)
//   R10      bit row 8*j0 at this block; then the row of the current b
//   R11      scratch
//   R12      row pointer walking rows 8(j0+d)+b
//   R13      one halfword of a bit row
//   V0-V7    the 8 vectors: indexed by element k before the transpose, bit b after
//   V8       scratch
//   V9-V11   masks 0x55, 0x33, 0x0f in every byte
//   V16-V23  unshuffle: element 8*0+k bytes j0.. (low half)
//   V24-V31  unshuffle: element 8*1+k bytes j0.. (low half)

// PAIR swaps the off-diagonal s x s blocks of bits between A and B.
#define PAIR(A, B, S, M) \
	VUSHR $S, A.D2, V8.D2;         \
	VEOR  B.B16, V8.B16, V8.B16;   \
	VAND  M.B16, V8.B16, V8.B16;   \
	VEOR  V8.B16, B.B16, B.B16;    \
	VSHL  $S, V8.D2, V8.D2;        \
	VEOR  V8.B16, A.B16, A.B16

// TRANSPOSE8 swaps bit b of Vk with bit k of Vb in every byte.
#define TRANSPOSE8 \
	PAIR(V0, V1, 1, V9);  PAIR(V2, V3, 1, V9);  PAIR(V4, V5, 1, V9);  PAIR(V6, V7, 1, V9);  \
	PAIR(V0, V2, 2, V10); PAIR(V1, V3, 2, V10); PAIR(V4, V6, 2, V10); PAIR(V5, V7, 2, V10); \
	PAIR(V0, V4, 4, V11); PAIR(V1, V5, 4, V11); PAIR(V2, V6, 4, V11); PAIR(V3, V7, 4, V11)

// SETUP loads the arguments; ROWS and ELEMS name the row and element sides.
#define SETUP(ROWS, ELEMS) \
	MOVD ROWS, R0;               \
	MOVD ELEMS, R1;              \
	MOVD typesize+48(FP), R2;    \
	MOVD rowLen+56(FP), R3;      \
	MOVD blocks+64(FP), R4;      \
	LSL  $3, R2, R5;             \
	LSL  $3, R3, R6;             \
	MOVD $8, R7;                 \
	CMP  $8, R2;                 \
	CSEL LT, R2, R7, R7;         \
	VMOVI $0x55, V9.B16;         \
	VMOVI $0x33, V10.B16;        \
	VMOVI $0x0f, V11.B16

// CHUNK points R9 and R10 at column j0 of this block.
#define CHUNK \
	ADD R8, R1, R9;  \
	MUL R8, R6, R10; \
	ADD R0, R10, R10

// NEXT moves to the next chunk (j0+8, clamped to typesize-8 so the last
// chunk overlaps the previous one) or, after the last, to the next block.
#define NEXT(chunk, block, done) \
	ADD  $8, R8, R11;          \
	CMP  R2, R11;              \
	BHS  done;                 \
	MOVD R11, R8;              \
	ADD  $8, R11, R11;         \
	CMP  R2, R11;              \
	BLS  chunk;                \
	SUB  $8, R2, R8;           \
	B    chunk;                \
done:                          \
	ADD  R5<<1, R1, R1;        \
	ADD  $2, R0, R0;           \
	SUBS $1, R4, R4;           \
	BNE  block;                \
	RET

// LOADK gathers element k and 8+k (at R9 and R9+8*typesize) into Vk as
// [d][g], then steps R9 to the next element.
#define LOADK(V, F) \
	FMOVD (R9), F;              \
	FMOVD (R9)(R5), F8;         \
	VZIP1 V8.B16, V.B16, V.B16; \
	ADD   R2, R9, R9

// STORE writes halfword d of Vb to R12 when d < nd, then steps R12 to row
// 8(j0+d+1)+b.
#define STORE(V, D, done) \
	CMP  $D, R7;            \
	BLE  done;              \
	VMOV V.H[D], R13;       \
	MOVH R13, (R12);        \
	ADD  R6, R12, R12

// STOREB writes the halfwords of Vb to rows 8(j0+d)+b, d < nd.
#define STOREB(V, done) \
	MOVD R10, R12;                                              \
	STORE(V, 0, done); STORE(V, 1, done); STORE(V, 2, done); STORE(V, 3, done); \
	STORE(V, 4, done); STORE(V, 5, done); STORE(V, 6, done); STORE(V, 7, done); \
done:                                                               \
	ADD R3, R10, R10

// func shuffleNEON(dst, src []byte, typesize, rowLen, blocks int)
TEXT ·shuffleNEON(SB), NOSPLIT, $0-72
	SETUP(dst_base+0(FP), src_base+24(FP))

sblock:
	MOVD ZR, R8

schunk:
	CHUNK
	LOADK(V0, F0)
	LOADK(V1, F1)
	LOADK(V2, F2)
	LOADK(V3, F3)
	LOADK(V4, F4)
	LOADK(V5, F5)
	LOADK(V6, F6)
	LOADK(V7, F7)
	TRANSPOSE8
	STOREB(V0, sdone0)
	STOREB(V1, sdone1)
	STOREB(V2, sdone2)
	STOREB(V3, sdone3)
	STOREB(V4, sdone4)
	STOREB(V5, sdone5)
	STOREB(V6, sdone6)
	STOREB(V7, sdone7)
	NEXT(schunk, sblock, schunksdone)

// LOADD reads halfword d of bit rows 8(j0+d)+b, b = 0..7, into Vb.
#define LOADD(D, done) \
	CMP   $D, R7;                                   \
	BLE   done;                                     \
	MOVHU (R12), R13; VMOV R13, V0.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V1.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V2.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V3.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V4.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V5.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V6.H[D]; ADD R3, R12, R12; \
	MOVHU (R12), R13; VMOV R13, V7.H[D]; ADD R3, R12, R12

// SPLIT separates Vk's [d][g] bytes into element k (even bytes, E) and
// element 8+k (odd bytes, O).
#define SPLIT(V, E, O) \
	VUZP1 V.B16, V.B16, E.B16; \
	VUZP2 V.B16, V.B16, O.B16

// func unshuffleNEON(dst, src []byte, typesize, rowLen, blocks int)
TEXT ·unshuffleNEON(SB), NOSPLIT, $0-72
	SETUP(src_base+24(FP), dst_base+0(FP))

ublock:
	MOVD ZR, R8

uchunk:
	CHUNK
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	MOVD R10, R12
	LOADD(0, uloaded)
	LOADD(1, uloaded)
	LOADD(2, uloaded)
	LOADD(3, uloaded)
	LOADD(4, uloaded)
	LOADD(5, uloaded)
	LOADD(6, uloaded)
	LOADD(7, uloaded)

uloaded:
	TRANSPOSE8
	SPLIT(V0, V16, V24)
	SPLIT(V1, V17, V25)
	SPLIT(V2, V18, V26)
	SPLIT(V3, V19, V27)
	SPLIT(V4, V20, V28)
	SPLIT(V5, V21, V29)
	SPLIT(V6, V22, V30)
	SPLIT(V7, V23, V31)

	// Stores in address order: for typesizes below 8 each 8-byte store
	// runs into the next element, which its own later store repairs.
	FMOVD F16, (R9); ADD R2, R9, R9
	FMOVD F17, (R9); ADD R2, R9, R9
	FMOVD F18, (R9); ADD R2, R9, R9
	FMOVD F19, (R9); ADD R2, R9, R9
	FMOVD F20, (R9); ADD R2, R9, R9
	FMOVD F21, (R9); ADD R2, R9, R9
	FMOVD F22, (R9); ADD R2, R9, R9
	FMOVD F23, (R9); ADD R2, R9, R9
	FMOVD F24, (R9); ADD R2, R9, R9
	FMOVD F25, (R9); ADD R2, R9, R9
	FMOVD F26, (R9); ADD R2, R9, R9
	FMOVD F27, (R9); ADD R2, R9, R9
	FMOVD F28, (R9); ADD R2, R9, R9
	FMOVD F29, (R9); ADD R2, R9, R9
	FMOVD F30, (R9); ADD R2, R9, R9
	FMOVD F31, (R9)
	NEXT(uchunk, ublock, uchunksdone)


// The superblock kernels run the block plan above on 4 blocks (64
// elements) and stage vector b of block sb at stage[b][sb] (16 bytes), so
// that each bit row then takes one 8-byte store per superblock instead of
// four 2-byte ones. Registers as above, plus:
//   R14      stage base: 512 bytes, stage[b][sb] at 64*b + 16*sb
//   R19      row pointer walking rows 8(j0+d)+b for one b
//   V12-V15  stage[b][0..3] of one b; after ROWTRN, rows d|d+4
//   V16-V19  halfword transposes in between

// ROWTRN turns the staged vectors of one b, V12-V15 = blocks 0-3 as [d][g],
// into V12 = rows d0|d4, V13 = d2|d6, V14 = d1|d5, V15 = d3|d7, each row
// 8 bytes [sb][g]. ROWTRNINV undoes it.
#define ROWTRN \
	VTRN1 V13.H8, V12.H8, V16.H8; \
	VTRN2 V13.H8, V12.H8, V17.H8; \
	VTRN1 V15.H8, V14.H8, V18.H8; \
	VTRN2 V15.H8, V14.H8, V19.H8; \
	VTRN1 V18.S4, V16.S4, V12.S4; \
	VTRN2 V18.S4, V16.S4, V13.S4; \
	VTRN1 V19.S4, V17.S4, V14.S4; \
	VTRN2 V19.S4, V17.S4, V15.S4

#define ROWTRNINV \
	VTRN1 V13.S4, V12.S4, V16.S4; \
	VTRN2 V13.S4, V12.S4, V18.S4; \
	VTRN1 V15.S4, V14.S4, V17.S4; \
	VTRN2 V15.S4, V14.S4, V19.S4; \
	VTRN1 V17.H8, V16.H8, V12.H8; \
	VTRN2 V17.H8, V16.H8, V13.H8; \
	VTRN1 V19.H8, V18.H8, V14.H8; \
	VTRN2 V19.H8, V18.H8, V15.H8

// NEXTSUPER is NEXT for superblocks: 64 elements, 8 bytes of each row.
#define NEXTSUPER(chunk, block, done) \
	ADD  $8, R8, R11;          \
	CMP  R2, R11;              \
	BHS  done;                 \
	MOVD R11, R8;              \
	ADD  $8, R11, R11;         \
	CMP  R2, R11;              \
	BLS  chunk;                \
	SUB  $8, R2, R8;           \
	B    chunk;                \
done:                          \
	ADD  R5<<3, R1, R1;        \
	ADD  $8, R0, R0;           \
	SUBS $1, R4, R4;           \
	BNE  block;                \
	RET

// SBLOCK loads, transposes and stages block SB (R9 at its element 0,
// column j0; left at the next block's).
#define SBLOCK(SB) \
	LOADK(V0, F0); LOADK(V1, F1); LOADK(V2, F2); LOADK(V3, F3); \
	LOADK(V4, F4); LOADK(V5, F5); LOADK(V6, F6); LOADK(V7, F7); \
	ADD   R5, R9, R9; \
	TRANSPOSE8;       \
	FMOVQ F0, (0*64+SB*16)(R14); FMOVQ F1, (1*64+SB*16)(R14); \
	FMOVQ F2, (2*64+SB*16)(R14); FMOVQ F3, (3*64+SB*16)(R14); \
	FMOVQ F4, (4*64+SB*16)(R14); FMOVQ F5, (5*64+SB*16)(R14); \
	FMOVQ F6, (6*64+SB*16)(R14); FMOVQ F7, (7*64+SB*16)(R14)

// ROWLO / ROWHI store the low or high 8 bytes of V at R19 when COL < nd,
// then step R19 to the next row group.
#define ROWLO(V, F, COL, done) \
	CMP   $COL, R7;  \
	BLE   done;    \
	FMOVD F, (R19); \
	ADD   R6, R19, R19

#define ROWHI(V, COL, done) \
	CMP  $COL, R7;    \
	BLE  done;        \
	VMOV V.D[1], R13; \
	MOVD R13, (R19);  \
	ADD  R6, R19, R19

// SROWS writes the 8 rows 8(j0+d)+B, d < nd, from stage[B][*].
#define SROWS(B, done) \
	FMOVQ (B*64+0)(R14), F12;  \
	FMOVQ (B*64+16)(R14), F13; \
	FMOVQ (B*64+32)(R14), F14; \
	FMOVQ (B*64+48)(R14), F15; \
	ROWTRN;                    \
	MOVD  R10, R19;            \
	ROWLO(V12, F12, 0, done); ROWLO(V14, F14, 1, done); \
	ROWLO(V13, F13, 2, done); ROWLO(V15, F15, 3, done); \
	ROWHI(V12, 4, done); ROWHI(V14, 5, done);           \
	ROWHI(V13, 6, done); ROWHI(V15, 7, done);           \
done:                                                   \
	ADD   R3, R10, R10

// func shuffleNEONSuper(dst, src []byte, typesize, rowLen, blocks int)
TEXT ·shuffleNEONSuper(SB), NOSPLIT, $512-72
	SETUP(dst_base+0(FP), src_base+24(FP))
	MOVD $stage-512(SP), R14

ssblock:
	MOVD ZR, R8

sschunk:
	CHUNK
	SBLOCK(0)
	SBLOCK(1)
	SBLOCK(2)
	SBLOCK(3)
	SROWS(0, ssrows0)
	SROWS(1, ssrows1)
	SROWS(2, ssrows2)
	SROWS(3, ssrows3)
	SROWS(4, ssrows4)
	SROWS(5, ssrows5)
	SROWS(6, ssrows6)
	SROWS(7, ssrows7)
	NEXTSUPER(sschunk, ssblock, sschunksdone)

// LROW loads row 8(j0+COL)+b (8 bytes at R19) into half HALF of V when
// COL < nd.
#define LROW(V, HALF, COL, done) \
	CMP  $COL, R7;      \
	BLE  done;          \
	MOVD (R19), R13;    \
	VMOV R13, V.D[HALF]; \
	ADD  R6, R19, R19

// UROWS reads the rows of B and stages them as stage[B][*].
#define UROWS(B, done) \
	VEOR  V12.B16, V12.B16, V12.B16; \
	VEOR  V13.B16, V13.B16, V13.B16; \
	VEOR  V14.B16, V14.B16, V14.B16; \
	VEOR  V15.B16, V15.B16, V15.B16; \
	MOVD  R10, R19;                  \
	LROW(V12, 0, 0, done); LROW(V14, 0, 1, done); \
	LROW(V13, 0, 2, done); LROW(V15, 0, 3, done); \
	LROW(V12, 1, 4, done); LROW(V14, 1, 5, done); \
	LROW(V13, 1, 6, done); LROW(V15, 1, 7, done); \
done:                                            \
	ROWTRNINV;                                   \
	FMOVQ F12, (B*64+0)(R14);                    \
	FMOVQ F13, (B*64+16)(R14);                   \
	FMOVQ F14, (B*64+32)(R14);                   \
	FMOVQ F15, (B*64+48)(R14);                   \
	ADD   R3, R10, R10

// UBLOCK turns stage[*][SB] back into the 16 elements of block SB, stored
// in address order from R9, which it leaves at the next block.
#define UBLOCK(SB) \
	FMOVQ (0*64+SB*16)(R14), F0; FMOVQ (1*64+SB*16)(R14), F1; \
	FMOVQ (2*64+SB*16)(R14), F2; FMOVQ (3*64+SB*16)(R14), F3; \
	FMOVQ (4*64+SB*16)(R14), F4; FMOVQ (5*64+SB*16)(R14), F5; \
	FMOVQ (6*64+SB*16)(R14), F6; FMOVQ (7*64+SB*16)(R14), F7; \
	TRANSPOSE8; \
	SPLIT(V0, V16, V24); SPLIT(V1, V17, V25); SPLIT(V2, V18, V26); SPLIT(V3, V19, V27); \
	SPLIT(V4, V20, V28); SPLIT(V5, V21, V29); SPLIT(V6, V22, V30); SPLIT(V7, V23, V31); \
	FMOVD F16, (R9); ADD R2, R9, R9; FMOVD F17, (R9); ADD R2, R9, R9; \
	FMOVD F18, (R9); ADD R2, R9, R9; FMOVD F19, (R9); ADD R2, R9, R9; \
	FMOVD F20, (R9); ADD R2, R9, R9; FMOVD F21, (R9); ADD R2, R9, R9; \
	FMOVD F22, (R9); ADD R2, R9, R9; FMOVD F23, (R9); ADD R2, R9, R9; \
	FMOVD F24, (R9); ADD R2, R9, R9; FMOVD F25, (R9); ADD R2, R9, R9; \
	FMOVD F26, (R9); ADD R2, R9, R9; FMOVD F27, (R9); ADD R2, R9, R9; \
	FMOVD F28, (R9); ADD R2, R9, R9; FMOVD F29, (R9); ADD R2, R9, R9; \
	FMOVD F30, (R9); ADD R2, R9, R9; FMOVD F31, (R9); ADD R2, R9, R9

// func unshuffleNEONSuper(dst, src []byte, typesize, rowLen, blocks int)
TEXT ·unshuffleNEONSuper(SB), NOSPLIT, $512-72
	SETUP(src_base+24(FP), dst_base+0(FP))
	MOVD $stage-512(SP), R14

usblock:
	MOVD ZR, R8

uschunk:
	CHUNK
	UROWS(0, usrows0)
	UROWS(1, usrows1)
	UROWS(2, usrows2)
	UROWS(3, usrows3)
	UROWS(4, usrows4)
	UROWS(5, usrows5)
	UROWS(6, usrows6)
	UROWS(7, usrows7)

	// Stores in address order, block after block: later elements repair
	// what earlier ones overran.
	UBLOCK(0)
	UBLOCK(1)
	UBLOCK(2)
	UBLOCK(3)
	NEXTSUPER(uschunk, usblock, uschunksdone)
