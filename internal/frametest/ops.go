package frametest

import (
	"bytes"
	"slices"
	"testing"
)

// Frame is the super-chunk the frame tests change and read back, as its
// methods are spelled in the root package.
type Frame interface {
	Decompress(dst []byte) ([]byte, error)
	MetalayerNames() []string
	Metalayer(name string) ([]byte, error)
	VLMetalayerNames() []string
	VLMetalayer(name string) ([]byte, error)

	AppendData(p []byte) error
	AppendChunk(chunk []byte) error
	InsertChunk(i int, chunk []byte) error
	UpdateChunk(i int, chunk []byte) error
	DeleteChunk(i int) error
	AddMetalayer(name string, content []byte) error
	UpdateMetalayer(name string, content []byte) error
	AddVLMetalayer(name string, content []byte) error
	UpdateVLMetalayer(name string, content []byte) error
	DeleteVLMetalayer(name string) error
}

// State is what a reader sees of a frame: data, metalayers, vlmetalayers.
type State struct {
	Data   []byte
	Meta   map[string]string
	VLMeta []string // "name=content" in order
}

// StateOf reads s whole.
func StateOf(t testing.TB, s Frame) State {
	t.Helper()
	d, err := s.Decompress(nil)
	if err != nil {
		t.Fatalf("Decompress: %v", err)
	}
	st := State{Data: d, Meta: map[string]string{}}
	for _, n := range s.MetalayerNames() {
		c, _ := s.Metalayer(n)
		st.Meta[n] = string(c)
	}
	for _, n := range s.VLMetalayerNames() {
		c, err := s.VLMetalayer(n)
		if err != nil {
			t.Fatalf("vlmetalayer %q: %v", n, err)
		}
		st.VLMeta = append(st.VLMeta, n+"="+string(c))
	}
	return st
}

// Equal reports whether a reader sees the same in a and b.
func (a State) Equal(b State) bool {
	if !bytes.Equal(a.Data, b.Data) || !slices.Equal(a.VLMeta, b.VLMeta) || len(a.Meta) != len(b.Meta) {
		return false
	}
	for k, v := range a.Meta {
		if b.Meta[k] != v {
			return false
		}
	}
	return true
}

// Op is a change run on a frame (F: the root package's *SChunk).
type Op[F Frame] struct {
	Name string
	Do   func(s F) error
}

// ChunkData is the 256 bytes of the chunk FileOps' caller compresses for
// seed: 3, 5 and 9.
func ChunkData(seed byte) []byte {
	d := make([]byte, 256)
	for i := range d {
		d[i] = seed + byte(i/7)
	}
	return d
}

// FileOps are the changes the frame-file tests make to a frame Base
// filled: chunk(seed) is ChunkData(seed) compressed as a Blosc2 chunk of
// the frame's settings, zeros a 256-byte special zeros chunk.
func FileOps[F Frame](chunk func(seed byte) []byte, zeros []byte) []Op[F] {
	return []Op[F]{
		{"AppendData", func(s F) error { return s.AppendData(bytes.Repeat([]byte("0123456789abcdef"), 40)) }},
		{"AppendChunk", func(s F) error { return s.AppendChunk(chunk(3)) }},
		{"InsertChunk", func(s F) error { return s.InsertChunk(1, chunk(9)) }},
		{"UpdateChunk", func(s F) error { return s.UpdateChunk(0, chunk(5)) }},
		{"UpdateChunk zeros", func(s F) error { return s.UpdateChunk(2, zeros) }},
		{"DeleteChunk", func(s F) error { return s.DeleteChunk(1) }},
		{"AddVLMetalayer", func(s F) error { return s.AddVLMetalayer("new", []byte("value")) }},
		{"UpdateVLMetalayer", func(s F) error { return s.UpdateVLMetalayer("attrs", []byte(`{"a": 2}`)) }},
		{"DeleteVLMetalayer", func(s F) error { return s.DeleteVLMetalayer("attrs") }},
		{"UpdateMetalayer", func(s F) error { return s.UpdateMetalayer("b2nd", []byte("SHAPE")) }},
	}
}

// Fill gives an empty frame of 256-byte chunks what the operations
// expect: a metalayer, three chunks of data and a vlmetalayer.
func Fill(s Frame, data []byte) error {
	for _, err := range []error{
		s.AddMetalayer("b2nd", []byte("shape")),
		s.AppendData(data),
		s.AddVLMetalayer("attrs", []byte(`{"a": 1}`)),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// FillSparse fills an empty sparse frame as Fill does with zeros, then
// makes its second chunk zerosLZ4 (256 zero bytes, LZ4: stored as a
// special chunk the index codes, with no file) and its third ramp (Ramp
// compressed with BloscLZ and byte shuffle).
func FillSparse(s Frame, zerosLZ4, ramp []byte) error {
	if err := Fill(s, make([]byte, 768)); err != nil {
		return err
	}
	if err := s.UpdateChunk(1, zerosLZ4); err != nil {
		return err
	}
	return s.UpdateChunk(2, ramp)
}

// Ramp is 256 bytes counting up from 0.
func Ramp() []byte {
	d := make([]byte, 256)
	for i := range d {
		d[i] = byte(i)
	}
	return d
}
