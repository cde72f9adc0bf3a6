package lz4_test

import (
	"bytes"
	"fmt"

	"github.com/goblosc/blosc/internal/lz4"
	pierrec "github.com/pierrec/lz4/v4"
)

func ExampleCompressor_CompressBlock() {
	src := bytes.Repeat([]byte("blosc chunk "), 100)
	var c lz4.Compressor // keep it: later calls skip the table setup
	dst := make([]byte, lz4.CompressBlockBound(len(src)))
	n := c.CompressBlock(dst, src, 1)

	out := make([]byte, len(src))
	m, err := pierrec.UncompressBlock(dst[:n], out)
	fmt.Println(n < len(src), m == len(src), err == nil && bytes.Equal(out, src))

	// A dst too short for the block gives 0, as LZ4_compress_fast.
	fmt.Println(c.CompressBlock(dst[:n-1], src, 1))
	// Output:
	// true true true
	// 0
}

func ExampleDecompressBlock() {
	src := bytes.Repeat([]byte("blosc chunk "), 100)
	var c lz4.Compressor
	block := make([]byte, lz4.CompressBlockBound(len(src)))
	block = block[:c.CompressBlock(block, src, 1)]

	// dst of the exact decoded size, as a Blosc chunk gives it.
	dst := make([]byte, len(src))
	n, err := lz4.DecompressBlock(dst, block)
	fmt.Println(n, err, bytes.Equal(dst, src))

	// A dst one byte short (here a match would end in its last 5 bytes)
	// or a block cut short is an error.
	_, err = lz4.DecompressBlock(dst[:len(src)-1], block)
	fmt.Println(err)
	_, err = lz4.DecompressBlock(dst, block[:len(block)-1])
	fmt.Println(err)
	// Output:
	// 1200 <nil> true
	// lz4: block breaks the end-of-block rules
	// lz4: block ends inside a sequence
}

func ExampleDecompressBlockDict() {
	dict := []byte("the bytes of the block before this one, ")
	src := []byte("the bytes of this block, then the bytes of the next one")
	// A block whose first match reaches 40 bytes back into dict.
	block := []byte{0x0A} // no literals, a match of 10+4 bytes
	block = append(block, 40, 0)
	block = append(block, 0xF0, byte(len(src)-14-15))
	block = append(block, src[14:]...)

	dst := make([]byte, len(src))
	n, err := lz4.DecompressBlockDict(dst, block, dict)
	fmt.Println(n, err)
	fmt.Println(string(dst))
	// Output:
	// 55 <nil>
	// the bytes of this block, then the bytes of the next one
}
