//go:build purego || noasm || !gc || !amd64

package lz4

// insertRange is insertRangeGo where no assembly loop exists.
func insertRange(src []byte, hash *[hcHashSize]uint32, chain *[hcChainSize]uint16, idx, target uint32) {
	insertRangeGo(src, hash, chain, idx, target)
}
