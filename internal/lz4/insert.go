package lz4

import "github.com/goblosc/blosc/internal/le"

// insertRangeGo is LZ4HC_Insert's loop: it adds the indexes from idx to
// target (excluded) to the hash and chain tables. The callers insert up
// to indexes that have 4 bytes to hash: target-hcStart+3 <= len(src).
// Apart from the searches, the one loop that sees every position (all of
// a long match's): out of line, on a slice of just the bytes it hashes,
// two positions a step, its state stays in registers.
func insertRangeGo(src []byte, hashTable *[hcHashSize]uint32, chainTable *[hcChainSize]uint16, idx, target uint32) {
	// As slices, of lengths the indexes provably fit: no nil checks.
	hash, chain := hashTable[:], chainTable[:]
	b := src[idx-hcStart : target-hcStart+3]
	for len(b) >= 5 {
		h := le.Load32(b, 0) * prime4 >> (32 - hcHashLog)
		chain[uint16(idx)] = uint16(min(idx-hash[h], distanceMax))
		hash[h] = idx
		h = le.Load32(b, 1) * prime4 >> (32 - hcHashLog)
		chain[uint16(idx+1)] = uint16(min(idx+1-hash[h], distanceMax))
		hash[h] = idx + 1
		idx += 2
		b = b[2:]
	}
	if len(b) >= 4 {
		h := le.Load32(b, 0) * prime4 >> (32 - hcHashLog)
		chain[uint16(idx)] = uint16(min(idx-hash[h], distanceMax))
		hash[h] = idx
	}
}
