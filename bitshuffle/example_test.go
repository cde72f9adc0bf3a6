package bitshuffle_test

import (
	"bytes"
	"fmt"

	"github.com/goblosc/blosc/bitshuffle"
)

func ExampleShuffle() {
	// Eight 16-bit little-endian values 1..8: bit row b (b < 8) has bit i
	// set when value i has bit b set; the high bytes give all-zero rows.
	src := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0}
	dst := make([]byte, len(src))
	bitshuffle.Shuffle(dst, src, 2)
	fmt.Printf("% x\n", dst)
	// Output: 55 66 78 80 00 00 00 00 00 00 00 00 00 00 00 00
}

func ExampleUnshuffle() {
	src := []byte("0123456789abcdef0123456789abcdef!") // 33 bytes: the last is copied
	shuffled := make([]byte, len(src))
	bitshuffle.Shuffle(shuffled, src, 4)
	back := make([]byte, len(src))
	bitshuffle.Unshuffle(back, shuffled, 4)
	fmt.Println(bytes.Equal(back, src), bitshuffle.Transposed(len(src), 4))
	// Output: true 32
}
