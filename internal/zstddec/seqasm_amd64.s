//go:build !purego && !noasm && gc

#include "textflag.h"

// Offsets of seqCtx's fields (seqctx.go), and of the Decoder's table
// buffers after it (TestSeqCtxLayout).
#define ctx_buf 0
#define ctx_bp 8
#define ctx_used 16
#define ctx_llState 24
#define ctx_mlState 32
#define ctx_ofState 40
#define ctx_out 48
#define ctx_pos 56
#define ctx_outLimit 64
#define ctx_lits 72
#define ctx_lp 80
#define ctx_litLimit 88
#define ctx_window 96
#define ctx_rep0 104
#define ctx_rep1 112
#define ctx_rep2 120
#define ctx_nseq 128
#define ctx_ll 136
#define ctx_ml 144
#define ctx_off 152
#define ctx_outEnd 160
#define ctx_litEnd 168
#define ctx_llBuf 176
#define ctx_mlBuf 4272
#define ctx_ofBuf 8368

// A seqEntry's fields.
#define e_base 0
#define e_nbAdd 4
#define e_nbBits 5
#define e_next 6

// The bit reader: R8 holds the 8 bytes of the stream at R10, read from
// the top bit down, and R9 counts the bits of R8 not yet read (64 minus
// seqCtx.used), so the next n bits are R8 >> (R9-n), the low n of them.

// REFILL moves the loaded word down by the whole bytes read, not below
// the buffer's start, and loads it: at least 57 unread bits after it
// while the stream lasts. Uses AX, CX.
#define REFILL \
	MOVQ $64, AX \
	SUBQ R9, AX \
	SHRQ $3, AX \
	CMPQ AX, R10 \
	CMOVQHI R10, AX \
	SUBQ AX, R10 \
	LEAQ (R9)(AX*8), R9 \
	MOVQ ctx_buf(DI), CX \
	MOVQ (CX)(R10*1), R8

// READBITS sets AX to the CX next bits (CX <= 31, 0 reads none) and
// moves past them.
#define READBITS \
	SUBQ  CX, R9 \
	SHRXQ R9, R8, AX \
	BZHIQ CX, AX, AX

// func decodeSeqsBMI2(c *seqCtx) int
//
// Registers: DI the context; R8 the loaded word of the bit stream, R9
// its bits not yet read, R10 where it starts in the buffer; R11 the output
// pointer, R12 the literals pointer; R14, R13, BX the literal length,
// match length and offset states; R15 the last offset (the first
// repeated one; the other two stay in the context); AX, CX, DX, SI, BP
// scratch, SI the offset value and DX the literal length once decoded.
// The sequences left are counted in the context. The frame makes the
// assembler save BP.
TEXT ·decodeSeqsBMI2(SB), NOSPLIT, $8-16
	MOVQ c+0(FP), DI
	MOVQ ctx_bp(DI), R10
	MOVQ $64, R9
	SUBQ ctx_used(DI), R9
	MOVQ ctx_buf(DI), CX
	MOVQ (CX)(R10*1), R8
	MOVQ ctx_llState(DI), R14
	MOVQ ctx_rep0(DI), R15
	MOVQ ctx_mlState(DI), R13
	MOVQ ctx_ofState(DI), BX
	MOVQ ctx_out(DI), R11
	MOVQ R11, AX
	ADDQ ctx_pos(DI), R11
	ADDQ ctx_outLimit(DI), AX
	MOVQ AX, ctx_outEnd(DI)
	MOVQ ctx_lits(DI), R12
	MOVQ R12, AX
	ADDQ ctx_lp(DI), R12
	ADDQ ctx_litLimit(DI), AX
	MOVQ AX, ctx_litEnd(DI)

loop:
	CMPQ ctx_nseq(DI), $0
	JEQ  done

	// Refill. At most 64 bits are read since the last one, so the word
	// moves down 8 bytes at most: with 8 bytes below it, no clamp.
	CMPQ R10, $8
	JCS  refillClamped
	MOVQ $64, AX
	SUBQ R9, AX
	SHRQ $3, AX
	SUBQ AX, R10
	LEAQ (R9)(AX*8), R9
	MOVQ ctx_buf(DI), CX
	MOVQ (CX)(R10*1), R8

refilled:

	// Offset value: its code's baseline plus extra bits, into SI.
	MOVBQZX ctx_ofBuf+e_nbAdd(DI)(BX*8), CX
	READBITS
	MOVL    ctx_ofBuf+e_base(DI)(BX*8), SI
	ADDQ    AX, SI

	// Match length.
	MOVBQZX ctx_mlBuf+e_nbAdd(DI)(R13*8), CX
	READBITS
	MOVL    ctx_mlBuf+e_base(DI)(R13*8), DX
	ADDQ    DX, AX
	MOVQ    AX, ctx_ml(DI)

	// Refill only if the literal length's extra bits and the three
	// state updates (26 bits at most) would run past the word.
	MOVBQZX ctx_llBuf+e_nbAdd(DI)(R14*8), CX
	MOVQ    R9, AX
	SUBQ    CX, AX
	CMPQ    AX, $26
	JGE     literalLength
	REFILL
	MOVBQZX ctx_llBuf+e_nbAdd(DI)(R14*8), CX

literalLength:
	// Literal length, into DX.
	READBITS
	MOVL    ctx_llBuf+e_base(DI)(R14*8), DX
	ADDQ    AX, DX

	// The states move on, except after the last sequence.
	DECQ ctx_nseq(DI)
	JEQ  offset
	MOVBQZX ctx_llBuf+e_nbBits(DI)(R14*8), CX
	READBITS
	MOVWQZX ctx_llBuf+e_next(DI)(R14*8), R14
	ADDQ    AX, R14
	MOVBQZX ctx_mlBuf+e_nbBits(DI)(R13*8), CX
	READBITS
	MOVWQZX ctx_mlBuf+e_next(DI)(R13*8), R13
	ADDQ    AX, R13
	MOVBQZX ctx_ofBuf+e_nbBits(DI)(BX*8), CX
	READBITS
	MOVWQZX ctx_ofBuf+e_next(DI)(BX*8), BX
	ADDQ    AX, BX

offset:
	// A new offset (value above 3) or a repeated one, into AX.
	CMPQ SI, $3
	JLS  repeat
	LEAQ -3(SI), AX
	MOVQ ctx_rep1(DI), CX
	MOVQ CX, ctx_rep2(DI)
	MOVQ R15, ctx_rep1(DI)
	MOVQ AX, R15
	JMP  exec

repeat:
	// Index ofv-1, one more after no literals, into SI; the offset and
	// the repeated ones chosen by it with no branch, as the index follows
	// no pattern a predictor learns: 0 keeps them, 1 swaps the first
	// two, 2 moves the third to the front, 3 pushes the first minus one.
	// The first stays in R15: a run of repeated offsets waits on no
	// store.
	CMPQ    DX, $1
	ADCQ    $-1, SI
	MOVQ    ctx_rep1(DI), CX
	MOVQ    R15, AX
	CMPQ    SI, $3
	ADCQ    $-1, AX
	CMPQ    SI, $1
	CMOVQEQ CX, AX
	CMPQ    SI, $2
	CMOVQEQ ctx_rep2(DI), AX
	MOVQ    ctx_rep2(DI), BP
	CMOVQCC CX, BP
	MOVQ    BP, ctx_rep2(DI)
	TESTQ   SI, SI
	CMOVQNE R15, CX
	MOVQ    CX, ctx_rep1(DI)
	MOVQ    AX, R15

exec:
	// AX the offset, DX the literal length, CX the match length. The
	// fast path needs the literals and 16 bytes after them in lits, 64
	// bytes after the match in out, and an offset within the window and
	// the output; the caller executes the others and reports errors.
	MOVQ ctx_ml(DI), CX
	LEAQ (R12)(DX*1), SI
	CMPQ SI, ctx_litEnd(DI)
	JHI  slow
	LEAQ (R11)(DX*1), SI
	ADDQ CX, SI
	CMPQ SI, ctx_outEnd(DI)
	JHI  slow
	LEAQ -1(AX), SI // 0 wraps round: one compare refuses 0 and beyond the window
	CMPQ SI, ctx_window(DI)
	JCC  slow
	LEAQ (R11)(DX*1), SI
	SUBQ AX, SI
	CMPQ SI, ctx_out(DI)
	JCS  slow

	// Literals, 16 bytes at a time.
	MOVOU (R12), X0
	MOVOU X0, (R11)
	CMPQ  DX, $16
	JLS   litDone
	MOVQ  $16, SI

litLoop:
	MOVOU (R12)(SI*1), X0
	MOVOU X0, (R11)(SI*1)
	ADDQ  $16, SI
	CMPQ  SI, DX
	JCS   litLoop

litDone:
	ADDQ DX, R11
	ADDQ DX, R12

	MOVQ R11, SI
	SUBQ AX, SI
	CMPQ AX, $16
	JCS  shortOffset

	// The match, 16 bytes at a time: each load starts at least 16 bytes
	// before its store, as the offset is 16 or more, so it reads bytes
	// already written. Most matches are short: the first 16 bytes alone
	// finish them, as libzstd's wild copy does. From 64 bytes back the
	// loads reach no byte this match stores: 64 bytes are copied with no
	// branch on the length, which is hard to predict.
	MOVOU (SI), X0
	MOVOU X0, (R11)
	CMPQ  CX, $16
	JLS   matchDone
	CMPQ  AX, $64
	JCS   nearMatch
	MOVOU 16(SI), X1
	MOVOU X1, 16(R11)
	MOVOU 32(SI), X2
	MOVOU X2, 32(R11)
	MOVOU 48(SI), X3
	MOVOU X3, 48(R11)
	CMPQ  CX, $64
	JLS   matchDone
	MOVQ  $64, DX
	JMP   matchLoop

nearMatch:
	MOVOU 16(SI), X1
	MOVOU X1, 16(R11)
	CMPQ  CX, $32
	JLS   matchDone
	MOVQ  $32, DX

matchLoop:
	MOVOU (SI)(DX*1), X0
	MOVOU X0, (R11)(DX*1)
	ADDQ  $16, DX
	CMPQ  DX, CX
	JCS   matchLoop

matchDone:
	ADDQ CX, R11
	JMP  loop

shortOffset:
	// An offset below 16: a match overlapping itself, the off bytes
	// before it repeating. The match is stored 16 bytes at a time from
	// X0, loaded once: no load reads bytes the match has just stored.
	CMPQ AX, $1
	JNE  period

	// Offset 1 repeats the last byte: a byte load, which the store that
	// wrote it forwards, spread over 16.
	MOVBQZX    -1(R11), SI
	MOVQ       $0x0101010101010101, DX
	IMULQ      DX, SI
	MOVQ       SI, X0
	PUNPCKLQDQ X0, X0
	XORL       DX, DX

runLoop:
	MOVOU X0, (R11)(DX*1)
	ADDQ  $16, DX
	CMPQ  DX, CX
	JCS   runLoop
	ADDQ  CX, R11
	JMP   loop

period:
	// Offsets 2 to 15: the off bytes spread over 16 by a shuffle
	// (seqPeriodic's row for the offset: byte i takes byte i mod off; the
	// load reads past them, inside out, bytes the shuffle ignores), and
	// each next 16 bytes from the last by another (seqPeriodicNext's row:
	// byte i takes byte (16+i) mod off).
	SHLQ   $4, AX
	LEAQ   ·seqPeriodic(SB), DX
	MOVOU  (DX)(AX*1), X1
	MOVOU  (SI), X0
	PSHUFB X1, X0
	MOVOU  X0, (R11)
	CMPQ   CX, $16
	JLS    matchDone
	LEAQ   ·seqPeriodicNext(SB), DX
	MOVOU  (DX)(AX*1), X1
	MOVQ   $16, DX

periodLoop:
	PSHUFB X1, X0
	MOVOU  X0, (R11)(DX*1)
	ADDQ   $16, DX
	CMPQ   DX, CX
	JCS    periodLoop
	ADDQ   CX, R11
	JMP    loop

refillClamped:
	REFILL
	JMP refilled

slow:
	MOVQ DX, ctx_ll(DI)
	MOVQ AX, ctx_off(DI)
	MOVQ $1, AX
	JMP  save

done:
	XORL AX, AX

save:
	MOVQ R15, ctx_rep0(DI)
	MOVQ R10, ctx_bp(DI)
	MOVQ $64, CX
	SUBQ R9, CX
	MOVQ CX, ctx_used(DI)
	MOVQ R14, ctx_llState(DI)
	MOVQ R13, ctx_mlState(DI)
	MOVQ BX, ctx_ofState(DI)
	SUBQ ctx_out(DI), R11
	MOVQ R11, ctx_pos(DI)
	SUBQ ctx_lits(DI), R12
	MOVQ R12, ctx_lp(DI)
	MOVQ AX, ret+8(FP)
	RET
