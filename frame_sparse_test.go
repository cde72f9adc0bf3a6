package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/frametest"
)

// baseSparse makes a sparse frame like baseFrameFile's.
func baseSparse(t *testing.T, dir string) {
	s, err := CreateSparseFrame(dir, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	zeros := must(Compress(nil, make([]byte, 256), Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8}))
	ramp := must(Compress(nil, frametest.Ramp(), Options{Format: FormatBlosc2, Codec: BloscLZ, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}))
	if err := frametest.FillSparse(s, zeros, ramp); err != nil {
		t.Fatal(err)
	}
}

// TestSparseFrameOperations: every change of a sparse frame is seen by a
// fresh open and matches the same change on a frame in memory; a crash
// before any step of a change leaves the directory opening to the state
// before or after it.
func TestSparseFrameOperations(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	baseSparse(t, base)
	b0, _ := OpenSparseFrame(base)
	before := stateOf(t, b0)
	for k, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			dir := filepath.Join(root, fmt.Sprint("op", k))
			frametest.CopyDir(t, base, dir)
			s, err := OpenSparseFrameWritable(dir)
			if err != nil {
				t.Fatal(err)
			}
			mem, _ := OpenSparseFrame(base)
			mf, _ := mem.AppendFrame(nil)
			m, _ := ParseFrame(mf)
			if err := op.Do(m); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, m)
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			if !stateOf(t, s).Equal(after) {
				t.Fatal("state after the change differs")
			}
			r, err := OpenSparseFrame(dir)
			if err != nil || !stateOf(t, r).Equal(after) {
				t.Fatalf("reopened differs (%v)", err)
			}
			// Crashes before each step.
			for step := 0; ; step++ {
				cdir := filepath.Join(root, fmt.Sprint("crash", k, "-", step))
				frametest.CopyDir(t, base, cdir)
				s, err := OpenSparseFrameWritable(cdir)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				crash := errors.New("crash")
				sparseFault = func(string) error {
					n++
					if n > step {
						return crash
					}
					return nil
				}
				err = op.Do(s)
				sparseFault = nil
				r, oerr := OpenSparseFrame(cdir)
				if oerr != nil {
					t.Fatalf("crash before step %d: %v", step, oerr)
				}
				st := stateOf(t, r)
				if !st.Equal(before) && !st.Equal(after) {
					t.Fatalf("crash before step %d: neither before nor after", step)
				}
				if !errors.Is(err, crash) {
					break // the change had fewer steps
				}
			}
		})
	}
}

// FuzzOpenSparseFrame: a fuzzed chunks.b2frame beside real chunk files
// never panics the sparse reader, fails with a sentinel, and a frame it
// opens decodes the same whole, chunk by chunk and as a contiguous frame.
func FuzzOpenSparseFrame(f *testing.F) {
	seedDir := f.TempDir() + "/seed"
	s0, err := CreateSparseFrame(seedDir, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256})
	if err != nil {
		f.Fatal(err)
	}
	if err := s0.AppendData(bytes.Repeat([]byte("sparse frame "), 60)); err != nil {
		f.Fatal(err)
	}
	idx, _ := os.ReadFile(filepath.Join(seedDir, sparseIndexName))
	f.Add(idx)
	chunks, _ := filepath.Glob(filepath.Join(seedDir, "*.chunk"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		for _, c := range chunks {
			data, _ := os.ReadFile(c)
			os.WriteFile(filepath.Join(dir, filepath.Base(c)), data, 0o644)
		}
		if err := os.WriteFile(filepath.Join(dir, sparseIndexName), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSparseFrame(dir)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		if s.Nbytes() > 1<<20 || s.Nchunks() > 1024 {
			return
		}
		whole, err := s.Decompress(nil)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Decompress error %v wraps no sentinel", err)
			}
			return
		}
		var joined []byte
		for i := 0; i < s.Nchunks(); i++ {
			c, err := s.DecompressChunk(nil, i)
			if err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
			joined = append(joined, c...)
		}
		if !bytes.Equal(joined, whole) {
			t.Fatal("chunks one by one differ from Decompress")
		}
		if fb, err := s.AppendFrame(nil); err == nil {
			if c, err := ParseFrame(fb); err == nil {
				if got, err := c.Decompress(nil); err != nil || !bytes.Equal(got, whole) {
					t.Fatalf("as a contiguous frame it decodes differently (%v)", err)
				}
			}
		}
	})
}

// TestSparseFrameRollbackFile: a change stopped after its new index was
// renamed into place but before its rollback file was removed did not
// commit: a reader reads the old index the file keeps, a writer's open
// puts it back and leaves the directory's old files (and a lock sidecar
// it knows nothing of); a rollback file cut short counts for nothing.
func TestSparseFrameRollbackFile(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	baseSparse(t, base)
	if err := os.WriteFile(filepath.Join(base, ".b2lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	baseFiles := dirFiles(t, base)
	b0, _ := OpenSparseFrame(base)
	before := stateOf(t, b0)
	op := fileOps(t)[0]
	stopped := func(name, at string) (dir string, after frameState) {
		dir = filepath.Join(root, name)
		frametest.CopyDir(t, base, dir)
		s, err := OpenSparseFrameWritable(dir)
		if err != nil {
			t.Fatal(err)
		}
		stop := errors.New("stop")
		sparseFault = func(step string) error {
			if step == at {
				return stop
			}
			return nil
		}
		err = op.Do(s)
		sparseFault = nil
		if !errors.Is(err, stop) {
			t.Fatalf("the change did not reach its commit: %v", err)
		}
		mem, _ := OpenSparseFrame(base)
		m, _ := ParseFrame(must(mem.AppendFrame(nil)))
		if err := op.Do(m); err != nil {
			t.Fatal(err)
		}
		return dir, stateOf(t, m)
	}

	dir, _ := stopped("whole", "commit")
	if _, err := os.Stat(filepath.Join(dir, sparseRollbackName)); err != nil {
		t.Fatalf("no rollback file: %v", err)
	}
	if idx, _ := os.ReadFile(filepath.Join(dir, sparseIndexName)); bytes.Equal(idx, []byte(baseFiles[sparseIndexName])) {
		t.Fatal("the new index is not in place")
	}
	r, err := OpenSparseFrame(dir)
	if err != nil || !stateOf(t, r).Equal(before) {
		t.Fatalf("read-only open: %v, or not the state before", err)
	}
	if _, err := os.Stat(filepath.Join(dir, sparseRollbackName)); err != nil {
		t.Fatal("a read-only open removed the rollback file")
	}
	w, err := OpenSparseFrameWritable(dir)
	if err != nil || !stateOf(t, w).Equal(before) {
		t.Fatalf("writable open: %v, or not the state before", err)
	}
	if files := dirFiles(t, dir); !maps.Equal(files, baseFiles) {
		t.Fatalf("after the writable open the directory holds %v, was %v", slices.Sorted(maps.Keys(files)), slices.Sorted(maps.Keys(baseFiles)))
	}

	// Stopped before the rename, with the rollback file written whole
	// or cut short (as a crash while writing it leaves it): the index on
	// file is the old one, and a writer's open removes the leftovers.
	var b []byte
	for _, n := range []int{-1, 0, 1, 100, 200} {
		dir, _ = stopped(fmt.Sprint("cut", n), "rename")
		rb := filepath.Join(dir, sparseRollbackName)
		if b == nil {
			b, _ = os.ReadFile(rb)
		}
		if n >= 0 {
			if err := os.WriteFile(rb, b[:min(n, len(b)-1)], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := OpenSparseFrame(dir)
		if err != nil || !stateOf(t, r).Equal(before) {
			t.Fatalf("rollback file cut at %d: %v, or not the state before", n, err)
		}
		w, err := OpenSparseFrameWritable(dir)
		if err != nil || !stateOf(t, w).Equal(before) {
			t.Fatalf("rollback file cut at %d: writable open: %v, or not the state before", n, err)
		}
		if files := dirFiles(t, dir); !maps.Equal(files, baseFiles) {
			t.Fatalf("rollback file cut at %d: the directory holds %v, was %v", n, slices.Sorted(maps.Keys(files)), slices.Sorted(maps.Keys(baseFiles)))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".b2lock")); err != nil {
		t.Fatal("a writer's open removed the lock sidecar")
	}
}

// TestSparseFrameCreateRollback: CreateSparseFrame stopped between its
// index's rename and its rollback file's removal made no frame: every
// opener finds none, and a writer's open removes the index.
func TestSparseFrameCreateRollback(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	stop := errors.New("stop")
	sparseFault = func(step string) error {
		if step == "commit" {
			return stop
		}
		return nil
	}
	_, err := CreateSparseFrame(dir, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256})
	sparseFault = nil
	if !errors.Is(err, stop) {
		t.Fatalf("CreateSparseFrame: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, sparseIndexName)); err != nil {
		t.Fatalf("the index is not in place: %v", err)
	}
	if _, err := OpenSparseFrame(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("read-only open: %v, want none", err)
	}
	if _, err := OpenSparseFrameWritable(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("writable open: %v, want none", err)
	}
	if files := dirFiles(t, dir); len(files) != 0 {
		t.Fatalf("after a writer's open the directory holds %v", slices.Sorted(maps.Keys(files)))
	}
}
