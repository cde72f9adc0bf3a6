package b2nd_test

import (
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
)

// A 4x6 array of int32 in chunks of 2x4 items, read back by a slice.
func Example() {
	data := make([]byte, 4*6*4)
	for i := range 24 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i))
	}
	a, err := b2nd.FromBuffer(b2nd.Params{
		Shape: []int64{4, 6}, ChunkShape: []int32{2, 4}, BlockShape: []int32{2, 2},
		DType: "<i4", Options: blosc.DefaultOptions(),
	}, data)
	if err != nil {
		log.Fatal(err)
	}
	s, err := a.GetSlice(nil, []int64{1, 2}, []int64{3, 5}) // rows 1-2, columns 2-4
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < len(s); i += 4 {
		fmt.Print(binary.LittleEndian.Uint32(s[i:]), " ")
	}
	fmt.Println()
	// Output: 8 9 10 14 15 16
}

// Opening a .b2nd file (python-blosc2's NDArray, c-blosc2's b2nd) reads
// only the chunks a slice needs.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "b2nd")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "zeros.b2nd")
	z, err := b2nd.Zeros(b2nd.Params{Shape: []int64{300, 200}, DType: "<f8", Path: name, Options: blosc.DefaultOptions()})
	if err != nil {
		log.Fatal(err)
	}
	z.Close()

	a, err := b2nd.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	fmt.Println(a.Shape(), a.DType(), a.Itemsize())
	row, err := a.GetSlice(nil, []int64{150, 0}, []int64{151, 200})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(row))
	// Output:
	// [300 200] <f8 8
	// 1600
}

// Growing an array along its first axis, as python-blosc2's
// NDArray.resize and c-blosc2's b2nd_append do.
func ExampleArray_Append() {
	a, err := b2nd.Zeros(b2nd.Params{Shape: []int64{2, 3}, ChunkShape: []int32{2, 2}, BlockShape: []int32{1, 2}, DType: "|u1", Options: blosc.DefaultOptions()})
	if err != nil {
		log.Fatal(err)
	}
	if err := a.Append([]byte{1, 2, 3, 4, 5, 6}, 0); err != nil {
		log.Fatal(err)
	}
	all, _ := a.Read(nil)
	fmt.Println(a.Shape(), all)
	// Output: [4 3] [0 0 0 0 0 0 1 2 3 4 5 6]
}
