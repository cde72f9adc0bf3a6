package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/golden"
)

// sampleFrame is a small frame with metalayers, a short last chunk, a
// special chunk and holes left by an update and a delete.
func sampleFrame(tb testing.TB) []byte {
	tb.Helper()
	o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 1024}
	o.Codec, o.Typesize = LZ4, 4
	s, err := NewSChunk(o)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.AddMetalayer("m", []byte{1, 2, 3}); err != nil {
		tb.Fatal(err)
	}
	data := make([]byte, 5*1024+100)
	for i := range data {
		data[i] = byte(i / 3)
	}
	if err := s.AppendData(data); err != nil {
		tb.Fatal(err)
	}
	o2 := o.Options
	o2.Format = FormatBlosc2
	z, _ := ZerosChunk(nil, 1024, 4)
	c, _ := Compress(nil, bytes.Repeat([]byte("abcd"), 256), o2)
	for _, err := range []error{s.UpdateChunk(1, z), s.UpdateChunk(2, c), s.DeleteChunk(3), s.AddVLMetalayer("v", []byte("hello"))} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	f, err := s.AppendFrame(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// FuzzParseFrame: no input makes the frame reader panic; a frame it
// accepts decodes the same way chunk by chunk, as a whole, through ReadAt
// and after being written back; and any failure is a corrupt or
// unsupported input.
func FuzzParseFrame(f *testing.F) {
	f.Add(sampleFrame(f))
	if dir, err := golden.Locate(); err == nil {
		files, _ := filepath.Glob(filepath.Join(dir, "frames", "*.b2frame"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseFrame(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("ParseFrame error %v wraps neither ErrCorrupt nor ErrUnsupported", err)
			}
			return
		}
		if s.Nbytes() > 16<<20 || s.Nchunks() > 4096 {
			// Special chunks can stand for gigabytes, and tiny chunks
			// for millions: read a little.
			p := make([]byte, 64)
			_, _ = s.ReadAt(p, s.Nbytes()/2)
			return
		}
		whole, err := s.Decompress(nil)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Decompress error %v wraps neither ErrCorrupt nor ErrUnsupported", err)
			}
			return
		}
		if int64(len(whole)) != s.Nbytes() {
			t.Fatalf("Decompress returned %d bytes of %d", len(whole), s.Nbytes())
		}
		var joined []byte
		for i := 0; i < s.Nchunks(); i++ {
			c, err := s.DecompressChunk(nil, i)
			if err != nil {
				t.Fatalf("chunk %d fails alone but not in Decompress: %v", i, err)
			}
			joined = append(joined, c...)
		}
		if !bytes.Equal(joined, whole) {
			t.Fatal("chunks decoded one by one differ from Decompress")
		}
		if n := len(whole); n > 2 {
			p := make([]byte, n/2)
			if _, err := s.ReadAt(p, int64(n/3)); err != nil || !bytes.Equal(p, whole[n/3:n/3+n/2]) {
				t.Fatalf("ReadAt differs from Decompress (%v)", err)
			}
		}
		back, err := s.AppendFrame(nil)
		if err != nil {
			t.Fatalf("Frame: %v", err)
		}
		r, err := ParseFrame(back)
		if err != nil {
			t.Fatalf("the frame written back does not parse: %v", err)
		}
		again, err := r.Decompress(nil)
		if err != nil || !bytes.Equal(again, whole) {
			t.Fatalf("the frame written back decodes differently (%v)", err)
		}
	})
}

// TestFrameHostileSizes: headers claiming 2^40 chunks, chunk bytes past
// the end, an index longer than the frame, a trailer length pointing
// outside, overlapping or repeated offsets: each is refused with
// ErrCorrupt, before anything near the claimed size is allocated.
func TestFrameHostileSizes(t *testing.T) {
	base := sampleFrame(t)
	h, err := parseFrameHeader(base)
	if err != nil {
		t.Fatal(err)
	}
	put64 := func(b []byte, pos int, v int64) { binary.BigEndian.PutUint64(b[pos:], uint64(v)) }
	cases := map[string]func(b []byte){
		"2^40 chunks":         func(b []byte) { put64(b, frameNbytesPos, 1<<40*1024) },
		"2^62 bytes":          func(b []byte) { put64(b, frameNbytesPos, 1<<62) },
		"cbytes past the end": func(b []byte) { put64(b, frameCbytesPos, 1<<40) },
		"header_len huge": func(b []byte) {
			binary.BigEndian.PutUint32(b[frameHeaderLenPos:], 1<<30)
		},
		"frame_len huge":   func(b []byte) { put64(b, frameLenPos, 1<<50) },
		"frame_len short":  func(b []byte) { put64(b, frameLenPos, int64(h.headerLen)+3) },
		"trailer_len huge": func(b []byte) { binary.BigEndian.PutUint32(b[len(b)-22:], 1<<31) },
		"trailer_len tiny": func(b []byte) { binary.BigEndian.PutUint32(b[len(b)-22:], 3) },
		"chunksize 7":      func(b []byte) { binary.BigEndian.PutUint32(b[frameChunksizePos:], 7) },
		"chunksize -5":     func(b []byte) { binary.BigEndian.PutUint32(b[frameChunksizePos:], 0xfffffffb) },
		"metalayer offset outside": func(b []byte) {
			binary.BigEndian.PutUint32(b[frameHeaderMinLen+7+3:], 1<<30)
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			b := bytes.Clone(base)
			mutate(b)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := openAndDecodeFrame(b)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v, want ErrCorrupt", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("allocated %d bytes for a %d-byte frame", alloc, len(b))
			}
		})
	}
	// Offsets that overlap, repeat or point past the chunk bytes, written
	// into a rebuilt index.
	s, err := ParseFrame(base)
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(v []int64){
		"two chunks at one offset": func(v []int64) { v[1] = v[0] },
		"overlapping chunks":       func(v []int64) { v[1] = v[0] + 5 },
		"offset past the end":      func(v []int64) { v[0] = 1 << 40 },
		"unknown special":          func(v []int64) { v[0] = specialOffset(5) },
		"special with payload":     func(v []int64) { v[0] = specialOffset(1) | 77 },
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ParseFrame(base)
			if err != nil {
				t.Fatal(err)
			}
			c.offs = offsetIndex{vals: append([]int64(nil), s.offs.vals...), n: s.offs.n}
			edit(c.offs.vals)
			c.offsChunk = nil
			b, err := c.AppendFrame(nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := openAndDecodeFrame(b); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v, want ErrCorrupt", err)
			}
		})
	}
}

// FuzzOpenFrame: the lazy reader over a ReaderAt never panics, agrees with
// ParseFrame on every frame both accept, and a change made in place to a
// frame it opens leaves a file that opens to the changed data.
func FuzzOpenFrame(f *testing.F) {
	f.Add(sampleFrame(f))
	// Chunks large enough to be read block by block.
	big, _ := NewSChunk(SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 4, Filters: [MaxFilters]Filter{5: ByteShuffle}, Blocksize: 4096}, ChunkSize: 32 << 10})
	noise := make([]byte, 40<<10)
	for i := range noise {
		noise[i] = byte(uint32(i)*2654435761>>13) ^ byte(i)
	}
	if err := big.AppendData(noise); err != nil {
		f.Fatal(err)
	}
	if b, err := big.AppendFrame(nil); err == nil {
		f.Add(b)
	}
	f.Fuzz(checkOpenFrame)
}

// FuzzOpenFrameLazyIndex is FuzzOpenFrame with every compressed offsets
// index read lazily, a block at a time, however few chunks it lists (a
// file reads so only indexes of more than 8,192 chunks, too large for the
// fuzzer to mutate well).
func FuzzOpenFrameLazyIndex(f *testing.F) {
	old := lazyIndexMin
	lazyIndexMin = 0
	f.Cleanup(func() { lazyIndexMin = old })
	f.Add(sampleFrame(f))
	b, _ := manyChunkFrame(f, 300)
	f.Add(b)
	f.Fuzz(checkOpenFrame)
}

// FuzzFrameReaderPieces is FuzzOpenFrame with special chunks of more
// than 64 bytes streamed in pieces of 64 (pieceBytes), from seeds of
// zeros, NaN and repeated-value chunks between chunks of data.
func FuzzFrameReaderPieces(f *testing.F) {
	old := pieceBytes
	pieceBytes = 64
	f.Cleanup(func() { pieceBytes = old })
	s, err := NewSChunk(SChunkOptions{Options: Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8}, ChunkSize: 256})
	if err != nil {
		f.Fatal(err)
	}
	for _, err := range []error{
		s.AppendData(bytes.Repeat([]byte("data, 8b"), 40)),
		s.AppendSpecial(SpecialZeros, 64, nil),
		s.AppendSpecial(SpecialNaN, 40, nil),
		s.AppendSpecial(SpecialValue, 70, []byte("repeated")),
		s.AppendData(bytes.Repeat([]byte("more 8b!"), 20)),
	} {
		if err != nil {
			f.Fatal(err)
		}
	}
	b, err := s.AppendFrame(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(sampleFrame(f))
	f.Fuzz(checkOpenFrame)
}

// checkOpenFrame is the fuzz targets' check of OpenFrame on b.
func checkOpenFrame(t *testing.T, b []byte) {
	s, err := OpenFrame(bytes.NewReader(b), int64(len(b)))
	inPlace, berr := OpenFrameBytes(b)
	if (berr == nil) != (err == nil) {
		t.Fatalf("OpenFrame says %v, OpenFrameBytes %v", err, berr)
	}
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrRange) {
			t.Fatalf("OpenFrame error %v wraps no sentinel", err)
		}
		return
	}
	if s.Nbytes() > 16<<20 || s.Nchunks() > 4096 {
		return
	}
	lazy, lerr := s.Decompress(nil)
	// Chunks taken in place decode as chunks read out do, or fail alike.
	if got, ierr := inPlace.Decompress(nil); (ierr == nil) != (lerr == nil) || lerr == nil && !bytes.Equal(got, lazy) {
		t.Fatalf("OpenFrameBytes decodes to %d bytes (%v), OpenFrame to %d (%v)", len(got), ierr, len(lazy), lerr)
	}
	if lerr == nil && len(lazy)/pieceBytes <= 4096 {
		// Streamed, in pieces when special chunks are large, it is the
		// same data (for a few thousand pieces at most: a fuzzer's
		// frame of tiny pieces would take long).
		var wb bytes.Buffer
		if _, err := NewFrameReader(s).WriteTo(&wb); err != nil || !bytes.Equal(wb.Bytes(), lazy) {
			t.Fatalf("WriteTo gives %d bytes (%v), Decompress %d", wb.Len(), err, len(lazy))
		}
		r := NewFrameReader(s)
		r.Seek(int64(len(lazy)/3), io.SeekStart)
		if got, err := io.ReadAll(io.LimitReader(onlyReader{r}, int64(len(lazy)))); err != nil || !bytes.Equal(got, lazy[len(lazy)/3:]) {
			t.Fatalf("Read from %d gives %d bytes (%v)", len(lazy)/3, len(got), err)
		}
	}
	if lerr == nil && len(lazy) > 8 {
		n := int64(len(lazy))
		p := make([]byte, n/4)
		if _, err := s.ReadAt(p, n/3); err != nil || !bytes.Equal(p, lazy[n/3:n/3+n/4]) {
			t.Fatalf("a range read lazily differs from Decompress (%v)", err)
		}
	}
	if m, perr := ParseFrame(b); perr == nil {
		mem, merr := m.Decompress(nil)
		if lerr == nil && merr == nil && !bytes.Equal(lazy, mem) {
			t.Fatal("OpenFrame and ParseFrame decode the same frame differently")
		}
	}
	if lerr != nil {
		return
	}
	ff := faultfile.New(b, faultfile.NoFault)
	w, err := OpenFrameFile(ff)
	if err != nil {
		return // a frame with a rollback record that does not apply
	}
	if err := w.AppendData([]byte("appended by the fuzzer")); err != nil {
		return
	}
	r, err := OpenFrame(bytes.NewReader(ff.Bytes()), int64(len(ff.Bytes())))
	if err != nil {
		t.Fatalf("after an append the file does not open: %v", err)
	}
	got, err := r.Decompress(nil)
	if err != nil || !bytes.HasSuffix(got, []byte("appended by the fuzzer")) {
		t.Fatalf("after an append the file decodes to %d bytes (%v)", len(got), err)
	}
}
