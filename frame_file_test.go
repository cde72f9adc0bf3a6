package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/golden"
)

// countingReader counts ReadAt calls.
type countingReader struct {
	r     io.ReaderAt
	calls atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.calls.Add(1)
	return c.r.ReadAt(p, off)
}

// TestOpenFrameLazy: every golden frame opened through a ReaderAt gives
// the same bytes as from memory, opening takes at most three ReadAt calls
// and a chunk one more.
func TestOpenFrameLazy(t *testing.T) {
	dir := golden.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "frames", "*.b2frame"))
	if len(files) == 0 {
		t.Fatal("no frames")
	}
	for _, fp := range files {
		t.Run(filepath.Base(fp), func(t *testing.T) {
			if st, err := os.Stat(fp); err != nil || st.IsDir() {
				t.Skip("SKIPPED: sparse frame directory (read with its directory)")
			}
			b, err := os.ReadFile(fp)
			if err != nil {
				t.Fatal(err)
			}
			mem, err := ParseFrame(b)
			if err != nil {
				t.Fatal(err)
			}
			cr := &countingReader{r: bytes.NewReader(b)}
			s, err := OpenFrame(cr, int64(len(b)))
			if mem.ChunkSize() == 0 && mem.Nchunks() > 0 {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("variable-size chunks: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := cr.calls.Load(); n > 3 {
				t.Errorf("opening took %d ReadAt calls", n)
			}
			for i := 0; i < s.Nchunks(); i++ {
				before := cr.calls.Load()
				got, err := s.DecompressChunk(nil, i)
				if err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
				want, _ := mem.DecompressChunk(nil, i)
				if !bytes.Equal(got, want) {
					t.Fatalf("chunk %d differs from memory", i)
				}
				if n := cr.calls.Load() - before; n > 1 {
					t.Errorf("chunk %d took %d ReadAt calls", i, n)
				}
			}
			f1, err := s.AppendFrame(nil)
			if err != nil || !bytes.Equal(f1, b) {
				t.Errorf("Frame from the file differs from the file (%v)", err)
			}
			// Embedded at an offset inside a larger file.
			pad := append(append(bytes.Repeat([]byte{0xee}, 1000), b...), bytes.Repeat([]byte{0xdd}, 77)...)
			e, err := OpenFrame(io.NewSectionReader(bytes.NewReader(pad), 1000, int64(len(pad))-1000), int64(len(pad))-1000)
			if err != nil {
				t.Fatalf("OpenFrame at an offset: %v", err)
			}
			all, err := e.Decompress(nil)
			want, _ := mem.Decompress(nil)
			if err != nil || !bytes.Equal(all, want) {
				t.Errorf("embedded frame decodes differently (%v)", err)
			}
		})
	}
}

// The states, operations and base frame the frame-file tests share with
// bench's cross-checks against c-blosc2 (internal/frametest).
type frameState = frametest.State

func stateOf(t *testing.T, s *SChunk) frameState { return frametest.StateOf(t, s) }

type fileOp = frametest.Op[*SChunk]

func fileOps(t *testing.T) []fileOp {
	o := DefaultOptions()
	o.Format = FormatBlosc2
	chunk := func(seed byte) []byte { return must(Compress(nil, frametest.ChunkData(seed), o)) }
	return frametest.FileOps[*SChunk](chunk, must(ZerosChunk(nil, 256, 8)))
}

// baseFrameFile is a frame file with metalayers, vlmetalayers and three
// chunks.
func baseFrameFile(t *testing.T) []byte {
	f := faultfile.New(nil, faultfile.NoFault)
	s, err := CreateFrameFile(f, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	if err := frametest.Fill(s, bytes.Repeat([]byte("abcdefgh"), 96)); err != nil {
		t.Fatal(err)
	}
	return f.Bytes()
}

// reopen opens a frame file's bytes as OpenFrameFile would after a crash.
func reopen(b []byte) (*SChunk, *faultfile.File, error) {
	f := faultfile.New(b, faultfile.NoFault)
	s, err := OpenFrameFile(f)
	return s, f, err
}

// TestFrameFileOperations: each change made to a frame file in place is
// seen by a fresh open and by the read-only opener, and the same change
// on a frame in memory gives the same content.
func TestFrameFileOperations(t *testing.T) {
	base := baseFrameFile(t)
	for _, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			mem, _ := ParseFrame(base)
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			if err := op.Do(mem); err != nil {
				t.Fatal(err)
			}
			want := stateOf(t, mem)
			if got := stateOf(t, s); !got.Equal(want) {
				t.Fatal("the file frame's state differs from the memory frame's")
			}
			b := f.Bytes()
			r, _, err := reopen(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := stateOf(t, r); !got.Equal(want) {
				t.Fatal("reopened file differs")
			}
			ro, err := OpenFrame(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			if got := stateOf(t, ro); !got.Equal(want) {
				t.Fatal("read-only open differs")
			}
			if m, err := ParseFrame(b); err != nil || !stateOf(t, m).Equal(want) {
				t.Fatalf("the file's bytes do not parse as the frame (%v)", err)
			}
			// Writes in proportion to the change: the file grows by less
			// than the old frame.
			if op.Name == "AppendChunk" && len(b) > 2*len(base) {
				t.Errorf("file grew from %d to %d bytes", len(base), len(b))
			}
			if err := ro.AppendData([]byte("x")); !errors.Is(err, ErrUnsupported) {
				t.Errorf("change through a read-only open: %v", err)
			}
		})
	}
}

// TestFrameFileCrashEmpty: the changes of an empty frame file, adding a
// metalayer (which rewrites the small frame: its header grows) and
// filling it with a special value, under the same crashes.
func TestFrameFileCrashEmpty(t *testing.T) {
	f := faultfile.New(nil, faultfile.NoFault)
	if _, err := CreateFrameFile(f, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256}); err != nil {
		t.Fatal(err)
	}
	base := f.Bytes()
	mem, _ := ParseFrame(base)
	before := stateOf(t, mem)
	for _, op := range []fileOp{
		{Name: "AddMetalayer", Do: func(s *SChunk) error { return s.AddMetalayer("b2nd", []byte("abc")) }},
		{Name: "AppendSpecial", Do: func(s *SChunk) error { return s.AppendSpecial(SpecialZeros, 1000, nil) }},
		{Name: "AppendData", Do: func(s *SChunk) error { return s.AppendData([]byte("hello, frame")) }},
	} {
		t.Run(op.Name, func(t *testing.T) {
			m2, _ := ParseFrame(base)
			if err := op.Do(m2); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, m2)
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			if got := stateOf(t, s); !got.Equal(after) {
				t.Fatal("state after the change differs from memory's")
			}
			r, _, err := reopen(f.Bytes())
			if err != nil || !stateOf(t, r).Equal(after) {
				t.Fatalf("reopened file differs (%v)", err)
			}
			tearEveryWrite(t, base, f, op, before, after, func(int) int { return 1 })
		})
	}
}

// tearEveryWrite runs op on base again and again, failing the k-th write
// of the run f logged and tearing it after keep bytes (keep from 0 to the
// write's length, by step(length)), and checks that every file left opens
// to the state before or after op.
func tearEveryWrite(t *testing.T, base []byte, f *faultfile.File, op fileOp, before, after frameState, step func(n int) int) {
	t.Helper()
	for k, w := range f.Log() {
		for keep := 0; keep <= w.Len; keep += step(w.Len) {
			ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
			s, err := OpenFrameFile(ff)
			if err != nil {
				t.Fatal(err)
			}
			err = op.Do(s)
			if !ff.Crashed() {
				t.Fatalf("write %d torn at %d: not reached (%v)", k, keep, err)
			}
			checkCrash(t, fmt.Sprintf("write %d torn at %d", k, keep), err, ff.Bytes(), before, after)
		}
	}
}

// TestFrameFileCrash runs every change through a file that fails at every
// write, and tears each write at every byte; each file left behind must
// open (OpenFrameFile, OpenFrame) to the state before or after the change.
func TestFrameFileCrash(t *testing.T) {
	base := baseFrameFile(t)
	mem, _ := ParseFrame(base)
	before := stateOf(t, mem)
	for _, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			m2, _ := ParseFrame(base)
			if err := op.Do(m2); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, m2)
			// A clean run, for the list of writes.
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			writes := f.Log()
			cases := 0
			for k, w := range writes {
				for keep := 0; keep <= w.Len; keep++ {
					if keep > 0 && keep < w.Len && w.Len > 600 && keep%37 != 0 && keep > 64 && keep < w.Len-64 {
						continue // inside a long chunk write: every 37th byte
					}
					cases++
					ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
					s, err := OpenFrameFile(ff)
					if err != nil {
						t.Fatal(err)
					}
					err = op.Do(s)
					if !ff.Crashed() {
						t.Fatalf("write %d was not reached", k)
					}
					checkCrash(t, fmt.Sprintf("write %d (%d bytes at %d) torn at %d", k, w.Len, w.Off, keep), err, ff.Bytes(), before, after)
				}
			}
			t.Logf("%d writes, %d crash points", len(writes), cases)
		})
	}
}

// checkCrash checks the file a change that crashed at a write left: the
// state before or after, and after if the change reported no error (a
// crash in the removal of the rollback record, which the change's commit
// does not need).
func checkCrash(t *testing.T, what string, err error, left []byte, before, after frameState) {
	t.Helper()
	st := checkBeforeOrAfter(t, what, left, before, after)
	if err == nil && !st.Equal(after) {
		t.Fatalf("%s: the change reported no error, but the file holds the state before", what)
	}
}

func checkBeforeOrAfter(t *testing.T, what string, left []byte, before, after frameState) frameState {
	t.Helper()
	// Read-only first: it must not need the repair.
	ro, err := OpenFrame(bytes.NewReader(left), int64(len(left)))
	if err != nil {
		t.Fatalf("%s: read-only open: %v", what, err)
	}
	st := stateOf(t, ro)
	if !st.Equal(before) && !st.Equal(after) {
		t.Fatalf("%s: read-only open sees neither the state before nor after", what)
	}
	r, rf, err := reopen(left)
	if err != nil {
		t.Fatalf("%s: reopen: %v", what, err)
	}
	st2 := stateOf(t, r)
	if !st2.Equal(st) {
		t.Fatalf("%s: OpenFrameFile and OpenFrame disagree", what)
	}
	// After the repair the file is a plain frame c-blosc2 reads.
	if _, err := ParseFrame(rf.Bytes()); err != nil && !strings.Contains(err.Error(), "variable") {
		t.Fatalf("%s: repaired file is not a frame: %v", what, err)
	}
	return st
}

// TestFrameFileLazyItems: reading a few items of a large chunk of a frame
// file reads its header, block starts and the blocks holding them, not the
// chunk; the bytes agree with the frame in memory for every pipeline.
func TestFrameFileLazyItems(t *testing.T) {
	data := golden.MustPattern(t, "linspace_f64", 4<<20)
	pipes := [][MaxFilters]Filter{{5: ByteShuffle}, {5: BitShuffle}, {4: Delta, 5: ByteShuffle}, {}}
	for pi, pipe := range pipes {
		for _, codec := range []Codec{LZ4, Zstd} {
			t.Run(fmt.Sprintf("%v/pipe%d", codec, pi), func(t *testing.T) {
				o := SChunkOptions{Options: Options{Codec: codec, Level: 5, Typesize: 8, Filters: pipe, Blocksize: 64 << 10}, ChunkSize: 1 << 20}
				s, _ := NewSChunk(o)
				if err := s.AppendData(data); err != nil {
					t.Fatal(err)
				}
				b, _ := s.AppendFrame(nil)
				cr := &countingReaderBytes{r: bytes.NewReader(b)}
				f, err := OpenFrame(cr, int64(len(b)))
				if err != nil {
					t.Fatal(err)
				}
				for _, start := range []int64{0, 1, 8191, 131072 + 5, 1<<20 - 3, 3<<20 + 777777} {
					cr.reset()
					got, err := f.GetItems(nil, start/8, 10)
					if err != nil {
						t.Fatalf("GetItems(%d): %v", start/8, err)
					}
					if want := data[start/8*8 : start/8*8+80]; !bytes.Equal(got, want) {
						t.Fatalf("items at %d differ", start/8)
					}
					// At most the probe, the blocks holding the items and
					// block 0: much less than the chunk, for a chunk that
					// is more than a few blocks.
					ci, _ := f.ChunkInfo(int(start >> 20))
					cr.reset()
					if _, err := f.GetItems(nil, start/8, 10); err != nil {
						t.Fatal(err)
					}
					if ci.Cbytes > 8*partialProbe && cr.bytes > int64(ci.Cbytes)/2 {
						t.Errorf("items at %d read %d bytes in %d calls of a %d-byte chunk", start/8, cr.bytes, cr.calls, ci.Cbytes)
					}
					if testing.Verbose() {
						t.Logf("items at %d: %d bytes in %d calls of a %d-byte chunk", start/8, cr.bytes, cr.calls, ci.Cbytes)
					}
				}
				p := make([]byte, 300000)
				if _, err := f.ReadAt(p, 1<<20-150000); err != nil || !bytes.Equal(p, data[1<<20-150000:1<<20+150000]) {
					t.Fatalf("ReadAt across a chunk boundary: %v", err)
				}
			})
		}
	}
}

type countingReaderBytes struct {
	r            io.ReaderAt
	mu           sync.Mutex // a frame's reads may run at once
	calls, bytes int64
}

func (c *countingReaderBytes) reset() { c.calls, c.bytes = 0, 0 }

func (c *countingReaderBytes) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	c.calls++
	c.bytes += int64(len(p))
	c.mu.Unlock()
	return c.r.ReadAt(p, off)
}
