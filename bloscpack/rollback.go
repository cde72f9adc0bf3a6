package bloscpack

import (
	"fmt"
	"io"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/rollback"
)

// The rollback record (internal/rollback). Append's writes of the header
// and of offset slots are multi-byte fields that a crash can tear into a
// value that is neither the old nor the new one, and after its header
// write it moves the new chunks over the old last chunk. Before the first
// of these writes, Append writes after everything else in the file a
// record of the old bytes of the header, of every slot it will write and
// of the old last chunk, and the file's old length. The record's removal
// (the file cut to where it starts, synced) is the commit. A file that
// ends in a valid record holds an append that did not commit, whatever
// its header says: Open reads it through the record's old bytes, and
// Recover (which Append calls first) writes them back. The reference
// implementation reads the header's chunk count and stops, so it never
// sees the record: it reads the file as after once the new header is
// written, as before until then (and cannot read a torn header until
// Recover has run).
//
// Records of earlier versions (another magic) meant otherwise: the
// append had committed when the header on file was the record's new one,
// and then the record is only dropped.

// readRollback returns the valid record at the end of a file of size
// bytes, or nil.
func readRollback(r io.ReaderAt, size int64) *rollback.Record {
	if size < headerLen {
		return nil
	}
	rec, _ := rollback.Read(r, size, rollback.Bloscpack)
	if rec == nil || len(rec.NewHeader) != headerLen || rec.OldSize < headerLen {
		return nil
	}
	return rec
}

// resolveRollback returns what a reader of a file of size bytes should
// read: the file as it was before an append that did not commit, or the
// file without the leftover record of one that did (an earlier
// version's).
func resolveRollback(r io.ReaderAt, size int64) (io.ReaderAt, int64) {
	rec := readRollback(r, size)
	if rec == nil {
		return r, size
	}
	if rec.Committed(r) {
		return r, rec.Start
	}
	return rec.Overlay(r), rec.OldSize
}

// Recover rolls back an append that left a rollback record in f: the old
// header, slots and last chunk are written back and the file cut to its
// old length, each synced (or, for a record an earlier version left
// after its append had committed, the record alone is dropped). Append
// calls it first; a file without a record is left alone.
func Recover(f blosc.WritableFile) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	rec := readRollback(f, st.Size())
	if rec == nil {
		return nil
	}
	if rec.Committed(f) {
		err = rollback.Remove(f, rec.Start)
	} else {
		err = rec.Restore(f)
	}
	if err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}
