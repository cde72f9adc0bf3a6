//go:build !purego && !noasm && gc

#include "textflag.h"

// Byte shuffle and unshuffle kernels for arm64 Advanced SIMD (NEON), for
// typesizes 2 to 16. Each call processes `blocks` blocks of 16
// elements; the Go side (dispatch_arm64.go) covers what is left over.
//
// A block of 16 elements of p bytes is p vectors of 16 bytes. Give a byte
// the address [element | byte-in-element] on the element side and
// [byte-in-element | element] on the stream side: shuffling rotates the
// address right by log2(p) bits, unshuffling left by log2(p). One pass of
// VUZP1/VUZP2 over pairs (v[2k], v[2k+1]) rotates the address of the whole
// block right by one bit, one pass of VZIP1/VZIP2 over (v[k], v[k+p/2])
// left by one bit, so each direction is log2(p) passes. Passes alternate
// between two register banks so no pass overwrites its own input.
//
// Register roles, the same in every kernel:
//   R0        dst: element side (unshuffle) or stream 0 (shuffle), advanced per block
//   R1        src: element side (shuffle) or stream 0 (unshuffle), advanced per block
//   R2        n: element count of the whole buffer, the distance between streams
//   R3        blocks left to do
//   R4-R17,
//   R19       streams 1..15 on the stream side, advanced per block
//             (R18 is the platform register and stays untouched)
//   R21       ts, in the kernels shared by several typesizes
//   R22       the VTBL table's address, then the bytes one lane covers
//             on the element side (the post-increment of its loads/stores)
//   V0-V15    bank A: loaded vectors, and the results of even passes
//   V16-V31   bank B: the results of odd passes (V31 holds the VTBL table
//             in the padded kernels whose bank B stops short of it)

// UZP writes to lo the even bytes and to hi the odd bytes of a:b.
#define UZP(a, b, lo, hi) \
	VUZP1	b, a, lo; \
	VUZP2	b, a, hi

// ZIP interleaves the bytes of a and b: the low halves into lo, the high
// halves into hi.
#define ZIP(a, b, lo, hi) \
	VZIP1	b, a, lo; \
	VZIP2	b, a, hi

// ARGS loads the arguments every kernel starts with.
#define ARGS \
	MOVD	dst+0(FP), R0; \
	MOVD	src+8(FP), R1; \
	MOVD	n+16(FP), R2; \
	MOVD	blocks+24(FP), R3

// STREAMSk(base) points R4, R5, ... (skipping R18) at streams 1..k, n
// bytes apart from stream 0 at base.
#define STREAMS1(base) \
	ADD	R2, base, R4
#define STREAMS2(base) \
	STREAMS1(base); \
	ADD	R2, R4, R5
#define STREAMS3(base) \
	STREAMS2(base); \
	ADD	R2, R5, R6
#define STREAMS6(base) \
	STREAMS3(base); \
	ADD	R2, R6, R7; \
	ADD	R2, R7, R8; \
	ADD	R2, R8, R9
#define STREAMS7(base) \
	STREAMS6(base); \
	ADD	R2, R9, R10
#define STREAMS14(base) \
	STREAMS7(base); \
	ADD	R2, R10, R11; \
	ADD	R2, R11, R12; \
	ADD	R2, R12, R13; \
	ADD	R2, R13, R14; \
	ADD	R2, R14, R15; \
	ADD	R2, R15, R16; \
	ADD	R2, R16, R17
#define STREAMS15(base) \
	STREAMS14(base); \
	ADD	R2, R17, R19

// LOAD_STREAMSk loads one vector from each of streams 0..k-1 (R1, then
// the STREAMS registers) into V0..Vk-1; STORE_STREAMS16 stores V0..V15 to
// streams 0..15 (R0, then the STREAMS registers), STORE_STREAMS8 stores
// V16..V23 to streams 0..7.
#define LOAD_STREAMS8 \
	VLD1.P	16(R1), [V0.B16]; \
	VLD1.P	16(R4), [V1.B16]; \
	VLD1.P	16(R5), [V2.B16]; \
	VLD1.P	16(R6), [V3.B16]; \
	VLD1.P	16(R7), [V4.B16]; \
	VLD1.P	16(R8), [V5.B16]; \
	VLD1.P	16(R9), [V6.B16]; \
	VLD1.P	16(R10), [V7.B16]
#define LOAD_STREAMS16 \
	LOAD_STREAMS8; \
	VLD1.P	16(R11), [V8.B16]; \
	VLD1.P	16(R12), [V9.B16]; \
	VLD1.P	16(R13), [V10.B16]; \
	VLD1.P	16(R14), [V11.B16]; \
	VLD1.P	16(R15), [V12.B16]; \
	VLD1.P	16(R16), [V13.B16]; \
	VLD1.P	16(R17), [V14.B16]; \
	VLD1.P	16(R19), [V15.B16]
#define STORE_STREAMS8 \
	VST1.P	[V16.B16], 16(R0); \
	VST1.P	[V17.B16], 16(R4); \
	VST1.P	[V18.B16], 16(R5); \
	VST1.P	[V19.B16], 16(R6); \
	VST1.P	[V20.B16], 16(R7); \
	VST1.P	[V21.B16], 16(R8); \
	VST1.P	[V22.B16], 16(R9); \
	VST1.P	[V23.B16], 16(R10)
#define STORE_STREAMS16 \
	VST1.P	[V0.B16], 16(R0); \
	VST1.P	[V1.B16], 16(R4); \
	VST1.P	[V2.B16], 16(R5); \
	VST1.P	[V3.B16], 16(R6); \
	VST1.P	[V4.B16], 16(R7); \
	VST1.P	[V5.B16], 16(R8); \
	VST1.P	[V6.B16], 16(R9); \
	VST1.P	[V7.B16], 16(R10); \
	VST1.P	[V8.B16], 16(R11); \
	VST1.P	[V9.B16], 16(R12); \
	VST1.P	[V10.B16], 16(R13); \
	VST1.P	[V11.B16], 16(R14); \
	VST1.P	[V12.B16], 16(R15); \
	VST1.P	[V13.B16], 16(R16); \
	VST1.P	[V14.B16], 16(R17); \
	VST1.P	[V15.B16], 16(R19)

// One UZP pass of an 8- or 16-vector block, from bank A (V0...) to bank B
// (V16...) or back; the ZIP passes likewise.
#define UZP8_AB \
	UZP(V0.B16, V1.B16, V16.B16, V20.B16); \
	UZP(V2.B16, V3.B16, V17.B16, V21.B16); \
	UZP(V4.B16, V5.B16, V18.B16, V22.B16); \
	UZP(V6.B16, V7.B16, V19.B16, V23.B16)
#define UZP8_BA \
	UZP(V16.B16, V17.B16, V0.B16, V4.B16); \
	UZP(V18.B16, V19.B16, V1.B16, V5.B16); \
	UZP(V20.B16, V21.B16, V2.B16, V6.B16); \
	UZP(V22.B16, V23.B16, V3.B16, V7.B16)
#define UZP16_AB \
	UZP(V0.B16, V1.B16, V16.B16, V24.B16); \
	UZP(V2.B16, V3.B16, V17.B16, V25.B16); \
	UZP(V4.B16, V5.B16, V18.B16, V26.B16); \
	UZP(V6.B16, V7.B16, V19.B16, V27.B16); \
	UZP(V8.B16, V9.B16, V20.B16, V28.B16); \
	UZP(V10.B16, V11.B16, V21.B16, V29.B16); \
	UZP(V12.B16, V13.B16, V22.B16, V30.B16); \
	UZP(V14.B16, V15.B16, V23.B16, V31.B16)
#define UZP16_BA \
	UZP(V16.B16, V17.B16, V0.B16, V8.B16); \
	UZP(V18.B16, V19.B16, V1.B16, V9.B16); \
	UZP(V20.B16, V21.B16, V2.B16, V10.B16); \
	UZP(V22.B16, V23.B16, V3.B16, V11.B16); \
	UZP(V24.B16, V25.B16, V4.B16, V12.B16); \
	UZP(V26.B16, V27.B16, V5.B16, V13.B16); \
	UZP(V28.B16, V29.B16, V6.B16, V14.B16); \
	UZP(V30.B16, V31.B16, V7.B16, V15.B16)
#define ZIP8_AB \
	ZIP(V0.B16, V4.B16, V16.B16, V17.B16); \
	ZIP(V1.B16, V5.B16, V18.B16, V19.B16); \
	ZIP(V2.B16, V6.B16, V20.B16, V21.B16); \
	ZIP(V3.B16, V7.B16, V22.B16, V23.B16)
#define ZIP8_BA \
	ZIP(V16.B16, V20.B16, V0.B16, V1.B16); \
	ZIP(V17.B16, V21.B16, V2.B16, V3.B16); \
	ZIP(V18.B16, V22.B16, V4.B16, V5.B16); \
	ZIP(V19.B16, V23.B16, V6.B16, V7.B16)
#define ZIP16_AB \
	ZIP(V0.B16, V8.B16, V16.B16, V17.B16); \
	ZIP(V1.B16, V9.B16, V18.B16, V19.B16); \
	ZIP(V2.B16, V10.B16, V20.B16, V21.B16); \
	ZIP(V3.B16, V11.B16, V22.B16, V23.B16); \
	ZIP(V4.B16, V12.B16, V24.B16, V25.B16); \
	ZIP(V5.B16, V13.B16, V26.B16, V27.B16); \
	ZIP(V6.B16, V14.B16, V28.B16, V29.B16); \
	ZIP(V7.B16, V15.B16, V30.B16, V31.B16)
#define ZIP16_BA \
	ZIP(V16.B16, V24.B16, V0.B16, V1.B16); \
	ZIP(V17.B16, V25.B16, V2.B16, V3.B16); \
	ZIP(V18.B16, V26.B16, V4.B16, V5.B16); \
	ZIP(V19.B16, V27.B16, V6.B16, V7.B16); \
	ZIP(V20.B16, V28.B16, V8.B16, V9.B16); \
	ZIP(V21.B16, V29.B16, V10.B16, V11.B16); \
	ZIP(V22.B16, V30.B16, V12.B16, V13.B16); \
	ZIP(V23.B16, V31.B16, V14.B16, V15.B16)

// func shuffle2NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·shuffle2NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS1(R0)

loop:
	VLD1.P	32(R1), [V0.B16, V1.B16]
	UZP(V0.B16, V1.B16, V16.B16, V17.B16)
	VST1.P	[V16.B16], 16(R0)
	VST1.P	[V17.B16], 16(R4)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshuffle2NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·unshuffle2NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS1(R1)

loop:
	VLD1.P	16(R1), [V0.B16]
	VLD1.P	16(R4), [V1.B16]
	ZIP(V0.B16, V1.B16, V16.B16, V17.B16)
	VST1.P	[V16.B16, V17.B16], 32(R0)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func shuffle4NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·shuffle4NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS3(R0)

loop:
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	UZP(V0.B16, V1.B16, V16.B16, V18.B16)
	UZP(V2.B16, V3.B16, V17.B16, V19.B16)
	UZP(V16.B16, V17.B16, V0.B16, V2.B16)
	UZP(V18.B16, V19.B16, V1.B16, V3.B16)
	VST1.P	[V0.B16], 16(R0)
	VST1.P	[V1.B16], 16(R4)
	VST1.P	[V2.B16], 16(R5)
	VST1.P	[V3.B16], 16(R6)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshuffle4NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·unshuffle4NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS3(R1)

loop:
	VLD1.P	16(R1), [V0.B16]
	VLD1.P	16(R4), [V1.B16]
	VLD1.P	16(R5), [V2.B16]
	VLD1.P	16(R6), [V3.B16]
	ZIP(V0.B16, V2.B16, V16.B16, V17.B16)
	ZIP(V1.B16, V3.B16, V18.B16, V19.B16)
	ZIP(V16.B16, V18.B16, V0.B16, V1.B16)
	ZIP(V17.B16, V19.B16, V2.B16, V3.B16)
	VST1.P	[V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func shuffle8NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·shuffle8NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS7(R0)

loop:
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P	64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	UZP8_AB
	UZP8_BA
	UZP8_AB
	STORE_STREAMS8
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshuffle8NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·unshuffle8NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS7(R1)

loop:
	LOAD_STREAMS8
	ZIP8_AB
	ZIP8_BA
	ZIP8_AB
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)
	VST1.P	[V20.B16, V21.B16, V22.B16, V23.B16], 64(R0)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func shuffle16NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·shuffle16NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS15(R0)

loop:
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P	64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	VLD1.P	64(R1), [V8.B16, V9.B16, V10.B16, V11.B16]
	VLD1.P	64(R1), [V12.B16, V13.B16, V14.B16, V15.B16]
	UZP16_AB
	UZP16_BA
	UZP16_AB
	UZP16_BA
	STORE_STREAMS16
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshuffle16NEON(dst *byte, src *byte, n int, blocks int)
TEXT ·unshuffle16NEON(SB), NOSPLIT, $0-32
	ARGS
	CBZ	R3, done
	STREAMS15(R1)

loop:
	LOAD_STREAMS16
	ZIP16_AB
	ZIP16_BA
	ZIP16_AB
	ZIP16_BA
	VST1.P	[V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)
	VST1.P	[V4.B16, V5.B16, V6.B16, V7.B16], 64(R0)
	VST1.P	[V8.B16, V9.B16, V10.B16, V11.B16], 64(R0)
	VST1.P	[V12.B16, V13.B16, V14.B16, V15.B16], 64(R0)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// Typesizes that are not powers of two pad every element to p bytes (the
// next power of two) and run the p-byte network. A 16-byte lane holds 16/p
// elements: shuffling loads it from ts*16/p bytes of src (reading up to
// 16-16*ts/p bytes past the block, which the Go side leaves room for) and
// spreads it with VTBL (V31 holds the table); unshuffling packs each lane
// back with VTBL and stores all 16 bytes in address order, so every store's
// overflow is rewritten by the next one. With p = 16 a lane is one element
// and bytes past ts only ever meet streams past ts, which are neither
// stored nor loaded, so those kernels need no table.

// func shuffle3NEON(dst *byte, src *byte, n int, blocks int, table *byte)
TEXT ·shuffle3NEON(SB), NOSPLIT, $0-40
	ARGS
	MOVD	table+32(FP), R22
	CBZ	R3, done
	VLD1	(R22), [V31.B16]
	MOVD	$12, R22
	STREAMS2(R0)

loop:
	VLD1.P	(R1)(R22), [V0.B16]
	VLD1.P	(R1)(R22), [V1.B16]
	VLD1.P	(R1)(R22), [V2.B16]
	VLD1.P	(R1)(R22), [V3.B16]
	VTBL	V31.B16, [V0.B16], V0.B16
	VTBL	V31.B16, [V1.B16], V1.B16
	VTBL	V31.B16, [V2.B16], V2.B16
	VTBL	V31.B16, [V3.B16], V3.B16
	UZP(V0.B16, V1.B16, V16.B16, V18.B16)
	UZP(V2.B16, V3.B16, V17.B16, V19.B16)
	UZP(V16.B16, V17.B16, V0.B16, V2.B16)
	UZP(V18.B16, V19.B16, V1.B16, V3.B16)
	VST1.P	[V0.B16], 16(R0)
	VST1.P	[V1.B16], 16(R4)
	VST1.P	[V2.B16], 16(R5)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshuffle3NEON(dst *byte, src *byte, n int, blocks int, table *byte)
TEXT ·unshuffle3NEON(SB), NOSPLIT, $0-40
	ARGS
	MOVD	table+32(FP), R22
	CBZ	R3, done
	VLD1	(R22), [V31.B16]
	MOVD	$12, R22
	STREAMS2(R1)

loop:
	VLD1.P	16(R1), [V0.B16]
	VLD1.P	16(R4), [V1.B16]
	VLD1.P	16(R5), [V2.B16]
	VEOR	V3.B16, V3.B16, V3.B16
	ZIP(V0.B16, V2.B16, V16.B16, V17.B16)
	ZIP(V1.B16, V3.B16, V18.B16, V19.B16)
	ZIP(V16.B16, V18.B16, V0.B16, V1.B16)
	ZIP(V17.B16, V19.B16, V2.B16, V3.B16)
	VTBL	V31.B16, [V0.B16], V0.B16
	VTBL	V31.B16, [V1.B16], V1.B16
	VTBL	V31.B16, [V2.B16], V2.B16
	VTBL	V31.B16, [V3.B16], V3.B16
	VST1.P	[V0.B16], (R0)(R22)
	VST1.P	[V1.B16], (R0)(R22)
	VST1.P	[V2.B16], (R0)(R22)
	VST1.P	[V3.B16], (R0)(R22)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func shufflePad8NEON(dst *byte, src *byte, n int, blocks int, ts int, table *byte)
// ts is 5, 6 or 7.
TEXT ·shufflePad8NEON(SB), NOSPLIT, $0-48
	ARGS
	MOVD	ts+32(FP), R21
	MOVD	table+40(FP), R22
	CBZ	R3, done
	VLD1	(R22), [V31.B16]
	LSL	$1, R21, R22
	STREAMS6(R0)

loop:
	VLD1.P	(R1)(R22), [V0.B16]
	VLD1.P	(R1)(R22), [V1.B16]
	VLD1.P	(R1)(R22), [V2.B16]
	VLD1.P	(R1)(R22), [V3.B16]
	VLD1.P	(R1)(R22), [V4.B16]
	VLD1.P	(R1)(R22), [V5.B16]
	VLD1.P	(R1)(R22), [V6.B16]
	VLD1.P	(R1)(R22), [V7.B16]
	VTBL	V31.B16, [V0.B16], V0.B16
	VTBL	V31.B16, [V1.B16], V1.B16
	VTBL	V31.B16, [V2.B16], V2.B16
	VTBL	V31.B16, [V3.B16], V3.B16
	VTBL	V31.B16, [V4.B16], V4.B16
	VTBL	V31.B16, [V5.B16], V5.B16
	VTBL	V31.B16, [V6.B16], V6.B16
	VTBL	V31.B16, [V7.B16], V7.B16
	UZP8_AB
	UZP8_BA
	UZP8_AB
	VST1.P	[V16.B16], 16(R0)
	VST1.P	[V17.B16], 16(R4)
	VST1.P	[V18.B16], 16(R5)
	VST1.P	[V19.B16], 16(R6)
	VST1.P	[V20.B16], 16(R7)
	CMP	$5, R21
	BEQ	next
	VST1.P	[V21.B16], 16(R8)
	CMP	$6, R21
	BEQ	next
	VST1.P	[V22.B16], 16(R9)

next:
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshufflePad8NEON(dst *byte, src *byte, n int, blocks int, ts int, table *byte)
// ts is 5, 6 or 7.
TEXT ·unshufflePad8NEON(SB), NOSPLIT, $0-48
	ARGS
	MOVD	ts+32(FP), R21
	MOVD	table+40(FP), R22
	CBZ	R3, done
	VLD1	(R22), [V31.B16]
	LSL	$1, R21, R22
	STREAMS6(R1)

loop:
	VLD1.P	16(R1), [V0.B16]
	VLD1.P	16(R4), [V1.B16]
	VLD1.P	16(R5), [V2.B16]
	VLD1.P	16(R6), [V3.B16]
	VLD1.P	16(R7), [V4.B16]
	VEOR	V5.B16, V5.B16, V5.B16
	VEOR	V6.B16, V6.B16, V6.B16
	VEOR	V7.B16, V7.B16, V7.B16
	CMP	$5, R21
	BEQ	loaded
	VLD1.P	16(R8), [V5.B16]
	CMP	$6, R21
	BEQ	loaded
	VLD1.P	16(R9), [V6.B16]

loaded:
	ZIP8_AB
	ZIP8_BA
	ZIP8_AB
	VTBL	V31.B16, [V16.B16], V16.B16
	VTBL	V31.B16, [V17.B16], V17.B16
	VTBL	V31.B16, [V18.B16], V18.B16
	VTBL	V31.B16, [V19.B16], V19.B16
	VTBL	V31.B16, [V20.B16], V20.B16
	VTBL	V31.B16, [V21.B16], V21.B16
	VTBL	V31.B16, [V22.B16], V22.B16
	VTBL	V31.B16, [V23.B16], V23.B16
	VST1.P	[V16.B16], (R0)(R22)
	VST1.P	[V17.B16], (R0)(R22)
	VST1.P	[V18.B16], (R0)(R22)
	VST1.P	[V19.B16], (R0)(R22)
	VST1.P	[V20.B16], (R0)(R22)
	VST1.P	[V21.B16], (R0)(R22)
	VST1.P	[V22.B16], (R0)(R22)
	VST1.P	[V23.B16], (R0)(R22)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func shufflePad16NEON(dst *byte, src *byte, n int, blocks int, ts int)
// ts is 9 to 15.
TEXT ·shufflePad16NEON(SB), NOSPLIT, $0-40
	ARGS
	MOVD	ts+32(FP), R21
	CBZ	R3, done
	STREAMS14(R0)

loop:
	VLD1.P	(R1)(R21), [V0.B16]
	VLD1.P	(R1)(R21), [V1.B16]
	VLD1.P	(R1)(R21), [V2.B16]
	VLD1.P	(R1)(R21), [V3.B16]
	VLD1.P	(R1)(R21), [V4.B16]
	VLD1.P	(R1)(R21), [V5.B16]
	VLD1.P	(R1)(R21), [V6.B16]
	VLD1.P	(R1)(R21), [V7.B16]
	VLD1.P	(R1)(R21), [V8.B16]
	VLD1.P	(R1)(R21), [V9.B16]
	VLD1.P	(R1)(R21), [V10.B16]
	VLD1.P	(R1)(R21), [V11.B16]
	VLD1.P	(R1)(R21), [V12.B16]
	VLD1.P	(R1)(R21), [V13.B16]
	VLD1.P	(R1)(R21), [V14.B16]
	VLD1.P	(R1)(R21), [V15.B16]
	UZP16_AB
	UZP16_BA
	UZP16_AB
	UZP16_BA
	VST1.P	[V0.B16], 16(R0)
	VST1.P	[V1.B16], 16(R4)
	VST1.P	[V2.B16], 16(R5)
	VST1.P	[V3.B16], 16(R6)
	VST1.P	[V4.B16], 16(R7)
	VST1.P	[V5.B16], 16(R8)
	VST1.P	[V6.B16], 16(R9)
	VST1.P	[V7.B16], 16(R10)
	VST1.P	[V8.B16], 16(R11)
	CMP	$9, R21
	BEQ	next
	VST1.P	[V9.B16], 16(R12)
	CMP	$10, R21
	BEQ	next
	VST1.P	[V10.B16], 16(R13)
	CMP	$11, R21
	BEQ	next
	VST1.P	[V11.B16], 16(R14)
	CMP	$12, R21
	BEQ	next
	VST1.P	[V12.B16], 16(R15)
	CMP	$13, R21
	BEQ	next
	VST1.P	[V13.B16], 16(R16)
	CMP	$14, R21
	BEQ	next
	VST1.P	[V14.B16], 16(R17)

next:
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET

// func unshufflePad16NEON(dst *byte, src *byte, n int, blocks int, ts int)
// ts is 9 to 15.
TEXT ·unshufflePad16NEON(SB), NOSPLIT, $0-40
	ARGS
	MOVD	ts+32(FP), R21
	CBZ	R3, done
	STREAMS14(R1)

loop:
	LOAD_STREAMS8
	VLD1.P	16(R11), [V8.B16]
	VEOR	V9.B16, V9.B16, V9.B16
	VEOR	V10.B16, V10.B16, V10.B16
	VEOR	V11.B16, V11.B16, V11.B16
	VEOR	V12.B16, V12.B16, V12.B16
	VEOR	V13.B16, V13.B16, V13.B16
	VEOR	V14.B16, V14.B16, V14.B16
	VEOR	V15.B16, V15.B16, V15.B16
	CMP	$9, R21
	BEQ	loaded
	VLD1.P	16(R12), [V9.B16]
	CMP	$10, R21
	BEQ	loaded
	VLD1.P	16(R13), [V10.B16]
	CMP	$11, R21
	BEQ	loaded
	VLD1.P	16(R14), [V11.B16]
	CMP	$12, R21
	BEQ	loaded
	VLD1.P	16(R15), [V12.B16]
	CMP	$13, R21
	BEQ	loaded
	VLD1.P	16(R16), [V13.B16]
	CMP	$14, R21
	BEQ	loaded
	VLD1.P	16(R17), [V14.B16]

loaded:
	ZIP16_AB
	ZIP16_BA
	ZIP16_AB
	ZIP16_BA
	VST1.P	[V0.B16], (R0)(R21)
	VST1.P	[V1.B16], (R0)(R21)
	VST1.P	[V2.B16], (R0)(R21)
	VST1.P	[V3.B16], (R0)(R21)
	VST1.P	[V4.B16], (R0)(R21)
	VST1.P	[V5.B16], (R0)(R21)
	VST1.P	[V6.B16], (R0)(R21)
	VST1.P	[V7.B16], (R0)(R21)
	VST1.P	[V8.B16], (R0)(R21)
	VST1.P	[V9.B16], (R0)(R21)
	VST1.P	[V10.B16], (R0)(R21)
	VST1.P	[V11.B16], (R0)(R21)
	VST1.P	[V12.B16], (R0)(R21)
	VST1.P	[V13.B16], (R0)(R21)
	VST1.P	[V14.B16], (R0)(R21)
	VST1.P	[V15.B16], (R0)(R21)
	SUBS	$1, R3, R3
	BNE	loop

done:
	RET
