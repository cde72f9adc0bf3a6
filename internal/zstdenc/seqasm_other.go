//go:build purego || noasm || !gc || !amd64

package zstdenc

const haveSeqBitsAsm = false

func encodeSeqsAsm(dst *byte, seqs *seq, lc, oc, mc *uint8, ll, of, ml *fseCTable, b *seqBits, last int, llBits, mlBits *[64]uint8) {
	panic("zstdenc: no assembly sequence loop on this build")
}

func seqCodesAsm(seqs *seq, n int, lc, oc, mc *uint8, counts *[3][64]uint32, r *[3]uint32, tabs *seqCodeTables, hits int) {
	panic("zstdenc: no assembly sequence codes on this build")
}

func huffStreamAsm(dst, src *byte, n int, ce *[2 * maxHuffSymbols]uint64) (pos int, acc, nb uint64) {
	panic("zstdenc: no assembly Huffman stream on this build")
}

func huffPairAsm(dstA, dstB, srcA, srcB *byte, n int, ce *[2 * maxHuffSymbols]uint64, st *huffPair) {
	panic("zstdenc: no assembly Huffman streams on this build")
}

const haveHistAsm = false

func histAsm(t *[4][256]uint32, src *byte, n int) {
	panic("zstdenc: no assembly histogram on this build")
}
