package bloscpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/goblosc/blosc/internal/rollback"
	"hash/crc32"
	"syscall"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
)

// TestAppendErrors fails every write, sync and truncation of Append with
// ENOSPC and EIO, whole or after half a write landed, once or from then
// on (a disk that stays full), and checks docs/durability.md's contract:
// an error leaves the file's bytes as they were (once) or a file that
// reads as before (from then on); nil leaves the data appended.
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
			// The sync after the rollback record's removal: the first
			// truncation, followed by a sync.
			removalSync := -1
			for k := 1; k < len(log) && removalSync < 0; k++ {
				if log[k].Off < 0 && log[k-1].Len == 1 && log[k-1].Off > headerLen {
					removalSync = k
				}
			}
			if removalSync < 0 {
				t.Fatal("no removal of the rollback record in the clean run")
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
								// The one state no protocol avoids: the
								// record's removal landed, its sync failed
								// and so does every call after it, so the
								// record cannot be put back
								// (docs/durability.md).
								if !(sticky && k == removalSync) || !bytes.Equal(got, newData) || readRollback(bytes.NewReader(left), int64(len(left))) != nil {
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

// legacyRecord is the rollback record earlier versions wrote (magic
// "bpkRB\x01\x00\x00"), whose append had committed once its new header
// was on file.
func legacyRecord(oldSize int64, newHeader []byte, ranges []rollback.Range) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(oldSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(newHeader)))
	b = append(b, newHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ranges)))
	for _, x := range ranges {
		b = binary.LittleEndian.AppendUint64(b, uint64(x.Off))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(x.Old)))
		b = append(b, x.Old...)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+16))
	return append(b, "bpkRB\x01\x00\x00"...)
}

// TestLegacyRollback: files an earlier version left with its record (the
// record of every crash state of an append, rewritten in the old format)
// read, and recover, as that version meant: after when the header on
// file is the record's new one, before otherwise.
func TestLegacyRollback(t *testing.T) {
	c := appendCases[1]
	orig, oldData, newData, _ := c.files(t)
	ts := AppendOptions(4)
	clean := faultfile.New(orig, faultfile.NoFault)
	if _, err := Append(clean, bytes.NewReader(newData[c.base:]), int64(c.more), &ts); err != nil {
		t.Fatal(err)
	}
	olds, news := 0, 0
	for w := range clean.Log() {
		ff := faultfile.New(orig, faultfile.Plan{At: w})
		Append(ff, bytes.NewReader(newData[c.base:]), int64(c.more), &ts)
		crashed := ff.Bytes()
		rec := readRollback(bytes.NewReader(crashed), int64(len(crashed)))
		if rec == nil {
			continue
		}
		if rec.Legacy != rollback.None {
			t.Fatal("this version wrote a legacy record")
		}
		legacy := append(crashed[:rec.Start:rec.Start], legacyRecord(rec.OldSize, rec.NewHeader, rec.Ranges)...)
		want := oldData
		if bytes.Equal(legacy[:headerLen], rec.NewHeader) {
			want = newData
			news++
		} else {
			olds++
		}
		if lr := readRollback(bytes.NewReader(legacy), int64(len(legacy))); lr == nil || lr.Legacy != rollback.Bloscpack {
			t.Fatalf("write %d: the legacy record is not read", w)
		}
		if got, err := readCrashed(legacy); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("write %d: the legacy file reads otherwise (%v)", w, err)
		}
		fixed := repaired(t, legacy)
		if readRollback(bytes.NewReader(fixed), int64(len(fixed))) != nil {
			t.Fatalf("write %d: Recover left the legacy record", w)
		}
		if got, err := readCrashed(fixed); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("write %d: the recovered legacy file reads otherwise (%v)", w, err)
		}
		// Rolled back, it is the old file; recovered as committed, the
		// reference reads it only once the chunks are where it reads
		// them, as with the earlier version.
		if bytes.Equal(want, oldData) && !bytes.Equal(fixed, orig) {
			t.Fatalf("write %d: the legacy file rolled back is not the old file", w)
		}
	}
	if olds == 0 || news == 0 {
		t.Fatalf("legacy states: %d before, %d after; want both", olds, news)
	}
}
