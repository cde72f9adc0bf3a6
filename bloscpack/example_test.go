package bloscpack_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/goblosc/blosc/bloscpack"
)

func Example() {
	data := bytes.Repeat([]byte("bloscpack "), 50000)
	o := bloscpack.DefaultOptions() // blpk compress's defaults
	o.ChunkSize = 128 << 10
	o.Metadata = bloscpack.NewNumpyMetadata("'|S10'", []int64{50000}, "C")
	file, err := bloscpack.Pack(data, o)
	if err != nil {
		log.Fatal(err)
	}
	back, meta, err := bloscpack.Unpack(file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(back, data), meta.Numpy.Dtype, meta.Numpy.Shape)
	// Output: true '|S10' [50000]
}

func ExampleOpen() {
	data := bytes.Repeat([]byte{1, 2, 3, 4}, 1<<18) // 1 MiB
	o := bloscpack.DefaultOptions()
	o.ChunkSize = 64 << 10
	file, _ := bloscpack.Pack(data, o)

	f, err := bloscpack.Open(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		log.Fatal(err)
	}
	// Bytes [700000, 700008) come from chunk 10 alone, found through
	// the offsets.
	p := make([]byte, 8)
	if _, err := f.ReadAt(p, 700000); err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Nchunks(), f.Header().Checksum, p)
	// Output: 16 adler32 [1 2 3 4 1 2 3 4]
}

func ExampleNewWriter() {
	var out bytes.Buffer
	o := bloscpack.DefaultOptions()
	o.Offsets = false // a plain io.Writer cannot be seeked back to fill them
	w, err := bloscpack.NewWriter(&out, 300000, o)
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		w.Write(bytes.Repeat([]byte{byte(i)}, 100000))
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	r, err := bloscpack.NewReader(&out)
	if err != nil {
		log.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	fmt.Println(n, err)
	// Output: 300000 <nil>
}

func ExampleAppend() {
	dir, _ := os.MkdirTemp("", "blp")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "data.blp")
	o := bloscpack.DefaultOptions()
	o.ChunkSize = 4096
	file, _ := bloscpack.Pack(make([]byte, 10000), o)
	os.WriteFile(name, file, 0o644)

	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	added, err := bloscpack.Append(f, bytes.NewReader(make([]byte, 5000)), 5000, nil)
	if err != nil {
		log.Fatal(err)
	}
	st, _ := f.Stat()
	bf, _ := bloscpack.Open(f, st.Size())
	fmt.Println(added, bf.Nchunks(), bf.Len(), bf.Header().MaxAppChunks)
	// Output: 1 4 15000 29
}
