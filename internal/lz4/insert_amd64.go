//go:build !purego && !noasm && gc

package lz4

// insertLoop is insertRange's loop in assembly, in insert_amd64.s: it
// inserts the indexes from idx to target (excluded), whose positions'
// bytes start at p, into the tables. It reads target-idx+3 bytes at p.
//
//go:noescape
func insertLoop(p *byte, hash *[hcHashSize]uint32, chain *[hcChainSize]uint16, idx, target uint32)

// insertRange is LZ4HC_Insert's loop: it adds the indexes from idx to
// target (excluded) to the hash and chain tables. The callers insert up
// to indexes that have 4 bytes to hash: target-hcStart+3 <= len(src).
// Apart from the searches, the one loop that sees every position (all of
// a long match's), here in assembly: about 10 instructions a position,
// where the compiler's register allocation stays above 15.
func insertRange(src []byte, hash *[hcHashSize]uint32, chain *[hcChainSize]uint16, idx, target uint32) {
	_ = src[target-hcStart+2] // the last byte the loop reads
	insertLoop(&src[idx-hcStart], hash, chain, idx, target)
}
