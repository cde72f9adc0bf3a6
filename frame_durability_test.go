package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/goblosc/blosc/internal/rollback"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/fsys"
)

// The contract of docs/durability.md, checked by failing calls with the
// errors a full or failing disk returns, not only by crashes: a change
// that reports an error leaves the container exactly as before it for
// every later open, one that reports none leaves it after.

// diskErrors are the errors the tests inject.
var diskErrors = []error{syscall.ENOSPC, syscall.EIO}

// frameErrorOps are the changes TestFrameFileErrors runs: fileOps on the
// base frame, and those of an empty frame (AddMetalayer rewrites it).
func frameErrorOps(t *testing.T) (ops []fileOp, bases [][]byte) {
	base := baseFrameFile(t)
	for _, op := range fileOps(t) {
		ops, bases = append(ops, op), append(bases, base)
	}
	f := faultfile.New(nil, faultfile.NoFault)
	if _, err := CreateFrameFile(f, SChunkOptions{Options: DefaultOptions(), ChunkSize: 256}); err != nil {
		t.Fatal(err)
	}
	empty := f.Bytes()
	for _, op := range []fileOp{
		{Name: "empty AddMetalayer", Do: func(s *SChunk) error { return s.AddMetalayer("b2nd", []byte("abc")) }},
		{Name: "empty AppendSpecial", Do: func(s *SChunk) error { return s.AppendSpecial(SpecialZeros, 1000, nil) }},
		{Name: "empty AppendFrom", Do: func(s *SChunk) error {
			_, err := s.AppendFrom(bytes.NewReader(bytes.Repeat([]byte("hello, frame"), 100)))
			return err
		}},
	} {
		ops, bases = append(ops, op), append(bases, empty)
	}
	return ops, bases
}

// TestFrameFileErrors fails every write, sync and truncation of every
// change of a frame file, with ENOSPC and EIO, whole or after half of a
// write landed, once or from then on (a disk that stays full): an error
// leaves the file's bytes as they were (once) or a file every opener
// reads as before; nil leaves the state after. After an error the
// super-chunk refuses further changes.
func TestFrameFileErrors(t *testing.T) {
	ops, bases := frameErrorOps(t)
	for n, op := range ops {
		base := bases[n]
		t.Run(op.Name, func(t *testing.T) {
			m0, _ := ParseFrame(base)
			before := stateOf(t, m0)
			// A clean run, logging syncs too (a plan with an error that
			// never falls).
			f := faultfile.New(base, faultfile.Plan{At: -1, Err: syscall.EIO})
			s, err := OpenFrameFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, s)
			log := f.Log()
			clean := len(log)
			h, _ := parseFrameHeader(base)
			removalSync := recordRemovalSync(log, int64(h.headerLen))
			if removalSync < 0 {
				t.Fatal("no removal of the rollback record in the clean run")
			}
			states := 0
			for k := 0; ; k++ {
				reached := false
				for _, e := range diskErrors {
					for _, half := range []bool{false, true} {
						for _, sticky := range []bool{false, true} {
							plan := faultfile.Plan{At: k, Err: e, Sticky: sticky}
							if half {
								if plan.Keep = halfOf(log, k); plan.Keep == 0 {
									continue
								}
							}
							ff := faultfile.New(base, plan)
							s, err := OpenFrameFile(ff)
							if err != nil {
								t.Fatal(err)
							}
							err = op.Do(s)
							if !ff.Crashed() {
								continue
							}
							reached = true
							states++
							what := fmt.Sprintf("call %d of %d failing with %v (half %v, sticky %v)", k, clean, e, half, sticky)
							checkErrorContract(t, what, err, e, sticky && k == removalSync, !sticky, ff, base, before, after)
							if err != nil {
								if err := s.AppendData([]byte("more")); err == nil {
									t.Fatalf("%s: the super-chunk took another change", what)
								}
							}
						}
					}
				}
				if !reached {
					break
				}
			}
			t.Logf("%d calls, %d error states", clean, states)
		})
	}
}

// recordRemovalSync is the index in a change's log of the sync after the
// rollback record's removal (the first truncation, of a file longer than
// the header), or -1.
func recordRemovalSync(log []faultfile.Write, hlen int64) int {
	for k := 1; k < len(log); k++ {
		if log[k].Off < 0 && log[k-1].Len == 1 && log[k-1].Off > hlen {
			return k
		}
	}
	return -1
}

// halfOf is half the length of the k-th logged call when it is a write.
func halfOf(log []faultfile.Write, k int) int {
	if k < len(log) && log[k].Off >= 0 {
		return log[k].Len / 2
	}
	return 0
}

// checkErrorContract checks what a change that met an injected error e
// left in ff.
// exact says the bytes must be the old ones; mayStand that the failure
// was the one no order of writes can undo (see below).
func checkErrorContract(t *testing.T, what string, err, e error, mayStand, exact bool, ff *faultfile.File, base []byte, before, after frameState) {
	t.Helper()
	left := ff.Bytes()
	if err == nil {
		st := checkBeforeOrAfter(t, what, left, before, after)
		if !st.Equal(after) {
			t.Fatalf("%s: no error, but the file holds the state before", what)
		}
		return
	}
	if !errors.Is(err, e) {
		t.Fatalf("%s: the error %v does not wrap the injected one", what, err)
	}
	if exact && !bytes.Equal(left, base) {
		t.Fatalf("%s: %v, and the file's bytes changed (%d bytes, was %d)", what, err, len(left), len(base))
	}
	st := checkBeforeOrAfter(t, what, left, before, after)
	if !st.Equal(before) {
		// The one state no protocol avoids: the record's removal
		// landed, its sync failed and so does every call after it, so
		// the record cannot be put back (docs/durability.md).
		if mayStand && st.Equal(after) {
			if rec, _ := readRecord(bytes.NewReader(left), int64(len(left))); rec == nil {
				return
			}
		}
		t.Fatalf("%s: %v, but the file opens to the state after", what, err)
	}
}

// dirFiles is a directory's files and their bytes.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

// TestSparseFrameErrors fails every call a change of a sparse frame makes
// on its directory (open, create, read, write, sync, rename, remove, the
// directory's sync), with ENOSPC and EIO, whole or after half a write,
// once or from then on: an error leaves a directory every opener reads as
// before (and, once a writer has opened it and removed the change's
// leftovers, the very files it had); nil leaves the state after. A
// failing write of the first new chunk file used to lose the old last
// chunk, which the commit after the error removed.
func TestSparseFrameErrors(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	baseSparse(t, base)
	baseFiles := dirFiles(t, base)
	b0, _ := OpenSparseFrame(base)
	before := stateOf(t, b0)
	ops := append(fileOps(t), fileOp{Name: "AppendFrom", Do: func(s *SChunk) error {
		_, err := s.AppendFrom(bytes.NewReader(bytes.Repeat([]byte("sparse!"), 300)))
		return err
	}})
	run := 0
	for _, op := range ops {
		t.Run(op.Name, func(t *testing.T) {
			// A clean run, for the calls and the state after.
			dir := filepath.Join(root, fmt.Sprint("clean", run))
			run++
			frametest.CopyDir(t, base, dir)
			s, err := OpenSparseFrameWritable(dir)
			if err != nil {
				t.Fatal(err)
			}
			counter := &fsys.Faulty{FS: fsys.OS{}, Fail: -1}
			s.sparse.fs = counter
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, s)
			calls := counter.Calls()
			states := 0
			for k := range calls {
				for _, e := range diskErrors {
					for _, half := range []bool{false, true} {
						for _, sticky := range []bool{false, true} {
							if half && !strings.HasPrefix(calls[k], "write ") {
								continue
							}
							dir := filepath.Join(root, fmt.Sprint("e", run))
							run++
							frametest.CopyDir(t, base, dir)
							s, err := OpenSparseFrameWritable(dir)
							if err != nil {
								t.Fatal(err)
							}
							ffs := &fsys.Faulty{FS: fsys.OS{}, Fail: k, Err: e, Sticky: sticky}
							if half {
								ffs.Keep = 100
							}
							s.sparse.fs = ffs
							err = op.Do(s)
							if !ffs.Failed() {
								continue // the run took another path
							}
							states++
							what := fmt.Sprintf("%s failing with %v (half %v, sticky %v)", calls[k], e, half, sticky)
							got := ffs.Calls()
							// The one state no protocol avoids: the
							// rollback file's removal landed, the sync
							// after it failed, and so does every call
							// after that.
							mayStand := sticky && strings.HasPrefix(got[k], "syncdir") && k > 0 && got[k-1] == "remove "+filepath.Join(dir, sparseRollbackName)
							checkSparseContract(t, what, dir, err, e, mayStand, baseFiles, before, after)
							if err != nil && s.AppendData([]byte("more")) == nil {
								t.Fatalf("%s: the super-chunk took another change", what)
							}
						}
					}
				}
			}
			t.Logf("%d calls, %d error states", len(calls), states)
		})
	}
}

func checkSparseContract(t *testing.T, what, dir string, err, e error, mayStand bool, baseFiles map[string]string, before, after frameState) {
	t.Helper()
	ro, oerr := OpenSparseFrame(dir)
	if oerr != nil {
		t.Fatalf("%s: %v; read-only open: %v", what, err, oerr)
	}
	st := stateOf(t, ro)
	if err == nil {
		if !st.Equal(after) {
			t.Fatalf("%s: no error, but the directory does not hold the state after", what)
		}
	} else {
		if !errors.Is(err, e) {
			t.Fatalf("%s: the error %v does not wrap the injected one", what, err)
		}
		if !st.Equal(before) && !(mayStand && st.Equal(after)) {
			t.Fatalf("%s: %v, but the directory does not open to the state before", what, err)
		}
	}
	// A writer's open removes what the change left behind.
	w, oerr := OpenSparseFrameWritable(dir)
	if oerr != nil {
		t.Fatalf("%s: writable open: %v", what, oerr)
	}
	if !stateOf(t, w).Equal(st) {
		t.Fatalf("%s: the writable open reads another state", what)
	}
	files := dirFiles(t, dir)
	if err != nil && st.Equal(before) && !maps.Equal(files, baseFiles) {
		t.Fatalf("%s: %v; after a writer's open the directory holds %v, was %v", what, err, slices.Sorted(maps.Keys(files)), slices.Sorted(maps.Keys(baseFiles)))
	}
	for name := range files {
		if name == sparseIndexName {
			continue
		}
		id, ok := strings.CutSuffix(name, ".chunk")
		n, perr := strconv.ParseUint(id, 16, 32)
		if !ok || perr != nil || !w.sparseNames(int64(n)) {
			t.Fatalf("%s: %s left after a writer's open", what, name)
		}
	}
}

// sparseNames reports whether the index names chunk file id.
func (s *SChunk) sparseNames(id int64) bool {
	for i := 0; i < s.offs.len(); i++ {
		if s.offs.get(i) == id {
			return true
		}
	}
	return false
}

// TestFrameFileRecoverErrors: the repair OpenFrameFile makes of a file a
// crash left with a rollback record, with each of its writes, syncs and
// truncations failing: the open reports the error and a later open
// repairs the file to the same state as a repair that did not fail.
func TestFrameFileRecoverErrors(t *testing.T) {
	base := baseFrameFile(t)
	for _, op := range fileOps(t)[:3] {
		t.Run(op.Name, func(t *testing.T) {
			// Crash states with a record: each write of the change cut.
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			repairs := 0
			for k, w := range f.Log() {
				for _, keep := range []int{0, w.Len / 2} {
					ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
					s, _ := OpenFrameFile(ff)
					op.Do(s)
					crashed := ff.Bytes()
					if j, _ := readRecord(bytes.NewReader(crashed), int64(len(crashed))); j == nil {
						continue
					}
					r, _, err := reopen(crashed)
					if err != nil {
						t.Fatal(err)
					}
					want := stateOf(t, r)
					for n := 0; ; n++ {
						for _, e := range diskErrors {
							rf := faultfile.New(crashed, faultfile.Plan{At: n, Err: e})
							_, err := OpenFrameFile(rf)
							if !rf.Crashed() {
								n = -1
								break
							}
							repairs++
							if err != nil && !errors.Is(err, e) {
								t.Fatalf("repair call %d failing: %v", n, err)
							}
							again, _, err := reopen(rf.Bytes())
							if err != nil || !stateOf(t, again).Equal(want) {
								t.Fatalf("write %d cut at %d, repair call %d failing with %v: the next open reads another state (%v)", k, keep, n, e, err)
							}
						}
						if n < 0 {
							break
						}
					}
				}
			}
			if repairs == 0 {
				t.Fatal("no repair was made to fail")
			}
			t.Logf("%d failing repairs", repairs)
		})
	}
}

// legacyFrameRecord is the rollback record earlier versions wrote (magic
// "b2fgoRB\x01"), whose change had committed once its new header was on
// file.
func legacyFrameRecord(oldHeader, newHeader []byte, oldSize int64) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(len(oldHeader)))
	b = append(b, oldHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(newHeader)))
	b = append(b, newHeader...)
	b = binary.LittleEndian.AppendUint64(b, uint64(oldSize))
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+16))
	return append(b, "b2fgoRB\x01"...)
}

// TestFrameFileLegacyRecord: files an earlier version left with its
// record (that of every crash state of a change, rewritten in the old
// format) read and recover as that version meant: after when the header
// on file is the record's new one, before otherwise.
func TestFrameFileLegacyRecord(t *testing.T) {
	base := baseFrameFile(t)
	mem, _ := ParseFrame(base)
	before := stateOf(t, mem)
	for _, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			after := stateOf(t, s)
			olds, news := 0, 0
			for k := range f.Log() {
				ff := faultfile.New(base, faultfile.Plan{At: k})
				s, _ := OpenFrameFile(ff)
				op.Do(s)
				crashed := ff.Bytes()
				rec, err := readRecord(bytes.NewReader(crashed), int64(len(crashed)))
				if err != nil {
					t.Fatal(err)
				}
				if rec == nil {
					continue
				}
				if rec.Legacy != rollback.None || len(rec.Ranges) != 1 || rec.Ranges[0].Off != 0 {
					t.Fatalf("write %d: this version's record is %+v", k, rec)
				}
				legacy := append(crashed[:rec.Start:rec.Start], legacyFrameRecord(rec.Ranges[0].Old, rec.NewHeader, rec.OldSize)...)
				want := before
				if bytes.HasPrefix(legacy, rec.NewHeader) {
					want = after
					news++
				} else {
					olds++
				}
				ro, err := OpenFrame(bytes.NewReader(legacy), int64(len(legacy)))
				if err != nil || !stateOf(t, ro).Equal(want) {
					t.Fatalf("write %d: OpenFrame reads the legacy file otherwise (%v)", k, err)
				}
				w, wf, err := reopen(legacy)
				if err != nil || !stateOf(t, w).Equal(want) {
					t.Fatalf("write %d: OpenFrameFile reads the legacy file otherwise (%v)", k, err)
				}
				if r, _ := readRecord(bytes.NewReader(wf.Bytes()), wf.Size()); r != nil {
					t.Fatalf("write %d: OpenFrameFile left the legacy record", k)
				}
				if want.Equal(before) && !bytes.Equal(wf.Bytes(), base) {
					t.Fatalf("write %d: rolled back, the legacy file is not the old one", k)
				}
			}
			if olds == 0 || news == 0 {
				t.Fatalf("legacy states: %d before, %d after; want both", olds, news)
			}
		})
	}
}
