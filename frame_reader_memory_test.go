package blosc

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
)

// onlyReader hides everything of a reader but Read (so io.Copy uses it).
type onlyReader struct{ io.Reader }

// onlyWriter hides everything of a writer but Write.
type onlyWriter struct{ io.Writer }

// specialFrame returns a frame of special chunks larger than pieceBytes
// mixed with regular ones, and ChunkSize cs: data, zeros, NaN, a repeated
// value, data, a short run of zeros.
func specialFrame(t *testing.T, s *SChunk, cs int) {
	t.Helper()
	data := make([]byte, cs)
	for i := range data {
		data[i] = byte(i * 131 >> 5)
	}
	value := make([]byte, 8)
	for i, err := range []error{
		s.AppendData(data),
		s.AppendSpecial(SpecialZeros, int64(cs/8), nil),
		s.AppendSpecial(SpecialNaN, int64(cs/8), nil),
		s.AppendSpecial(SpecialValue, int64(cs/8), append(value[:0], 1, 2, 3, 4, 5, 6, 7, 8)),
		s.AppendData(data[:cs-8]),
		s.AppendData(data[:8]),
		s.AppendSpecial(SpecialZeros, int64(cs/8)+1000, nil),
	} {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
}

// TestStreamSpecialPieces: a stream of a frame whose special chunks are
// read in pieces gives the frame's bytes through WriteTo, Read with small
// buffers, a Seek into a special chunk's middle, and ReadAt, for a frame
// in memory, a frame file, a mapped one and a sparse frame.
func TestStreamSpecialPieces(t *testing.T) {
	cs := 2*pieceBytes + pieceBytes/2 + 8
	opts := SChunkOptions{Options: DefaultOptions(), ChunkSize: cs}
	opts.Typesize = 8
	opts.Threads = 2
	mem, err := NewSChunk(opts)
	if err != nil {
		t.Fatal(err)
	}
	specialFrame(t, mem, cs)
	want, err := mem.Decompress(nil)
	if err != nil {
		t.Fatal(err)
	}
	ff := faultfile.New(nil, faultfile.NoFault)
	fs, err := CreateFrameFile(ff, opts)
	if err != nil {
		t.Fatal(err)
	}
	specialFrame(t, fs, cs)
	fb := ff.Bytes()
	dir := filepath.Join(t.TempDir(), "s")
	sp, err := CreateSparseFrame(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	specialFrame(t, sp, cs)
	opened := map[string]func() (*SChunk, error){
		"memory": func() (*SChunk, error) { return mem, nil },
		"file":   func() (*SChunk, error) { return OpenFrame(bytes.NewReader(fb), int64(len(fb))) },
		"bytes":  func() (*SChunk, error) { return OpenFrameBytes(fb) },
		"sparse": func() (*SChunk, error) { return OpenSparseFrame(dir) },
	}
	for name, open := range opened {
		t.Run(name, func(t *testing.T) {
			for _, threads := range []int{1, 3} {
				s, err := open()
				if err != nil {
					t.Fatal(err)
				}
				s.opts.Threads = threads
				var b bytes.Buffer
				if _, err := NewFrameReader(s).WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), want) {
					t.Fatalf("threads %d: WriteTo: %v, equal %v", threads, err, bytes.Equal(b.Bytes(), want))
				}
				got, err := io.ReadAll(io.LimitReader(onlyReader{NewFrameReader(s)}, int64(len(want))+1))
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("threads %d: Read: %v, equal %v", threads, err, bytes.Equal(got, want))
				}
				for _, at := range []int64{int64(cs + pieceBytes + 3), 3*int64(cs) + 5, int64(len(want)) - 7} {
					r := NewFrameReader(s)
					r.Seek(at, io.SeekStart)
					b.Reset()
					if _, err := r.WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), want[at:]) {
						t.Fatalf("threads %d: WriteTo from %d: %v", threads, at, err)
					}
					r.Seek(at, io.SeekStart)
					p := make([]byte, 1000)
					if n, err := io.ReadFull(r, p); n != len(p) && err != io.ErrUnexpectedEOF || !bytes.Equal(p[:n], want[at:at+int64(n)]) {
						t.Fatalf("threads %d: Read from %d: %v", threads, at, err)
					}
					if n, err := r.ReadAt(p, at-100); n != len(p) && err != io.EOF || !bytes.Equal(p[:n], want[at-100:at-100+int64(n)]) {
						t.Fatalf("threads %d: ReadAt %d: %v", threads, at-100, err)
					}
				}
			}
		})
	}
}

// TestStreamSpecialMemory: streaming a frame of a few hundred bytes
// whose 16 special chunks claim 256 MiB each allocates a few pieces, not
// a chunk (it allocated 256 MiB a chunk in flight, a gigabyte at two
// threads), through WriteTo and Read, from memory and from a file.
func TestStreamSpecialMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 4 GiB of zeros")
	}
	const cs = 1 << 28
	opts := SChunkOptions{Options: DefaultOptions(), ChunkSize: cs}
	opts.Typesize, opts.Threads = 8, 2
	s, err := NewSChunk(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendSpecial(SpecialZeros, 16*cs/8, nil); err != nil {
		t.Fatal(err)
	}
	// A repeated value too: stored as a chunk, not coded in the index.
	if err := s.AppendSpecial(SpecialValue, 2*cs/8, []byte{1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
		t.Fatal(err)
	}
	b, err := s.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.b2frame")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs, err := OpenFrame(f, int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	fs.opts.Threads = 2
	const limit = 48 << 20
	for _, c := range []struct {
		name string
		s    *SChunk
		copy func(r *FrameReader) (int64, error)
	}{
		{"WriteTo memory", s, func(r *FrameReader) (int64, error) { return r.WriteTo(io.Discard) }},
		{"WriteTo file", fs, func(r *FrameReader) (int64, error) { return r.WriteTo(io.Discard) }},
		{"Read file", fs, func(r *FrameReader) (int64, error) {
			return io.CopyBuffer(onlyWriter{io.Discard}, onlyReader{io.LimitReader(r, 3*cs)}, make([]byte, 64<<10))
		}},
	} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		n, err := c.copy(NewFrameReader(c.s))
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n < 3*cs {
			t.Fatalf("%s: %d bytes", c.name, n)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > limit {
			t.Errorf("%s of %d bytes allocated %d MiB", c.name, n, a>>20)
		} else {
			t.Logf("%s of %d MiB allocated %d KiB", c.name, n>>20, a>>10)
		}
	}
}
