//go:build !purego && !noasm && gc

#include "textflag.h"

// bytedelta over 16-byte vectors, SSE2 only (the amd64 baseline).
//
// Registers: SI source, DI destination, CX vectors left, X0 the vector,
// X1 and X2 its shifted copies or total, X7 what carries over between
// vectors (the previous vector when encoding; the running total in every
// lane when decoding).

// func byteDeltaDecodeSSE2(buf []byte) byte
TEXT ·byteDeltaDecodeSSE2(SB), NOSPLIT, $0-25
	MOVQ buf_base+0(FP), SI
	MOVQ buf_len+8(FP), CX
	SHRQ $4, CX
	PXOR X7, X7
	TESTQ CX, CX
	JZ   decdone

decloop:
	// Prefix sum of the 16 bytes in four shifted adds (PSLLO shifts the
	// whole register by bytes), then the running total so far.
	MOVOU (SI), X0
	MOVO  X0, X1
	PSLLO $1, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $2, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $4, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $8, X1
	PADDB X1, X0

	// The vector's own total (its byte 15) in every lane of X2: double it
	// into word 7, copy word 7 over the high quadword, that quadword over
	// the low one. Only the two adds of X7 depend on earlier vectors.
	MOVO       X0, X2
	PUNPCKHBW  X2, X2
	PSHUFHW    $0xff, X2, X2
	PUNPCKHQDQ X2, X2
	PADDB      X7, X0
	PADDB      X2, X7
	MOVOU      X0, (SI)
	ADDQ       $16, SI
	DECQ       CX
	JNZ        decloop

decdone:
	MOVQ X7, AX
	MOVB AL, ret+24(FP)
	RET

// func byteDeltaEncodeSSE2(out []byte, in []byte) byte
TEXT ·byteDeltaEncodeSSE2(SB), NOSPLIT, $0-49
	MOVQ out_base+0(FP), DI
	MOVQ in_base+24(FP), SI
	MOVQ in_len+32(FP), CX
	SHRQ $4, CX
	PXOR X7, X7
	TESTQ CX, CX
	JZ   encdone

encloop:
	// Each byte minus the one before it: the vector shifted up a byte,
	// with the previous vector's last byte in byte 0.
	MOVOU (SI), X0
	MOVO  X0, X1
	PSLLO $1, X1
	PSRLO $15, X7
	POR   X7, X1
	MOVO  X0, X2
	PSUBB X1, X2
	MOVOU X2, (DI)
	MOVO  X0, X7
	ADDQ  $16, SI
	ADDQ  $16, DI
	DECQ  CX
	JNZ   encloop

encdone:
	PSRLO $15, X7
	MOVQ  X7, AX
	MOVB  AL, ret+48(FP)
	RET

// The AVX2 loops, over 32-byte vectors: the same steps, with the byte
// shifts done per 128-bit lane (VPSLLDQ, VPALIGNR) and what crosses from
// the low lane to the high one moved by VPERM2I128.
//
// Registers: SI source, DI destination, CX vectors left, Y0 the vector,
// Y1 and Y2 shifted or broadcast copies, Y7 what carries over between
// vectors (as above), Y15 the byte index 15 in every byte (VPSHUFB then
// broadcasts each lane's last byte over the lane).

// func byteDeltaDecodeAVX2(buf []byte) byte
TEXT ·byteDeltaDecodeAVX2(SB), NOSPLIT, $0-25
	MOVQ   buf_base+0(FP), SI
	MOVQ   buf_len+8(FP), CX
	SHRQ   $5, CX
	VPXOR  Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     avxdecdone
	MOVL   $0x0f0f0f0f, AX
	MOVD   AX, X15
	VPBROADCASTD X15, Y15

avxdecloop:
	// Each lane's prefix sum in four shifted adds.
	VMOVDQU (SI), Y0
	VPSLLDQ $1, Y0, Y1
	VPADDB  Y1, Y0, Y0
	VPSLLDQ $2, Y0, Y1
	VPADDB  Y1, Y0, Y0
	VPSLLDQ $4, Y0, Y1
	VPADDB  Y1, Y0, Y0
	VPSLLDQ $8, Y0, Y1
	VPADDB  Y1, Y0, Y0

	// The low lane's total added to every byte of the high lane.
	VPSHUFB    Y15, Y0, Y1
	VPERM2I128 $0x08, Y1, Y1, Y2
	VPADDB     Y2, Y0, Y0

	// The vector's total (byte 31) in every byte, as in the SSE2 loop:
	// only the two adds of Y7 depend on earlier vectors.
	VPSHUFB    Y15, Y0, Y1
	VPERM2I128 $0x11, Y1, Y1, Y2
	VPADDB     Y7, Y0, Y0
	VPADDB     Y2, Y7, Y7
	VMOVDQU    Y0, (SI)
	ADDQ       $32, SI
	DECQ       CX
	JNZ        avxdecloop

avxdecdone:
	VMOVD      X7, AX
	MOVB       AL, ret+24(FP)
	VZEROUPPER
	RET

// func byteDeltaEncodeAVX2(out []byte, in []byte) byte
TEXT ·byteDeltaEncodeAVX2(SB), NOSPLIT, $0-49
	MOVQ  out_base+0(FP), DI
	MOVQ  in_base+24(FP), SI
	MOVQ  in_len+32(FP), CX
	SHRQ  $5, CX
	VPXOR Y7, Y7, Y7
	TESTQ CX, CX
	JZ    avxencdone

avxencloop:
	// The vector shifted up a byte, the previous vector's last byte in
	// byte 0: VPERM2I128 puts the previous high lane below the current
	// low one, VPALIGNR takes each lane's byte before it from there.
	VMOVDQU    (SI), Y0
	VPERM2I128 $0x21, Y0, Y7, Y1
	VPALIGNR   $15, Y1, Y0, Y2
	VPSUBB     Y2, Y0, Y3
	VMOVDQU    Y3, (DI)
	VMOVDQA    Y0, Y7
	ADDQ       $32, SI
	ADDQ       $32, DI
	DECQ       CX
	JNZ        avxencloop

avxencdone:
	VEXTRACTI128 $1, Y7, X7
	VPEXTRB      $15, X7, AX
	MOVB         AL, ret+48(FP)
	VZEROUPPER
	RET
