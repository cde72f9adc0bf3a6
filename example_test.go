package blosc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

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

func ExampleNewSChunk() {
	// 3 MiB of float64s in chunks of 1 MiB: a super-chunk, then its frame.
	src := make([]byte, 3<<20)
	for i := 0; i < len(src)/8; i++ {
		binary.LittleEndian.PutUint64(src[8*i:], math.Float64bits(float64(i)/7))
	}
	opts := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 1 << 20}
	opts.Codec = blosc.LZ4
	s, err := blosc.NewSChunk(opts)
	if err != nil {
		panic(err)
	}
	if err := s.AddMetalayer("shape", []byte{0x91, 0xcd, 0x60, 0x00}); err != nil { // msgpack [24576*16]
		panic(err)
	}
	if err := s.AppendData(src); err != nil {
		panic(err)
	}
	frame, err := s.AppendFrame(nil) // the bytes of a .b2frame file
	if err != nil {
		panic(err)
	}

	r, err := blosc.ParseFrame(frame) // shares frame's bytes, decodes nothing yet
	if err != nil {
		panic(err)
	}
	item, err := r.GetItems(nil, 200000, 1) // reads one block of chunk 1
	if err != nil {
		panic(err)
	}
	meta, _ := r.Metalayer("shape")
	all, _ := r.Decompress(nil)
	fmt.Println(r.Nchunks(), r.Nbytes(), math.Float64frombits(binary.LittleEndian.Uint64(item))*7)
	fmt.Printf("% x %v %v\n", meta, bytes.Equal(all, src), len(frame) < len(src)/2)
	// Output:
	// 3 3145728 200000
	// 91 cd 60 00 true true
}

func ExampleCreateFrameFile() {
	dir, err := os.MkdirTemp("", "frame")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "data.b2frame")

	// Create a frame file and append to it in place: each append is one
	// crash-safe change of the file.
	f, err := os.Create(name)
	if err != nil {
		panic(err)
	}
	opts := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 64 << 10}
	s, err := blosc.CreateFrameFile(f, opts)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 4; i++ {
		if err := s.AppendData(bytes.Repeat([]byte{byte(i)}, 100000)); err != nil {
			panic(err)
		}
	}
	f.Close()

	// Reopen it to change it again, here to append from a reader.
	f, err = os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	s, err = blosc.OpenFrameFile(f)
	if err != nil {
		panic(err)
	}
	n, err := s.AppendFrom(bytes.NewReader(make([]byte, 50000)))
	if err != nil {
		panic(err)
	}
	// Reads touch only the chunks they need.
	p := make([]byte, 3)
	if _, err := s.ReadAt(p, 299999); err != nil {
		panic(err)
	}
	fmt.Println(n, s.Nchunks(), s.Nbytes(), p)
	// Output: 50000 7 450000 [2 3 3]
}

func ExampleNewFrameWriter() {
	f, err := os.CreateTemp("", "stream-*.b2frame")
	if err != nil {
		panic(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	// A frame of any size from a stream: chunks are compressed while the
	// next input is read, and written as they are done.
	opts := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256 << 10}
	opts.Typesize = 4
	w, err := blosc.NewFrameWriter(f, opts)
	if err != nil {
		panic(err)
	}
	in := bytes.Repeat([]byte{1, 0, 0, 0, 2, 0, 0, 0}, 200000) // 1.6 MB
	if _, err := io.Copy(w, bytes.NewReader(in)); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil { // writes the index, trailer and header
		panic(err)
	}

	// Read it back as a stream of its decompressed bytes.
	st, _ := f.Stat()
	s, err := blosc.OpenFrame(f, st.Size())
	if err != nil {
		panic(err)
	}
	r := blosc.NewFrameReader(s)
	defer r.Close()
	var out bytes.Buffer
	n, err := io.Copy(&out, r)
	fmt.Println(n, err, s.Nchunks(), bytes.Equal(out.Bytes(), in))
	// Output: 1600000 <nil> 7 true
}

func ExampleCreateSparseFrame() {
	tmp, err := os.MkdirTemp("", "sframe")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "data") // created by CreateSparseFrame

	// A sparse frame is a directory: chunks.b2frame holds the index and
	// metalayers, each chunk is a file of its own.
	opts := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 8000}
	s, err := blosc.CreateSparseFrame(dir, opts)
	if err != nil {
		panic(err)
	}
	if err := s.AppendData(bytes.Repeat([]byte("sparse"), 4000)); err != nil { // 24000 bytes
		panic(err)
	}
	s, err = blosc.OpenSparseFrame(dir)
	if err != nil {
		panic(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	fmt.Println(s.Nchunks(), s.Nbytes(), names)
	// Output: 3 24000 [00000000.chunk 00000001.chunk 00000002.chunk chunks.b2frame]
}

func ExampleDecompress_errors() {
	chunk, _ := blosc.Compress(nil, make([]byte, 1000), blosc.DefaultOptions())
	// Bad input is an error that wraps a sentinel, never a panic.
	_, err := blosc.Decompress(nil, chunk[:10])
	fmt.Println(errors.Is(err, blosc.ErrCorrupt))
	// Output: true
}
