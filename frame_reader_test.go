package blosc

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/goblosc/blosc/internal/golden"
)

// TestFrameReaderGolden: every golden frame read through a FrameReader
// gives its sidecar's data, by Read, by WriteTo, and through iotest's
// checks of Reader behaviour.
func TestFrameReaderGolden(t *testing.T) {
	dir := golden.Dir(t)
	sidecars, _ := filepath.Glob(filepath.Join(dir, "frames", "*.json"))
	if len(sidecars) == 0 {
		t.Fatal("no sidecars")
	}
	for _, sp := range sidecars {
		fp := strings.TrimSuffix(sp, ".json") + ".b2frame"
		sc := readFrameSidecar(t, sp)
		var s *SChunk
		var err error
		if st, _ := os.Stat(fp); st != nil && st.IsDir() {
			s, err = OpenSparseFrame(fp)
		} else {
			b, _ := os.ReadFile(fp)
			s, err = ParseFrame(b)
		}
		if err != nil {
			t.Fatalf("%s: %v", fp, err)
		}
		s.opts.Threads = 2
		got, err := io.ReadAll(NewFrameReader(s))
		if err != nil || golden.SHA256(got) != sc.DataSHA256 {
			t.Errorf("%s: Read gives %d bytes (%v)", filepath.Base(fp), len(got), err)
		}
		var w bytes.Buffer
		if _, err := NewFrameReader(s).WriteTo(&w); err != nil || golden.SHA256(w.Bytes()) != sc.DataSHA256 {
			t.Errorf("%s: WriteTo: %v", filepath.Base(fp), err)
		}
		if len(got) > 1000 {
			continue // iotest's ReadAt checks decode a block per byte
		}
		if err := iotest.TestReader(NewFrameReader(s), got); err != nil {
			t.Errorf("%s: %v", filepath.Base(fp), err)
		}
	}
}

// TestFrameReaderSeek: random seeks and reads of odd sizes agree with
// Decompress; reads after Close fail; no goroutine is left behind.
func TestFrameReaderSeek(t *testing.T) {
	before := runtime.NumGoroutine()
	o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 4096}
	o.Codec, o.Threads = LZ4, 3
	s, _ := NewSChunk(o)
	data := golden.MustPattern(t, "linspace_f64", 100000+13)
	if err := s.AppendData(data); err != nil {
		t.Fatal(err)
	}
	r := NewFrameReader(s)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 200; k++ {
		off := int64(rng.IntN(len(data) + 10))
		if _, err := r.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		p := make([]byte, rng.IntN(9000))
		n, err := io.ReadFull(r, p)
		want := data[min(off, int64(len(data))):]
		want = want[:min(len(want), len(p))]
		if !bytes.Equal(p[:n], want) {
			t.Fatalf("read of %d at %d differs", len(p), off)
		}
		if n < len(p) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			t.Fatalf("short read error %v", err)
		}
	}
	// iotest's checks of a Reader, across many small chunks.
	small, _ := NewSChunk(SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 4, Threads: 2}, ChunkSize: 256})
	if err := small.AppendData(data[:3000]); err != nil {
		t.Fatal(err)
	}
	if err := iotest.TestReader(NewFrameReader(small), data[:3000]); err != nil {
		t.Error(err)
	}
	if pos, _ := r.Seek(-5, io.SeekEnd); pos != int64(len(data)-5) {
		t.Errorf("SeekEnd to %d", pos)
	}
	if _, err := r.Seek(-1, io.SeekStart); !errors.Is(err, ErrRange) {
		t.Errorf("negative seek: %v", err)
	}
	p := make([]byte, 10)
	if _, err := r.ReadAt(p, 5000); err != nil || !bytes.Equal(p, data[5000:5010]) {
		t.Errorf("ReadAt: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(p); err == nil {
		t.Error("Read after Close succeeded")
	}
	time.Sleep(50 * time.Millisecond)
	// The package's persistent workers may have started; nothing else.
	if after := runtime.NumGoroutine(); after > before+maxWorkers {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
}

// TestFrameReaderCorrupt: a chunk that does not decode fails the read
// with ErrCorrupt, and Close reports it.
func TestFrameReaderCorrupt(t *testing.T) {
	b := sampleFrame(t)
	s, _ := ParseFrame(b)
	c, _ := s.Chunk(nil, 2)
	i := bytes.Index(b, c)
	bad := bytes.Clone(b)
	for k := i + 40; k < i+len(c); k++ {
		bad[k] ^= 0x5a
	}
	s2, err := ParseFrame(bad)
	if err != nil {
		t.Skip("SKIPPED: the damage was caught when parsing")
	}
	r := NewFrameReader(s2)
	_, err = io.ReadAll(r)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("read error %v", err)
	}
	if cerr := r.Close(); !errors.Is(cerr, ErrCorrupt) {
		t.Errorf("Close: %v", cerr)
	}
}

// failAfter accepts limit bytes, then fails.
type failAfter struct {
	buf   bytes.Buffer
	limit int
}

var errWriterFull = errors.New("writer full")

func (w *failAfter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:room])
		return room, errWriterFull
	}
	return w.buf.Write(p)
}

// TestFrameReaderWriteTo: WriteTo, which decodes the next chunks while it
// writes, gives the data from any position, stops exactly where a writer
// fails (the position then says how far it got, and reading on resumes
// there), and reports a corrupt chunk after writing everything before it.
func TestFrameReaderWriteTo(t *testing.T) {
	data := golden.MustPattern(t, "f32_noise", 40*16<<10+123)
	for _, th := range []int{1, 2, 3} {
		o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 16 << 10}
		o.Codec, o.Typesize, o.Threads = LZ4, 4, th
		s, _ := NewSChunk(o)
		if err := s.AppendData(data); err != nil {
			t.Fatal(err)
		}
		for _, from := range []int64{0, 1, 16<<10 - 1, 16 << 10, 200001, int64(len(data)) - 5, int64(len(data))} {
			r := NewFrameReader(s)
			if _, err := r.Seek(from, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			var w bytes.Buffer
			n, err := r.WriteTo(&w)
			if err != nil || n != int64(len(data))-from || !bytes.Equal(w.Bytes(), data[from:]) {
				t.Fatalf("threads %d from %d: WriteTo %d, %v, data equal %v", th, from, n, err, bytes.Equal(w.Bytes(), data[from:]))
			}
		}
		for _, limit := range []int{0, 1, 16 << 10, 3*16<<10 + 7, 300000} {
			r := NewFrameReader(s)
			w := &failAfter{limit: limit}
			n, err := r.WriteTo(w)
			if !errors.Is(err, errWriterFull) || n != int64(limit) || !bytes.Equal(w.buf.Bytes(), data[:limit]) {
				t.Fatalf("threads %d, writer full at %d: WriteTo %d, %v", th, limit, n, err)
			}
			rest, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(rest, data[limit:]) {
				t.Fatalf("threads %d: reading on after a failed WriteTo at %d: %v", th, limit, err)
			}
		}
		// Damage chunk 7: everything before it is written, then the error.
		b, _ := s.AppendFrame(nil)
		c, _ := s.Chunk(nil, 7)
		i := bytes.Index(b, c)
		bad := bytes.Clone(b)
		for k := i + 40; k < i+len(c); k++ {
			bad[k] ^= 0x5a
		}
		s2, err := ParseFrame(bad)
		if err != nil {
			t.Fatal(err)
		}
		s2.opts.Threads = th
		r := NewFrameReader(s2)
		var w bytes.Buffer
		n, err := r.WriteTo(&w)
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("threads %d: WriteTo over a damaged chunk: %v", th, err)
		}
		if n != 7*16<<10 || !bytes.Equal(w.Bytes(), data[:n]) {
			t.Fatalf("threads %d: %d bytes written before the damaged chunk, which starts at %d", th, n, 7*16<<10)
		}
		if cerr := r.Close(); !errors.Is(cerr, ErrCorrupt) {
			t.Errorf("Close: %v", cerr)
		}
	}
}
