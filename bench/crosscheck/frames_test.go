package crosscheck

import (
	"bytes"
	"slices"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/faultfile"
)

// The frame files and operations of the root package's frame tests
// (frame_file_test.go, sframe_test.go), for c-blosc2 to read after each.

// frameState is what a reader sees of a frame: data, metalayers,
// vlmetalayers.
type frameState struct {
	data   []byte
	meta   map[string]string
	vlmeta []string // "name=content" in order
}

func stateOf(t *testing.T, s *blosc.SChunk) frameState {
	t.Helper()
	d, err := s.Decompress(nil)
	if err != nil {
		t.Fatalf("Decompress: %v", err)
	}
	st := frameState{data: d, meta: map[string]string{}}
	for _, n := range s.MetalayerNames() {
		c, _ := s.Metalayer(n)
		st.meta[n] = string(c)
	}
	for _, n := range s.VLMetalayerNames() {
		c, err := s.VLMetalayer(n)
		if err != nil {
			t.Fatalf("vlmetalayer %q: %v", n, err)
		}
		st.vlmeta = append(st.vlmeta, n+"="+string(c))
	}
	return st
}

func (a frameState) equal(b frameState) bool {
	if !bytes.Equal(a.data, b.data) || !slices.Equal(a.vlmeta, b.vlmeta) || len(a.meta) != len(b.meta) {
		return false
	}
	for k, v := range a.meta {
		if b.meta[k] != v {
			return false
		}
	}
	return true
}

// fileOp is a change run on a frame file.
type fileOp struct {
	name string
	do   func(s *blosc.SChunk) error
}

func fileOps(t *testing.T) []fileOp {
	o := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256}
	o.Format = blosc.FormatBlosc2
	chunk := func(seed byte, n int) []byte {
		d := make([]byte, n)
		for i := range d {
			d[i] = seed + byte(i/7)
		}
		c, err := blosc.Compress(nil, d, o.Options)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	zeros, _ := blosc.ZerosChunk(nil, 256, 8)
	return []fileOp{
		{"AppendData", func(s *blosc.SChunk) error { return s.AppendData(bytes.Repeat([]byte("0123456789abcdef"), 40)) }},
		{"AppendChunk", func(s *blosc.SChunk) error { return s.AppendChunk(chunk(3, 256)) }},
		{"InsertChunk", func(s *blosc.SChunk) error { return s.InsertChunk(1, chunk(9, 256)) }},
		{"UpdateChunk", func(s *blosc.SChunk) error { return s.UpdateChunk(0, chunk(5, 256)) }},
		{"UpdateChunk zeros", func(s *blosc.SChunk) error { return s.UpdateChunk(2, zeros) }},
		{"DeleteChunk", func(s *blosc.SChunk) error { return s.DeleteChunk(1) }},
		{"AddVLMetalayer", func(s *blosc.SChunk) error { return s.AddVLMetalayer("new", []byte("value")) }},
		{"UpdateVLMetalayer", func(s *blosc.SChunk) error { return s.UpdateVLMetalayer("attrs", []byte(`{"a": 2}`)) }},
		{"DeleteVLMetalayer", func(s *blosc.SChunk) error { return s.DeleteVLMetalayer("attrs") }},
		{"UpdateMetalayer", func(s *blosc.SChunk) error { return s.UpdateMetalayer("b2nd", []byte("SHAPE")) }},
	}
}

// baseFrameFile is a frame file with metalayers, vlmetalayers and three
// chunks.
func baseFrameFile(t *testing.T) []byte {
	f := faultfile.New(nil, faultfile.NoFault)
	o := blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256}
	s, err := blosc.CreateFrameFile(f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.AddMetalayer("b2nd", []byte("shape")),
		s.AppendData(bytes.Repeat([]byte("abcdefgh"), 96)),
		s.AddVLMetalayer("attrs", []byte(`{"a": 1}`)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return f.Bytes()
}

// reopen opens a frame file's bytes as OpenFrameFile would after a crash.
func reopen(b []byte) (*blosc.SChunk, *faultfile.File, error) {
	f := faultfile.New(b, faultfile.NoFault)
	s, err := blosc.OpenFrameFile(f)
	return s, f, err
}

// baseSparse makes a sparse frame like baseFrameFile's.
func baseSparse(t *testing.T, dir string) {
	s, err := blosc.CreateSparseFrame(dir, blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.AddMetalayer("b2nd", []byte("shape")),
		s.AppendData(make([]byte, 768)),
		s.AddVLMetalayer("attrs", []byte(`{"a": 1}`)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Zeros: a special chunk the index codes, with no file.
	if err := s.UpdateChunk(1, must(blosc.Compress(nil, make([]byte, 256), blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8}))); err != nil {
		t.Fatal(err)
	}
	d := make([]byte, 256)
	for i := range d {
		d[i] = byte(i)
	}
	if err := s.UpdateChunk(2, must(blosc.Compress(nil, d, blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.BloscLZ, Level: 5, Typesize: 8, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}}))); err != nil {
		t.Fatal(err)
	}
}
