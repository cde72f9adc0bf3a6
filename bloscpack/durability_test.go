package bloscpack

import (
	"bytes"
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
)

// TestAppendErrors fails every write, sync and truncation of Append with
// ENOSPC and EIO, whole or after half a write landed, once or from then
// on (a disk that stays full), and checks docs/durability.md's contract:
// an error leaves the file's bytes as they were (once) or a file that
// reads as before (from then on); nil leaves the data appended. Append
// used to report an error when a write after its commit failed, with the
// file reading as old and new.
func TestAppendErrors(t *testing.T) {
	for _, c := range appendCases {
		if c.more == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			orig, oldData, newData, _ := c.files(t)
			ts := AppendOptions(4)
			clean := faultfile.New(orig, faultfile.Plan{At: -1, Err: syscall.EIO})
			if _, err := Append(clean, bytes.NewReader(newData[c.base:]), int64(c.more), &ts); err != nil {
				t.Fatal(err)
			}
			log := clean.Log()
			commitAt := -1 // the header write that commits
			for k, w := range log {
				if w.Off == 12 && commitAt < 0 {
					commitAt = k
				}
			}
			states := 0
			for k, w := range log {
				for _, e := range []error{syscall.ENOSPC, syscall.EIO} {
					for _, keep := range []int{0, w.Len / 2} {
						for _, sticky := range []bool{false, true} {
							ff := faultfile.New(orig, faultfile.Plan{At: k, Err: e, Keep: keep, Sticky: sticky})
							_, err := Append(ff, bytes.NewReader(newData[c.base:]), int64(c.more), &ts)
							if !ff.Crashed() {
								t.Fatalf("call %d not reached", k)
							}
							states++
							what := fmt.Sprintf("call %d of %d (%d bytes at %d) failing with %v after %d bytes (sticky %v)", k, len(log), w.Len, w.Off, e, keep, sticky)
							left := ff.Bytes()
							got, rerr := readCrashed(left)
							if rerr != nil {
								t.Fatalf("%s: %v; reading the file: %v", what, err, rerr)
							}
							if err == nil {
								if !bytes.Equal(got, newData) {
									t.Fatalf("%s: no error, but the file does not read as after", what)
								}
								continue
							}
							if !errors.Is(err, e) {
								t.Fatalf("%s: the error %v does not wrap the injected one", what, err)
							}
							if !sticky && !bytes.Equal(left, orig) {
								t.Fatalf("%s: %v, and the file's bytes changed (%d bytes, was %d)", what, err, len(left), len(orig))
							}
							if !bytes.Equal(got, oldData) {
								// Every call failing from the commit's
								// write on: the header cannot be put back
								// (docs/durability.md).
								if !(sticky && k >= commitAt) || !bytes.Equal(got, newData) {
									t.Fatalf("%s: %v, but the file does not read as before", what, err)
								}
								continue
							}
							if d, err := refRead(repaired(t, left)); err != nil || !bytes.Equal(d, oldData) {
								t.Fatalf("%s: the reference's reader on the repaired file: %v", what, err)
							}
						}
					}
				}
			}
			t.Logf("%d calls, %d error states", len(log), states)
		})
	}
}

// repaired is b after Recover.
func repaired(t *testing.T, b []byte) []byte {
	t.Helper()
	ff := faultfile.New(b, faultfile.NoFault)
	if err := Recover(ff); err != nil {
		t.Fatal(err)
	}
	return ff.Bytes()
}

// TestRecoverErrors: Recover of a file a crash left with a rollback
// record, with each of its writes, syncs and truncations failing: the
// error is reported, and the file reads, and a later Recover repairs it,
// as a repair that did not fail.
func TestRecoverErrors(t *testing.T) {
	c := appendCases[1]
	orig, _, newData, _ := c.files(t)
	ts := AppendOptions(4)
	clean := faultfile.New(orig, faultfile.NoFault)
	if _, err := Append(clean, bytes.NewReader(newData[c.base:]), int64(c.more), &ts); err != nil {
		t.Fatal(err)
	}
	repairs := 0
	for w, wr := range clean.Log() {
		for _, keep := range []int{0, wr.Len / 2} {
			ff := faultfile.New(orig, faultfile.Plan{At: w, Keep: keep})
			Append(ff, bytes.NewReader(newData[c.base:]), int64(c.more), &ts)
			crashed := ff.Bytes()
			if readRollback(bytes.NewReader(crashed), int64(len(crashed))) == nil {
				continue
			}
			want, err := readCrashed(crashed)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; ; n++ {
				rf := faultfile.New(crashed, faultfile.Plan{At: n, Err: syscall.EIO})
				err := Recover(rf)
				if !rf.Crashed() {
					break
				}
				repairs++
				if !errors.Is(err, syscall.EIO) {
					t.Fatalf("write %d cut at %d, repair call %d failing: %v", w, keep, n, err)
				}
				got, err := readCrashed(rf.Bytes())
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("write %d cut at %d, repair call %d failing: the file reads otherwise (%v)", w, keep, n, err)
				}
			}
		}
	}
	if repairs == 0 {
		t.Fatal("no repair was made to fail")
	}
	t.Logf("%d failing repairs", repairs)
}
