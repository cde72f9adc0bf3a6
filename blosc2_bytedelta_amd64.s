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
