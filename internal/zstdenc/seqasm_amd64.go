//go:build !purego && !noasm && gc

package zstdenc

import "github.com/klauspost/cpuid/v2"

// haveSeqBitsAsm says that encodeSequences may run its loop through
// encodeSeqsAsm on this CPU (tests clear it to run the Go loop).
var haveSeqBitsAsm = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)

// encodeSeqsAsm writes the sequences last down to 0 of seqs (their codes
// in lc, oc, mc) into the bit stream b holds, b.pos bytes into dst,
// exactly as encodeSequences' loop does: the three states' bits, then the
// literal length's extra bits, the match length's and the offset's (the
// lengths' as their low bits), a flush after the first group and after
// the last. dst has 12 bytes a
// sequence and 8 more past b.pos. Requires BMI1 and BMI2.
//
//go:noescape
func encodeSeqsAsm(dst *byte, seqs *seq, lc, oc, mc *uint8, ll, of, ml *fseCTable, b *seqBits, last int, llBits, mlBits *[64]uint8)

// seqCodesAsm is seqCodes' pass in assembly: for the n sequences at
// seqs, the offset coded against the repeat offsets r (left as the
// decoder will hold them), the three codes stored and counted, and the
// offset code's extra bits left in the sequence. It uses BSR only, but runs where
// encodeSeqsAsm does so that one switch selects both. hits is its own
// slot (the repeat candidates it counts).
//
//go:noescape
func seqCodesAsm(seqs *seq, n int, lc, oc, mc *uint8, counts *[3][64]uint32, r *[3]uint32, tabs *seqCodeTables, hits int)

// huffStreamAsm writes the codes of the n literals at src, last first,
// into dst as huffStream does, and returns the bytes written and the
// bits left in the accumulator (fewer than 8). dst has room for 2 bytes
// a literal and 8 more. Requires BMI2; runs where encodeSeqsAsm does.
//
//go:noescape
func huffStreamAsm(dst, src *byte, n int, ce *[2 * maxHuffSymbols]uint64) (pos int, acc, nb uint64)

// huffPairAsm writes two streams at once, each as huffStreamAsm would:
// the n literals at srcA into dstA and the n at srcB into dstB, last
// first, leaving in st the bytes written and the bits left (fewer than
// 8) in each accumulator. Each dst has room for 2 bytes a literal and 8
// more. Requires BMI2; runs where encodeSeqsAsm does.
//
//go:noescape
func huffPairAsm(dstA, dstB, srcA, srcB *byte, n int, ce *[2 * maxHuffSymbols]uint64, st *huffPair)

// haveHistAsm says that countBytes counts through histAsm.
const haveHistAsm = true

// histAsm adds the n bytes at src, n a multiple of 16, to the four
// tables of countBytes, byte i to table i%4. Plain amd64.
//
//go:noescape
func histAsm(t *[4][256]uint32, src *byte, n int)
