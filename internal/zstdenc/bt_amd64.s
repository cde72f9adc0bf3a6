//go:build !purego && !noasm && gc

#include "textflag.h"

// How many positions ahead dubtUpdateAsm prefetches head entries (8 and
// 16 gained less on noise, 64 as much).
#define DUBT_PF 32

// How many positions ahead of a search dubtFindAsm prefetches a head
// entry: the lazy loop searching one position after another calls no
// update between, so dubtUpdateAsm's prefetch does not reach those
// entries. 8 and 32 were measured too: neither moved chunks past the
// spread.
#define BT_PF 16

// How many positions ahead of a search optWalkAsm asks for a head
// entry besides ip+1's, and for the node and bytes of the candidate in
// the head entry.
#define OPT_PF 8
#define OPT_NODE 4

// BTMATCHLEN extends a tree walk's compare from R11: the position's
// bytes at SI+R11 against the candidate's at R12+R11, 16 bytes a turn,
// then 8, then one, up to endop; R15 scratch. At the first unequal byte
// (R11 its index) it goes on at ldiffer, equal up to endop at lend.
#define BTMATCHLEN(endop, lcmp16, ldiff8, ldiff0, ltail8, ltail1, ldiffer, lend) \
lcmp16: \
	LEAQ 16(R11), R15 \
	CMPQ R15, endop \
	JGT  ltail8 \
	MOVQ (SI)(R11*1), R15 \
	XORQ (R12)(R11*1), R15 \
	JNZ  ldiff0 \
	MOVQ 8(SI)(R11*1), R15 \
	XORQ 8(R12)(R11*1), R15 \
	JNZ  ldiff8 \
	ADDQ $16, R11 \
	JMP  lcmp16 \
ldiff8: \
	ADDQ $8, R11 \
ldiff0: \
	BSFQ R15, R15 \
	SHRQ $3, R15 \
	ADDQ R15, R11 \
	JMP  ldiffer \
ltail8: \
	LEAQ 8(R11), R15 \
	CMPQ R15, endop \
	JGT  ltail1 \
	MOVQ (SI)(R11*1), R15 \
	CMPQ R15, (R12)(R11*1) \
	JNE  ltail1 \
	ADDQ $8, R11 \
	JMP  ltail8 \
ltail1: \
	CMPQ    R11, endop \
	JGE     lend \
	MOVBLZX (SI)(R11*1), R15 \
	CMPB    R15, (R12)(R11*1) \
	JNE     ldiffer \
	INCQ    R11 \
	JMP     ltail1

// func dubtFindAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask int, prev uint32, nbCand, ip, m, nbCompares int, head *uint32, mul uint64, shift uint8) (best, bestOff, matchEnd int)
//
// btSearch after its update and its collection of unsorted candidates,
// in one call: the candidates sorted in, oldest first from prev
// (biased; each one's second slot chains to the next, 0 ends), each by
// dubtSort's walk with a budget of nbCand compares, one more for each
// later candidate; then the search walk inserting ip (m its head
// entry's position, the entry already replaced by ip) with at most
// nbCompares compares. It returns the best match's length and offset
// and the farthest end of a longer match met.
//
// The sort walk (ZSTD_insertDUBT1), step for step:
//   AX m, the candidate          BX es, CX el (where the common
//   DX end                       prefixes with the bounds end)
//   SI buf, DI cur               R8 bt
//   R9 the candidate's node      R10 the budget left
//   R11 a, the compare's end     R12 buf + m - cur
//   R13 the smaller slot         R14 the larger slot (pointers)
//   R15 scratch
// The node is read as the step begins and both its children asked for
// (PREFETCHT0), so that the next step's miss is on its way while the
// bytes are compared (text's long walks at levels 13 and 15 gained
// 5-10%); the next child is read from the node after the compare: the
// budget then has a register, where counting it down in the argument
// frame put a store and a reload in every step's chain (runs, whose
// walks stay in the L1 cache, was 0.80-0.98 of c-blosc2's speed so).
// The search walk does the same.
TEXT ·dubtFindAsm(SB), NOSPLIT, $0-136
	MOVQ bt+0(FP), R8
	MOVQ buf+8(FP), SI
	MOVQ end+16(FP), DX

	// The head entry of ip+BT_PF, which a later search or update
	// reads (its 8 bytes only where buf holds them below end): asked
	// for now, its miss overlaps this call's walks.
	MOVQ ip+64(FP), DI
	LEAQ (BT_PF+8)(DI), R11
	CMPQ R11, DX
	JGT  next
	MOVQ head+88(FP), R9
	MOVQ mul+96(FP), R10
	MOVBQZX shift+104(FP), CX
	MOVQ BT_PF(SI)(DI*1), R12
	IMULQ R10, R12
	SHRQ CX, R12
	PREFETCHT0 (R9)(R12*4)

next:
	MOVL  prev+48(FP), AX
	TESTL AX, AX
	JZ    search
	SUBL  base+32(FP), AX
	MOVLQSX AX, DI
	MOVQ  bmask+40(FP), R9
	ANDQ  DI, R9
	LEAQ  (R8)(R9*8), R13
	MOVL  4(R13), R15
	MOVL  R15, prev+48(FP)
	MOVQ  nbCand+56(FP), R15
	MOVQ  R15, R10
	INCQ  nbCand+56(FP)
	LEAQ 4(R13), R14
	MOVL (R13), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	MOVQ DI, BX
	MOVQ DI, CX
	TESTQ R10, R10
	JLE  done

loop:
	TESTQ AX, AX
	JLE   done
	MOVQ  bmask+40(FP), R9
	ANDQ  AX, R9
	LEAQ  (R8)(R9*8), R9
	MOVL  (R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVL  4(R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVQ  BX, R11
	CMPQ  CX, R11
	CMOVQLT CX, R11
	LEAQ  (SI)(AX*1), R12
	SUBQ  DI, R12

	// Equal up to the end, the candidate's side is unknown: the sort
	// drops the rest of the walk (done).
	BTMATCHLEN(DX, cmp16, diff8, diff0, tail8, tail1, decide, done)

decide:
	MOVBLZX (R12)(R11*1), R15
	CMPB    R15, (SI)(R11*1)
	JCC     largerSide

	// The candidate is smaller: it fills the smaller slot, and its
	// larger child is the next.
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R13)
	MOVQ R11, BX
	CMPQ AX, btLow+24(FP)
	JLE  smallerOut
	LEAQ 4(R9), R13
	MOVL (R13), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  loop
	JMP  done

largerSide:
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R14)
	MOVQ R11, CX
	CMPQ AX, btLow+24(FP)
	JLE  largerOut
	MOVQ R9, R14
	MOVL (R14), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  loop

done:
	MOVL $0, (R13)
	MOVL $0, (R14)
	JMP  next

smallerOut:
	MOVL $0, (R14)
	JMP  next

largerOut:
	MOVL $0, (R13)
	JMP  next

search:
	// The search walk: ip goes in at the head of its tree, and the
	// longest match met on the way down is kept (a longer one if it
	// pays for its offset).
	//   AX m          BX, CX where ip's common prefixes with the
	//   DI ip         smaller and larger bounds end
	//   DX best       R10 the budget left
	//   R13, R14 the slots to fill; bestOff and matchEnd in the
	//   result slots, end in the argument frame
	MOVQ ip+64(FP), DI
	MOVQ bmask+40(FP), R9
	ANDQ DI, R9
	LEAQ (R8)(R9*8), R13
	LEAQ 4(R13), R14
	MOVQ m+72(FP), AX
	MOVQ DI, BX
	MOVQ DI, CX
	XORL DX, DX
	MOVQ $0, bestOff+120(FP)
	LEAQ 9(DI), R15
	MOVQ R15, matchEnd+128(FP)
	MOVQ nbCompares+80(FP), R10
	TESTQ R10, R10
	JLE  sdone

sloop:
	TESTQ AX, AX
	JLE   sdone
	MOVQ  bmask+40(FP), R9
	ANDQ  AX, R9
	LEAQ  (R8)(R9*8), R9
	MOVL  (R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVL  4(R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVQ  BX, R11
	CMPQ  CX, R11
	CMOVQLT CX, R11
	LEAQ  (SI)(AX*1), R12
	SUBQ  DI, R12

	BTMATCHLEN(end+16(FP), scmp16, sdiff8, sdiff0, stail8, stail1, smeasured, smeasured)

smeasured:
	// l = R11 - ip; a longer match than the best?
	MOVQ R11, R15
	SUBQ DI, R15
	CMPQ R15, DX
	JLE  snobest
	LEAQ (AX)(R15*1), R12
	CMPQ R12, matchEnd+128(FP)
	JLE  smatchEnd
	MOVQ R12, matchEnd+128(FP)

smatchEnd:
	TESTQ DX, DX
	JEQ  stake

	// Taken if 4*(l-best) > highbit(ip-m+1) - highbit(bestOff+3).
	MOVQ DI, R12
	SUBQ AX, R12
	INCQ R12
	BSRQ R12, R12
	MOVQ bestOff+120(FP), R15
	ADDQ $3, R15
	BSRQ R15, R15
	SUBQ R15, R12
	MOVQ R11, R15
	SUBQ DI, R15
	SUBQ DX, R15
	SHLQ $2, R15
	CMPQ R15, R12
	JLE  snobest

stake:
	MOVQ R11, R15
	SUBQ DI, R15
	MOVQ R15, DX
	MOVQ DI, R15
	SUBQ AX, R15
	MOVQ R15, bestOff+120(FP)

snobest:
	// Equal up to the end: its side is unknown; stop.
	CMPQ    R11, end+16(FP)
	JGE     sdone
	LEAQ    (SI)(AX*1), R12
	SUBQ    DI, R12
	MOVBLZX (R12)(R11*1), R15
	CMPB    R15, (SI)(R11*1)
	JCC     slargerSide

	// The candidate is smaller: it fills the smaller slot, and its
	// larger child is the next.
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R13)
	MOVQ R11, BX
	CMPQ AX, btLow+24(FP)
	JLE  ssmallerOut
	LEAQ 4(R9), R13
	MOVL (R13), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  sloop
	JMP  sdone

slargerSide:
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R14)
	MOVQ R11, CX
	CMPQ AX, btLow+24(FP)
	JLE  slargerOut
	MOVQ R9, R14
	MOVL (R14), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  sloop

sdone:
	MOVL $0, (R13)
	MOVL $0, (R14)
	MOVQ DX, best+112(FP)
	RET

ssmallerOut:
	MOVL $0, (R14)
	MOVQ DX, best+112(FP)
	RET

slargerOut:
	MOVL $0, (R13)
	MOVQ DX, best+112(FP)
	RET


// func dubtUpdateAsm(head, bt *uint32, buf *byte, from, ip, pfEnd int, v uint32, bmask int, mul uint64, shift uint8)
//
// dubtUpdate's loop (ZSTD_updateDUBT): each position's head entry goes
// into its node's first slot with the unsorted mark in the second (one
// 8-byte store), the position into the head. Before that, the head
// entry of the position DUBT_PF on is asked for (PREFETCHT0), for
// every position up to pfEnd (the last whose 8 bytes buf holds): a
// prefetch retires without waiting for its line, so more of these
// misses are in flight than the reorder buffer allows loads.
//   AX head       BX bt        SI buf       DI i
//   DX ip         R8 v         R9 bmask     R10 mul
//   CX shift      R11 the mark R12 pfEnd - DUBT_PF
//   R13-R15 scratch
TEXT ·dubtUpdateAsm(SB), NOSPLIT, $0-73
	MOVQ head+0(FP), AX
	MOVQ bt+8(FP), BX
	MOVQ buf+16(FP), SI
	MOVQ from+24(FP), DI
	MOVQ ip+32(FP), DX
	MOVQ pfEnd+40(FP), R12
	SUBQ $DUBT_PF, R12
	MOVL v+48(FP), R8
	MOVQ bmask+56(FP), R9
	MOVQ mul+64(FP), R10
	MOVBQZX shift+72(FP), CX
	MOVQ $0xFFFFFFFF00000000, R11
	CMPQ DI, DX
	JGE  udone

	// ip's own head entry, which the search reads right after this
	// loop: asked for first, its miss overlaps the loop (the loop's
	// own prefetch of it comes only DUBT_PF positions before the end).
	CMPQ DX, pfEnd+40(FP)
	JGT  uloop
	MOVQ (SI)(DX*1), R13
	IMULQ R10, R13
	SHRQ CX, R13
	PREFETCHT0 (AX)(R13*4)

uloop:
	CMPQ DI, R12
	JG   upast
	MOVQ DUBT_PF(SI)(DI*1), R13
	IMULQ R10, R13
	SHRQ CX, R13
	PREFETCHT0 (AX)(R13*4)

upast:
	MOVQ (SI)(DI*1), R13
	IMULQ R10, R13
	SHRQ CX, R13
	MOVL (AX)(R13*4), R14
	ORQ  R11, R14
	MOVQ DI, R15
	ANDQ R9, R15
	MOVQ R14, (BX)(R15*8)
	MOVL R8, (AX)(R13*4)
	INCL R8
	INCQ DI
	CMPQ DI, DX
	JLT  uloop

udone:
	RET

// func optWalkAsm(bt *uint32, buf *byte, end, btLow int, base uint32, bmask, ip, m, nb, best int, matches *match, n int, head *uint32, mul uint64, shift uint8) (count, matchEnd int)
//
// allMatches' tree walk (ZSTD_insertBtAndGetAllMatches): ip goes in at
// the head of its tree (m its head entry's position, the entry already
// replaced by ip, negative for none), and each match longer than the
// best so far met on the way down is added to matches after the n
// there, with at most nb compares. It returns the number of matches
// and the farthest end of a match added. Before the walk it asks for
// the head entries of ip+1, which the parser most often searches next,
// and of ip+OPT_PF (PREFETCHT0), each where buf holds its 8 bytes below
// end: the parser searches position after position, and an entry asked
// for one search ahead had not arrived by then on noise. It also reads
// the entry of ip+OPT_NODE (asked for OPT_PF-OPT_NODE searches before)
// and asks for that candidate's node and first bytes. Each step asks
// for both children of the node it reads before the compare: the walk
// is a chain of misses in the tree, and the child it goes to is so on
// its way while the bytes are compared. It reads buf only below end.
//   AX m          BX, CX where ip's common prefixes with the smaller
//   DI ip         and larger bounds end
//   DX best       R10 the budget left
//   R8 bt         SI buf
//   R9 the node   R11 a, the compare's end
//   R12 buf + m - ip
//   R13, R14 the slots to fill (pointers); the count and matchEnd in
//   the result slots, end and matches in the argument frame
TEXT ·optWalkAsm(SB), NOSPLIT, $0-136
	MOVQ bt+0(FP), R8
	MOVQ buf+8(FP), SI
	MOVQ ip+48(FP), DI

	LEAQ 9(DI), R11
	CMPQ R11, end+16(FP)
	JGT  owalk
	MOVQ head+96(FP), R9
	MOVQ mul+104(FP), R10
	MOVBQZX shift+112(FP), CX
	MOVQ 1(SI)(DI*1), R12
	IMULQ R10, R12
	SHRQ CX, R12
	PREFETCHT0 (R9)(R12*4)
	LEAQ (OPT_PF+8)(DI), R11
	CMPQ R11, end+16(FP)
	JGT  owalk
	MOVQ OPT_PF(SI)(DI*1), R12
	IMULQ R10, R12
	SHRQ CX, R12
	PREFETCHT0 (R9)(R12*4)
	// The node and first bytes of ip+OPT_NODE's newest candidate (its
	// head entry was asked for OPT_PF-OPT_NODE searches before). An
	// entry that is no position points before buf: a prefetch never
	// faults, and the node's index is masked into the tree anyway.
	MOVQ OPT_NODE(SI)(DI*1), R12
	IMULQ R10, R12
	SHRQ CX, R12
	MOVL (R9)(R12*4), R12
	SUBL base+32(FP), R12
	MOVLQSX R12, R12
	PREFETCHT0 (SI)(R12*1)
	ANDQ bmask+40(FP), R12
	PREFETCHT0 (R8)(R12*8)

owalk:
	MOVQ bmask+40(FP), R9
	ANDQ DI, R9
	LEAQ (R8)(R9*8), R13
	LEAQ 4(R13), R14
	MOVQ m+56(FP), AX
	MOVQ DI, BX
	MOVQ DI, CX
	MOVQ best+72(FP), DX
	MOVQ n+88(FP), R15
	MOVQ R15, count+120(FP)
	LEAQ 9(DI), R15
	MOVQ R15, matchEnd+128(FP)
	MOVQ nb+64(FP), R10
	TESTQ R10, R10
	JLE  odone

oloop:
	TESTQ AX, AX
	JLT   odone
	MOVQ  bmask+40(FP), R9
	ANDQ  AX, R9
	LEAQ  (R8)(R9*8), R9
	MOVL  (R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVL  4(R9), R15
	SUBL  base+32(FP), R15
	ANDQ  bmask+40(FP), R15
	PREFETCHT0 (R8)(R15*8)
	MOVQ  BX, R11
	CMPQ  CX, R11
	CMOVQLT CX, R11
	LEAQ  (SI)(AX*1), R12
	SUBQ  DI, R12

	BTMATCHLEN(end+16(FP), ocmp16, odiff8, odiff0, otail8, otail1, omeasured, omeasured)

omeasured:
	// l = R11 - ip; longer than the best: a new match.
	MOVQ R11, R15
	SUBQ DI, R15
	CMPQ R15, DX
	JLE  onobest
	MOVQ R15, DX
	LEAQ (AX)(R15*1), R12
	CMPQ R12, matchEnd+128(FP)
	JLE  oadd
	MOVQ R12, matchEnd+128(FP)

oadd:
	// matches[count] = {ip-m+3, l}
	MOVQ count+120(FP), R12
	MOVQ matches+80(FP), R15
	LEAQ (R15)(R12*8), R15
	INCQ R12
	MOVQ R12, count+120(FP)
	MOVQ DI, R12
	SUBQ AX, R12
	ADDQ $3, R12
	MOVL R12, (R15)
	MOVL DX, 4(R15)
	// Longer than the parser's window: stop (libzstd's ZSTD_OPT_NUM).
	CMPQ DX, $4096
	JGT  odone

onobest:
	// Equal up to the end: its side is unknown; stop.
	CMPQ    R11, end+16(FP)
	JGE     odone
	LEAQ    (SI)(AX*1), R12
	SUBQ    DI, R12
	MOVBLZX (R12)(R11*1), R15
	CMPB    R15, (SI)(R11*1)
	JCC     olargerSide

	// The candidate is smaller: it fills the smaller slot, and its
	// larger child is the next.
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R13)
	MOVQ R11, BX
	CMPQ AX, btLow+24(FP)
	JLE  osmallerOut
	LEAQ 4(R9), R13
	MOVL (R13), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  oloop
	JMP  odone

olargerSide:
	MOVL base+32(FP), R15
	ADDL AX, R15
	MOVL R15, (R14)
	MOVQ R11, CX
	CMPQ AX, btLow+24(FP)
	JLE  olargerOut
	MOVQ R9, R14
	MOVL (R14), AX
	SUBL base+32(FP), AX
	MOVLQSX AX, AX
	DECQ R10
	JGT  oloop

odone:
	MOVL $0, (R13)
	MOVL $0, (R14)
	RET

osmallerOut:
	MOVL $0, (R14)
	RET

olargerOut:
	MOVL $0, (R13)
	RET
