//go:build !purego && !noasm && gc

#include "textflag.h"

// Offsets of huff4Ctx's fields (huffasm_amd64.go; TestHuff4CtxLayout).
#define h_dt 0
#define h_out 8
#define h_seg 16
#define h_iters 24
#define h_shift 32
#define h_base 40
#define h_pos 72
#define h_used 104

// The bit containers: each holds the stream's loaded word with its lowest
// bit set, shifted left by the bits read, so that the next code is at the
// top and the set bit tells, by its trailing zeros, how many bits were
// read. A round starts with at most 8 bits read (a stream's first byte
// may hold 7 bits past its end mark, a reload leaves at most 7) and reads
// at most 5*11 more: its last window ends at bit 62 at most, so the set
// bit, which stands on the word's lowest bit, is never read as a code's,
// and the container never runs out.

// LOAD starts stream k's container: R, from where its window starts, ip,
// and from the bits already read. Uses CX.
#define LOAD(k, R, ip) \
	MOVQ h_base+8*k(AX), ip \
	ADDQ h_pos+8*k(AX), ip \
	MOVQ (ip), R \
	ORQ  $1, R \
	MOVQ h_used+8*k(AX), CX \
	SHLXQ CX, R, R

// SAVE writes stream k's window position and bits read back.
#define SAVE(k, R, ip) \
	SUBQ h_base+8*k(AX), ip \
	MOVQ ip, h_pos+8*k(AX) \
	TZCNTQ R, CX \
	MOVQ CX, h_used+8*k(AX)

// SYM decodes the next symbol of container R into AX: the entry's low
// byte, the code's length, is the shift that consumes it.
#define SYM(R) \
	SHRXQ SI, R, CX \
	MOVWLZX (DI)(CX*2), AX \
	SHLXQ AX, R, R \
	SHRL $8, AX

// RELOAD moves the window of container R down by the whole bytes read
// and reloads it, keeping the bits of the last byte read.
#define RELOAD(R, ip) \
	TZCNTQ R, CX \
	MOVQ CX, AX \
	SHRQ $3, AX \
	SUBQ AX, ip \
	ANDQ $7, CX \
	MOVQ (ip), R \
	ORQ  $1, R \
	SHLXQ CX, R, R

// ROUND decodes one symbol of each stream to byte i of its output: the
// first stream's at BX, the others' DX bytes apart.
#define ROUND(i) \
	SYM(R8) \
	MOVB AX, i(BX) \
	SYM(R9) \
	MOVB AX, i(BX)(DX*1) \
	SYM(R10) \
	MOVB AX, i(BX)(DX*2) \
	SYM(R11) \
	LEAQ (BX)(DX*2), CX \
	MOVB AX, i(CX)(DX*1)

// func huff4BMI2(c *huff4Ctx)
//
// Registers: R8-R11 the four containers, R12-R15 where their windows
// start; DI the table, SI 64 minus its maxBits; BX the first stream's
// output, DX the distance between the streams' outputs; AX, CX scratch.
TEXT ·huff4BMI2(SB), NOSPLIT, $0-8
	MOVQ c+0(FP), AX
	MOVQ h_dt(AX), DI
	MOVQ h_shift(AX), SI
	MOVQ h_out(AX), BX
	MOVQ h_seg(AX), DX
	LOAD(0, R8, R12)
	LOAD(1, R9, R13)
	LOAD(2, R10, R14)
	LOAD(3, R11, R15)

loop:
	ROUND(0)
	ROUND(1)
	ROUND(2)
	ROUND(3)
	ROUND(4)
	ADDQ $5, BX
	RELOAD(R8, R12)
	RELOAD(R9, R13)
	RELOAD(R10, R14)
	RELOAD(R11, R15)
	MOVQ c+0(FP), AX
	DECQ h_iters(AX)
	JNZ  loop

	SAVE(0, R8, R12)
	SAVE(1, R9, R13)
	SAVE(2, R10, R14)
	SAVE(3, R11, R15)
	RET

// Offsets of pairs4Ctx's fields (huffasm_amd64.go; TestHuff4CtxLayout).
#define p_dt 0
#define p_iters 8
#define p_dst 16
#define p_out 24
#define p_base 56
#define p_pos 88
#define p_used 120

// PLOAD starts stream k's container R as LOAD does.
#define PLOAD(k, R) \
	MOVQ p_base+8*k(BX), AX \
	ADDQ p_pos+8*k(BX), AX \
	MOVQ (AX), R \
	ORQ  $1, R \
	MOVQ p_used+8*k(BX), CX \
	SHLXQ CX, R, R

// PSAVE writes stream k's output offset O and bits read back.
#define PSAVE(k, R, O) \
	MOVQ O, p_out+8*k(BX) \
	TZCNTQ R, CX \
	MOVQ CX, p_used+8*k(BX)

// PAIR looks the next bits of container R up in the double-symbol table
// and writes its two symbol bytes at offset O of the output, then moves O
// past the symbols it decoded, 1 or 2: a second byte written after one
// symbol is garbage that the next lookup overwrites.
#define PAIR(R, O) \
	SHRXQ SI, R, CX \
	MOVL (DI)(CX*4), AX \
	MOVWLZX 1(DI)(CX*4), CX \
	SHLXQ AX, R, R \
	MOVW CX, (DX)(O*1) \
	SHRL $24, AX \
	ADDQ AX, O

// PRELOAD is RELOAD with the window's position, stream k's pos, kept in
// the context.
#define PRELOAD(k, R) \
	TZCNTQ R, CX \
	MOVQ CX, AX \
	SHRQ $3, AX \
	SUBQ AX, p_pos+8*k(BX) \
	ANDQ $7, CX \
	MOVQ p_pos+8*k(BX), AX \
	ADDQ p_base+8*k(BX), AX \
	MOVQ (AX), R \
	ORQ  $1, R \
	SHLXQ CX, R, R

#define PROUND \
	PAIR(R8, R12) \
	PAIR(R9, R13) \
	PAIR(R10, R14) \
	PAIR(R11, R15)

// func pairs4BMI2(c *pairs4Ctx)
//
// Registers: BX the context; R8-R11 the four containers, R12-R15 their
// output offsets; DI the table, SI 64 minus its index width; DX the
// output; AX, CX scratch.
TEXT ·pairs4BMI2(SB), NOSPLIT, $0-8
	MOVQ c+0(FP), BX
	MOVQ p_dt(BX), DI
	MOVQ $(64-11), SI // 11 is pairBits
	MOVQ p_dst(BX), DX
	MOVQ p_out+0(BX), R12
	MOVQ p_out+8(BX), R13
	MOVQ p_out+16(BX), R14
	MOVQ p_out+24(BX), R15
	PLOAD(0, R8)
	PLOAD(1, R9)
	PLOAD(2, R10)
	PLOAD(3, R11)

ploop:
	PROUND
	PROUND
	PROUND
	PROUND
	PROUND
	PRELOAD(0, R8)
	PRELOAD(1, R9)
	PRELOAD(2, R10)
	PRELOAD(3, R11)
	DECQ p_iters(BX)
	JNZ  ploop

	PSAVE(0, R8, R12)
	PSAVE(1, R9, R13)
	PSAVE(2, R10, R14)
	PSAVE(3, R11, R15)
	RET

// func pairs1BMI2(c *pairs4Ctx)
//
// pairs4BMI2 for the first stream alone, for what is left of it when
// another stream's end stopped the four-stream loop.
TEXT ·pairs1BMI2(SB), NOSPLIT, $0-8
	MOVQ c+0(FP), BX
	MOVQ p_dt(BX), DI
	MOVQ $(64-11), SI // 11 is pairBits
	MOVQ p_dst(BX), DX
	MOVQ p_out+0(BX), R12
	PLOAD(0, R8)

ploop1:
	PAIR(R8, R12)
	PAIR(R8, R12)
	PAIR(R8, R12)
	PAIR(R8, R12)
	PAIR(R8, R12)
	PRELOAD(0, R8)
	DECQ p_iters(BX)
	JNZ  ploop1

	PSAVE(0, R8, R12)
	RET

// TRIPLE looks the next bits of container R up in the triple-symbol
// table and writes its three symbols, and a byte the next lookup
// overwrites, at offset O of the output.
#define TRIPLE(R, O) \
	SHRXQ SI, R, CX \
	MOVL (DI)(CX*4), AX \
	SHLXQ AX, R, R \
	SHRL $8, AX \
	MOVL AX, (DX)(O*1) \
	ADDQ $3, O

#define TROUND \
	TRIPLE(R8, R12) \
	TRIPLE(R9, R13) \
	TRIPLE(R10, R14) \
	TRIPLE(R11, R15)

// func triples4BMI2(c *pairs4Ctx)
//
// pairs4BMI2 with the triple-symbol table: 4 lookups a stream per reload,
// as a round starts with at most 8 bits read and reads at most 4*12 more.
// Registers as in pairs4BMI2.
TEXT ·triples4BMI2(SB), NOSPLIT, $0-8
	MOVQ c+0(FP), BX
	MOVQ p_dt(BX), DI
	MOVQ $(64-12), SI // 12 is tripleBits
	MOVQ p_dst(BX), DX
	MOVQ p_out+0(BX), R12
	MOVQ p_out+8(BX), R13
	MOVQ p_out+16(BX), R14
	MOVQ p_out+24(BX), R15
	PLOAD(0, R8)
	PLOAD(1, R9)
	PLOAD(2, R10)
	PLOAD(3, R11)

tloop:
	TROUND
	TROUND
	TROUND
	TROUND
	PRELOAD(0, R8)
	PRELOAD(1, R9)
	PRELOAD(2, R10)
	PRELOAD(3, R11)
	DECQ p_iters(BX)
	JNZ  tloop

	PSAVE(0, R8, R12)
	PSAVE(1, R9, R13)
	PSAVE(2, R10, R14)
	PSAVE(3, R11, R15)
	RET
