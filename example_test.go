package blosc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
)

func float64s(n int) []byte {
	b := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(i*i))
	}
	return b
}

func ExampleCompress() {
	src := float64s(100000)
	opts := blosc.DefaultOptions() // BloscLZ level 5, typesize 8, byte shuffle
	chunk, err := blosc.Compress(nil, src, opts)
	if err != nil {
		panic(err)
	}
	back, err := blosc.Decompress(nil, chunk)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(src), len(chunk) < len(src)/4, bytes.Equal(back, src))
	// Output: 800000 true true
}

func ExampleGetItem() {
	chunk, _ := blosc.Compress(nil, float64s(100000), blosc.DefaultOptions())
	items, _ := blosc.GetItem(nil, chunk, 1000, 3) // elements 1000..1002
	for i := 0; i < 3; i++ {
		fmt.Println(binary.LittleEndian.Uint64(items[8*i:]))
	}
	// Output:
	// 1000000
	// 1002001
	// 1004004
}

func ExampleReadHeader() {
	opts := blosc.Options{Codec: blosc.Zstd, Level: 3, Typesize: 4}
	chunk, _ := blosc.Compress(nil, make([]byte, 1<<20), opts)
	h, _ := blosc.ReadHeader(chunk)
	fmt.Println(h.Codec, h.Typesize, h.Nbytes, h.Blocksize, h.Nblocks, h.Split)
	// Output: zstd 4 1048576 131072 8 false
}

// A Compressor and a Decompressor per goroutine make the hot path
// allocation-free when the buffers are large enough.
func ExampleCompressor() {
	comp, err := blosc.NewCompressor(blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Threads: 1})
	if err != nil {
		panic(err)
	}
	dec := blosc.NewDecompressor()
	src := float64s(4096)
	cbuf := make([]byte, blosc.CompressBound(len(src)))
	dbuf := make([]byte, len(src))
	for i := 0; i < 3; i++ {
		chunk, _ := comp.Compress(cbuf, src)
		out, _ := dec.Decompress(dbuf, chunk)
		fmt.Println(bytes.Equal(out, src))
	}
	// Output:
	// true
	// true
	// true
}
