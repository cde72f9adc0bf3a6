//go:build purego || noasm || !gc || !amd64

package zstddec

// useHuffAsm says that decode4 starts with an assembly loop; here none
// exists, and tests and benchmarks that select the loops leave it false.
var useHuffAsm = false

func (t *huffTable) decode4Asm(dst []byte, seg int, br *[4]backBits) int {
	panic("zstddec: no assembly Huffman loop")
}

func (t *huffTable) pairs4Asm(dst []byte, o, end *[4]int, br *[4]backBits) {
	panic("zstddec: no assembly Huffman loop")
}

func (t *huffTable) triples4Asm(dst []byte, o, end *[4]int, br *[4]backBits) {
	panic("zstddec: no assembly Huffman loop")
}
