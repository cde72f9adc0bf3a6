//go:build !purego && !noasm && gc

#include "textflag.h"

// MATCH_END_BYTES(off): AX holds the XOR of the match's and the input's
// 8 bytes at ip+off-4, the input's in BX. It leaves in AX the length of
// their common prefix in bytes, and in BX the bytes at the match's end:
// those of BX, or of the 8 at ip+off when the prefix is 4 bytes or more,
// shifted down by the prefix modulo 4. CX, the hash's shift, is the byte
// shift meanwhile and is reloaded.
#define MATCH_END_BYTES(off) \
	MOVQ off(SI)(R9*1), R15 \
	TZCNTQ AX, AX \
	MOVL AX, CX \
	ANDL $24, CX \
	SHRQ CX, BX \
	SHRQ CX, R15 \
	CMPL AX, $32 \
	CMOVQCC R15, BX \
	MOVQ shift+64(FP), CX \
	SHRL $3, AX

// NEXT_RUN starts the search's next run of equal steps: BX takes the step
// nextStep holds, nextStep grows by one, and R15, the loop's limit on ip,
// becomes the position 64 such steps on, or mflb if that comes first.
#define NEXT_RUN \
	MOVQ nextStep-24(SP), BX \
	LEAQ 1(BX), R13 \
	MOVQ R13, nextStep-24(SP) \
	MOVQ BX, R13 \
	SHLQ $6, R13 \
	LEAQ -1(R9)(R13*1), R15 \
	CMPQ R15, mflb-32(SP) \
	CMOVQGT mflb-32(SP), R15

// func compressLoop(table *uint32, base int, dst, src []byte, shift uint, prime uint64, acceleration, checkLen int) (di, anchor int)
//
// The loop of compress, step for step, with every value of the search and
// of the sequences in a register. Positions are indices into src and dst.
// A table entry is base+position; hash(v) = v*prime >> shift.
//
// Registers:
//	SI	src (lowered by base in the byU16 search loop)
//	DI	dst (the table index in the search loop, reloaded after it)
//	R8	table
//	R9	ip (base+ip in the byU16 search loop)
//	R10	anchor (the literals' source pointer while they are copied)
//	R11	di, the next byte of dst
//	R12	match
//	R13	token
//	R14	base (the hash's multiplier in the byU32 search loop)
//	CX	shift, for SHRQ CX
//	BX	litLen; step in the search loop; the bytes at ip in the rematch
//	R15	the search loop's limit on ip; scratch elsewhere
//	AX, DX	scratch
//
// Frame: mfl = len(src)-mfLimit+1, mlim = len(src)-lastLiterals (the
// matchLimit of countMatch), nextStep, the search's step after the current
// run of equal steps, and mflb = base+mfl. The shift tells the tables
// apart: 51 for byU16, 52 for byU32, whose base must be 0. The search
// loops hash with their table's constants in the instructions.
//
// On return di is -1 where compress returns 0, else compress's result is
// lastRun(dst, src, di, anchor).
TEXT ·compressLoop(SB), NOSPLIT, $32-112
	MOVQ table+0(FP), R8
	MOVQ base+8(FP), R14
	MOVQ dst_base+16(FP), DI
	MOVQ src_base+40(FP), SI
	MOVQ src_len+48(FP), AX
	LEAQ -11(AX), BX
	MOVQ BX, mfl-8(SP)
	LEAQ -5(AX), BX
	MOVQ BX, mlim-16(SP)
	LEAQ -11(AX)(R14*1), BX
	MOVQ BX, mflb-32(SP)
	MOVQ shift+64(FP), CX
	XORL R10, R10
	XORL R11, R11

	// The table entry of position 0.
	MOVQ (SI), AX
	IMULQ prime+72(FP), AX
	SHRQ CX, AX
	MOVL R14, (R8)(AX*4)
	MOVL $1, R9

search:
	MOVQ acceleration+80(FP), BX
	MOVQ BX, nextStep-24(SP)
	MOVL $1, BX
	CMPQ CX, $52
	JEQ  searchByU32

	// The byU16 table. The loop works on biased positions, base+ip, as
	// the table holds them, with SI lowered by base to match: an entry
	// below base (from an earlier call) reads as base, position 0, as in
	// a cleared table. The input is too short for a match out of reach
	// of a 2-byte offset. Each iteration steps ip by BX, and R15 is the
	// last ip at which neither the input's end (mfl) nor the end of the
	// run of equal steps (step16) is reached: one compare for both.
	SUBQ R14, SI
	ADDQ R14, R9
	MOVQ R9, R15

	PCALIGN $16
searchByU16:
	MOVL (SI)(R9*1), DX
	IMUL3L $0x9E3779B1, DX, DI
	SHRL $19, DI
	MOVL (R8)(DI*4), R12
	MOVL R9, (R8)(DI*4)
	CMPL R12, R14
	CMOVLLT R14, R12
	ADDQ BX, R9
	CMPQ R9, R15
	JGT  step16

	CMPL DX, (SI)(R12*1)
	JNE  searchByU16

found16:
	SUBQ BX, R9
	SUBQ R14, R9
	SUBQ R14, R12
	ADDQ R14, SI
	JMP  found

step16:
	// ip went past R15: past the input's end, or the step grows. The
	// first run is one step of 1, the next 64 steps of acceleration,
	// then 64 of each next step (LZ4's searchNb>>skipTrigger).
	CMPQ R9, mflb-32(SP)
	JGT  noMatch
	CMPL DX, (SI)(R12*1)
	JEQ  found16
	NEXT_RUN
	JMP  searchByU16

	// The byU32 table: base is 0 (R14 holds the hash's multiplier in
	// the loop), entries are positions.
searchByU32:
	MOVQ prime+72(FP), R14
	MOVQ R9, R15

	PCALIGN $16
searchByU32Loop:
	MOVQ (SI)(R9*1), DX
	MOVQ DX, DI
	IMULQ R14, DI
	SHRQ $52, DI
	MOVL (R8)(DI*4), R12
	MOVL R9, (R8)(DI*4)
	MOVQ R9, AX
	SUBQ R12, AX
	ADDQ BX, R9
	CMPQ R9, R15
	JGT  step32

	CMPQ AX, $65535
	JA   searchByU32Loop
	CMPL DX, (SI)(R12*1)
	JNE  searchByU32Loop

found32:
	SUBQ BX, R9
	XORL R14, R14
	JMP  found

step32:
	CMPQ R9, mflb-32(SP)
	JGT  noMatch
	CMPQ AX, $65535
	JA   newStep32
	CMPL DX, (SI)(R12*1)
	JEQ  found32

newStep32:
	NEXT_RUN
	JMP  searchByU32Loop

found:
	MOVQ dst_base+16(FP), DI

	// Extend the match backwards.
back:
	CMPQ R9, R10
	JLE  backDone
	TESTQ R12, R12
	JLE  backDone
	MOVBLZX -1(SI)(R9*1), AX
	MOVBLZX -1(SI)(R12*1), DX
	CMPL AX, DX
	JNE  backDone
	DECQ R9
	DECQ R12
	JMP  back

backDone:
	// Literals: the token, their length, then their bytes.
	MOVQ R9, BX
	SUBQ R10, BX
	MOVQ R11, R13
	INCQ R11
	CMPQ BX, $15
	JGE  longLiterals
	LEAQ 8(R11)(BX*1), AX
	CMPQ AX, checkLen+88(FP)
	JGT  fail
	MOVQ BX, AX
	SHLQ $4, AX
	MOVB AX, (DI)(R13*1)

copyLiterals:
	MOVQ dst_len+24(FP), AX
	SUBQ R11, AX
	LEAQ 8(BX), DX
	ADDQ SI, R10
	LEAQ (DI)(R11*1), R15
	CMPQ AX, DX
	JLT  copyBytes

	// Whole words while dst has 8 bytes of room past the literals; the
	// source words end before ip+8 <= len(src). An empty run copies one
	// word that the offset overwrites.
	XORL DX, DX

copyWords:
	MOVQ (R10)(DX*1), AX
	MOVQ AX, (R15)(DX*1)
	ADDQ $8, DX
	CMPQ DX, BX
	JLT  copyWords
	JMP  copied

copyBytes:
	XORL DX, DX
	TESTQ BX, BX
	JEQ  copied

copyByte:
	MOVBLZX (R10)(DX*1), AX
	MOVB AX, (R15)(DX*1)
	INCQ DX
	CMPQ DX, BX
	JLT  copyByte

copied:
	ADDQ BX, R11

sequence:
	// The offset.
	LEAQ 2(R11), AX
	CMPQ AX, dst_len+24(FP)
	JGT  fail
	MOVQ R9, DX
	SUBQ R12, DX
	MOVW DX, (DI)(R11*1)
	MOVQ AX, R11

	// The match length past minMatch: most matches end in their first 8
	// bytes past it.
	LEAQ 12(R9), AX
	CMPQ AX, mlim-16(SP)
	JGT  countFrom4
	MOVQ 4(SI)(R9*1), BX
	MOVQ 4(SI)(R12*1), AX
	XORQ BX, AX
	JEQ  countFrom12

	// The bytes at the match's end, where the rematch below hashes,
	// come from those loaded here, not from a load that would wait for
	// the length: for lengths 0 to 3 past minMatch, the bytes at ip+4
	// shifted, for 4 to 7, those at ip+8. Either way at least the 5 low
	// bytes of BX are those at the new ip, all that the hash and the
	// compare read. CX, the hash's shift, is the byte shift meanwhile.
	MATCH_END_BYTES(8)

shortLength:
	LEAQ 6(R11), DX
	CMPQ DX, checkLen+88(FP)
	JGT  fail
	ADDB AX, (DI)(R13*1)
	LEAQ 4(R9)(AX*1), R9
	MOVQ R9, R10
	CMPQ R9, mfl-8(SP)
	JGE  end

rematch:
	// The entry of ip-2, then a match right at ip, which continues
	// without literals. The entry at ip is read before ip-2's is
	// written, so that the read need not wait for that store's address,
	// known later than its own (the bytes at ip are in BX, those at ip-2
	// are loaded); when both positions hash alike, the read takes ip-2,
	// as it would after the store.
	MOVQ BX, AX
	IMULQ prime+72(FP), AX
	SHRQ CX, AX
	MOVL (R8)(AX*4), R12
	MOVQ -2(SI)(R9*1), DX
	IMULQ prime+72(FP), DX
	SHRQ CX, DX
	LEAQ -2(R14)(R9*1), R15
	MOVL R15, (R8)(DX*4)
	CMPQ DX, AX
	JEQ  rematchIp2

rematchEntry:
	SUBQ R14, R12
	JLT  rematchStale

rematchUnbiased:
	LEAQ (R14)(R9*1), DX
	MOVL DX, (R8)(AX*4)
	MOVQ R9, DX
	SUBQ R12, DX
	CMPQ DX, $65535
	JA   noRematch
	CMPL BX, (SI)(R12*1)
	JNE  noRematch
	CMPQ R11, dst_len+24(FP)
	JGE  fail
	MOVQ R11, R13
	MOVB $0, (DI)(R11*1)
	INCQ R11
	JMP  sequence

noRematch:
	INCQ R9
	JMP  search

rematchIp2:
	MOVL R15, R12
	JMP  rematchEntry

rematchStale:
	XORL R12, R12
	JMP  rematchUnbiased

matchLength:
	// AX is the match length past minMatch.
	LEAQ 4(R9)(AX*1), R9
	CMPQ AX, $15
	JGE  longMatch
	LEAQ 6(R11), DX
	CMPQ DX, checkLen+88(FP)
	JGT  fail
	ADDB AX, (DI)(R13*1)

matchWritten:
	MOVQ R9, R10
	CMPQ R9, mfl-8(SP)
	JGE  end
	MOVQ (SI)(R9*1), BX
	JMP  rematch

countFrom12:
	// The next 8 bytes as the first ones (a vector compare would make
	// these common lengths wait longer), then 16 bytes a step while
	// they end before mlim: DX runs over the input, R10 is src moved by
	// match-ip so that (R10)(DX*1) is the match's byte, R15 the last DX
	// with 16 bytes before mlim. The bytes left take the steps of
	// countMatch from count8.
	LEAQ 12(R9), DX
	LEAQ 20(R9), AX
	CMPQ AX, mlim-16(SP)
	JGT  countFrom12Tail
	MOVQ 12(SI)(R9*1), BX
	MOVQ 12(SI)(R12*1), AX
	XORQ BX, AX
	JNE  length8To15
	LEAQ 20(R9), DX
	MOVQ mlim-16(SP), R15
	SUBQ $16, R15
	MOVQ R12, R10
	SUBQ R9, R10
	LEAQ (SI)(R10*1), R10
	CMPQ DX, R15
	JGT  count16End

	PCALIGN $16
count16:
	MOVOU (R10)(DX*1), X0
	MOVOU (SI)(DX*1), X1
	PCMPEQB X1, X0
	PMOVMSKB X0, AX
	XORL $0xFFFF, AX
	JNE  count16Diff
	ADDQ $16, DX
	CMPQ DX, R15
	JLE  count16

count16End:
	MOVQ R12, BX
	SUBQ R9, BX
	ADDQ DX, BX
	JMP  count8

count16Diff:
	TZCNTL AX, AX
	ADDQ DX, AX
	JMP  counted

countFrom12Tail:
	LEAQ 12(R12), BX
	JMP  count8

length8To15:
	// As for lengths up to 7, the bytes at the match's end from those
	// loaded: at ip+12 or ip+16, shifted. A length of 15 needs the
	// longer path, which writes a length byte.
	MATCH_END_BYTES(16)
	ADDL $8, AX
	CMPL AX, $15
	JLT  shortLength
	JMP  matchLength

countFrom4:
	LEAQ 4(R9), DX
	LEAQ 4(R12), BX

	PCALIGN $16
count8:
	// countMatch: DX runs over the input, BX over the match.
	LEAQ 8(DX), AX
	CMPQ AX, mlim-16(SP)
	JGT  count4
	MOVQ (SI)(BX*1), AX
	XORQ (SI)(DX*1), AX
	JNE  countDiff
	ADDQ $8, DX
	ADDQ $8, BX
	JMP  count8

countDiff:
	TZCNTQ AX, AX
	SHRQ $3, AX
	ADDQ DX, AX
	JMP  counted

count4:
	LEAQ 4(DX), AX
	CMPQ AX, mlim-16(SP)
	JGT  count2
	MOVL (SI)(BX*1), AX
	CMPL AX, (SI)(DX*1)
	JNE  count2
	ADDQ $4, DX
	ADDQ $4, BX

count2:
	LEAQ 2(DX), AX
	CMPQ AX, mlim-16(SP)
	JGT  count1
	MOVWLZX (SI)(BX*1), AX
	MOVWLZX (SI)(DX*1), R10
	CMPL AX, R10
	JNE  count1
	ADDQ $2, DX
	ADDQ $2, BX

count1:
	CMPQ DX, mlim-16(SP)
	JGE  countEnd
	MOVBLZX (SI)(BX*1), AX
	MOVBLZX (SI)(DX*1), R10
	CMPL AX, R10
	JNE  countEnd
	INCQ DX

countEnd:
	MOVQ DX, AX

counted:
	// AX is where the match ends in the input.
	SUBQ R9, AX
	SUBQ $4, AX
	JMP  matchLength

longLiterals:
	// C's check, litLen/255 as (litLen*0x80808081)>>39, exact below 2^32.
	MOVQ BX, AX
	MOVL $0x80808081, DX
	IMULQ DX, AX
	SHRQ $39, AX
	LEAQ 8(R11)(BX*1), DX
	ADDQ AX, DX
	CMPQ DX, checkLen+88(FP)
	JGT  fail
	MOVB $0xF0, (DI)(R13*1)
	LEAQ -15(BX), AX

literalLengthBytes:
	CMPQ AX, $255
	JLT  literalLengthLast
	MOVB $255, (DI)(R11*1)
	INCQ R11
	SUBQ $255, AX
	JMP  literalLengthBytes

literalLengthLast:
	MOVB AX, (DI)(R11*1)
	INCQ R11
	JMP  copyLiterals

longMatch:
	// C's check, with (matchLen+240)/255.
	LEAQ 240(AX), DX
	MOVL $0x80808081, BX
	IMULQ BX, DX
	SHRQ $39, DX
	LEAQ 6(R11)(DX*1), DX
	CMPQ DX, checkLen+88(FP)
	JGT  fail
	ADDB $15, (DI)(R13*1)
	SUBQ $15, AX

matchLengthBytes:
	CMPQ AX, $255
	JLT  matchLengthLast
	MOVB $255, (DI)(R11*1)
	INCQ R11
	SUBQ $255, AX
	JMP  matchLengthBytes

matchLengthLast:
	MOVB AX, (DI)(R11*1)
	INCQ R11
	JMP  matchWritten

noMatch:
end:
	MOVQ R11, di+96(FP)
	MOVQ R10, anchor+104(FP)
	RET

fail:
	MOVQ $-1, di+96(FP)
	MOVQ $0, anchor+104(FP)
	RET
