package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
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
							commitSync := k > 0 && k < len(log) && log[k].Off < 0 && log[k-1].Off >= 0 && log[k-1].Off < int64(h.headerLen)
							checkErrorContract(t, what, err, e, sticky && commitSync, !sticky, ff, base, before, after)
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
		// The one state no order of writes avoids: the sync of the
		// committing header write fails and so does every write after
		// it, so the header cannot be put back.
		if mayStand {
			return
		}
		t.Fatalf("%s: %v, but the file opens to the state after", what, err)
	}
}
