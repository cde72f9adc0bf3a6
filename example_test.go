package blosc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc"
)

func Example() {
	// 10000 little-endian int64s: highly compressible once shuffled.
	src := make([]byte, 8*10000)
	for i := 0; i < 10000; i++ {
		binary.LittleEndian.PutUint64(src[8*i:], uint64(i))
	}
	opts := blosc.DefaultOptions() // BloscLZ, level 5, typesize 8, byte shuffle
	chunk, err := blosc.Compress(nil, src, opts)
	if err != nil {
		panic(err)
	}
	out, err := blosc.Decompress(nil, chunk)
	if err != nil {
		panic(err)
	}
	fmt.Println(bytes.Equal(out, src), len(chunk) < len(src)/10)
	// Output: true true
}

func ExampleCompressor() {
	// Build the contexts once and reuse them with buffers that are large
	// enough: the calls then allocate nothing.
	opts := blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 4, Threads: 1}
	opts.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
	c, err := blosc.NewCompressor(opts)
	if err != nil {
		panic(err)
	}
	d, err := blosc.NewDecompressor(blosc.DecompressOptions{Threads: 1})
	if err != nil {
		panic(err)
	}
	src := bytes.Repeat([]byte{1, 0, 0, 0, 2, 0, 0, 0}, 512)
	chunk := make([]byte, 0, blosc.CompressBound(len(src)))
	out := make([]byte, 0, len(src))
	for i := 0; i < 3; i++ {
		chunk, _ = c.Compress(chunk[:0], src)
		out, _ = d.Decompress(out[:0], chunk)
	}
	fmt.Println(bytes.Equal(out, src))
	// Output: true
}

func ExampleGetItems() {
	src := make([]byte, 4*1000)
	for i := 0; i < 1000; i++ {
		binary.LittleEndian.PutUint32(src[4*i:], uint32(i*i))
	}
	opts := blosc.DefaultOptions()
	opts.Typesize = 4
	chunk, _ := blosc.Compress(nil, src, opts)
	items, err := blosc.GetItems(nil, chunk, 300, 2) // items 300 and 301
	if err != nil {
		panic(err)
	}
	fmt.Println(binary.LittleEndian.Uint32(items), binary.LittleEndian.Uint32(items[4:]))
	// Output: 90000 90601
}

func ExampleReadHeader() {
	chunk, _ := blosc.Compress(nil, make([]byte, 4096), blosc.DefaultOptions())
	h, err := blosc.ReadHeader(chunk)
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Format, h.Codec, h.Typesize, h.Nbytes)
	// Output: blosc1 blosclz 8 4096
}
