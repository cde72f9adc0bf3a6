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
