//go:build !purego && !noasm && gc

#include "textflag.h"

// bytedelta over 16-byte NEON vectors. VEXT with the vector before (or
// with zeros) shifts a vector up by bytes across its whole width.
//
// Register roles:
//   R0        out (encode) or buf (decode), advanced per vector
//   R1        in (encode), advanced per vector; the result at the end
//   R2        vectors left
//   V0        the vector
//   V1, V2    its shifted copy, difference or broadcast total
//   V6        zero (decode)
//   V7        what carries over between vectors: the previous vector
//             (encode), the running total in every byte (decode)

// func byteDeltaEncodeNEON(out, in []byte) byte
TEXT ·byteDeltaEncodeNEON(SB), NOSPLIT, $0-49
	MOVD	out_base+0(FP), R0
	MOVD	in_base+24(FP), R1
	MOVD	in_len+32(FP), R2
	LSR	$4, R2, R2
	VEOR	V7.B16, V7.B16, V7.B16
	CBZ	R2, encdone

encloop:
	// [previous byte 15, bytes 0..14]: each byte's predecessor.
	VLD1.P	16(R1), [V0.B16]
	VEXT	$15, V0.B16, V7.B16, V1.B16
	VSUB	V1.B16, V0.B16, V2.B16
	VST1.P	[V2.B16], 16(R0)
	VMOV	V0.B16, V7.B16
	SUBS	$1, R2, R2
	BNE	encloop

encdone:
	VMOV	V7.B[15], R1
	MOVB	R1, ret+48(FP)
	RET

// func byteDeltaDecodeNEON(buf []byte) byte
TEXT ·byteDeltaDecodeNEON(SB), NOSPLIT, $0-25
	MOVD	buf_base+0(FP), R0
	MOVD	buf_len+8(FP), R2
	LSR	$4, R2, R2
	VEOR	V6.B16, V6.B16, V6.B16
	VEOR	V7.B16, V7.B16, V7.B16
	CBZ	R2, decdone

decloop:
	// The vector's prefix sum in four adds of itself shifted up by 1, 2,
	// 4 and 8 bytes (zeros shifted in), then the running total; the
	// vector's own total (byte 15) broadcast and added to the running
	// one, the only add that waits for the vector before.
	VLD1	(R0), [V0.B16]
	VEXT	$15, V0.B16, V6.B16, V1.B16
	VADD	V1.B16, V0.B16, V0.B16
	VEXT	$14, V0.B16, V6.B16, V1.B16
	VADD	V1.B16, V0.B16, V0.B16
	VEXT	$12, V0.B16, V6.B16, V1.B16
	VADD	V1.B16, V0.B16, V0.B16
	VEXT	$8, V0.B16, V6.B16, V1.B16
	VADD	V1.B16, V0.B16, V0.B16
	VDUP	V0.B[15], V2.B16
	VADD	V7.B16, V0.B16, V0.B16
	VADD	V2.B16, V7.B16, V7.B16
	VST1.P	[V0.B16], 16(R0)
	SUBS	$1, R2, R2
	BNE	decloop

decdone:
	VMOV	V7.B[0], R1
	MOVB	R1, ret+24(FP)
	RET
