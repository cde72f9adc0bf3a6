package blosclz_test

import (
	"bytes"
	"fmt"

	"github.com/goblosc/blosc/blosclz"
)

func Example() {
	src := bytes.Repeat([]byte("BloscLZ compresses repetitive data. "), 100)

	// A destination of len(src) bytes mirrors c-blosc: a stream that
	// does not come out smaller is not worth keeping.
	comp := make([]byte, len(src))
	n := blosclz.Compress(comp, src, 5)
	if n == 0 {
		fmt.Println("store raw")
		return
	}

	out := make([]byte, len(src))
	m, err := blosclz.Decompress(out, comp[:n])
	if err != nil || m != len(out) {
		fmt.Println("corrupt:", err)
		return
	}
	fmt.Println(n, "bytes;", bytes.Equal(out, src))
	// Output: 58 bytes; true
}
