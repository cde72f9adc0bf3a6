package bloscpack

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/goblosc/blosc"
)

// The rollback record. Append's writes of the header and of offset slots
// are multi-byte fields that a crash can tear into a value that is neither
// the old nor the new one. Before the first of them, Append writes after
// everything else in the file a record holding the old bytes of the
// header, of every slot it will write and of the old last chunk it
// writes over after the commit, the new header, and the file's old
// length, with a CRC-32 and a footer naming it; the final truncation
// removes it. A file ending in a valid record whose header is not the
// record's new one was interrupted before its commit completed: Open reads
// it as the old bytes describe it, and Recover (which Append calls first)
// writes them back. A file whose header is the new one committed: the
// record is only ignored (or dropped). The reference implementation reads
// the header's chunk count and stops, so it never sees the record; a file
// with a torn header it cannot read until Recover has run.

const (
	rollbackMagic  = "bpkRB\x01\x00\x00"
	rollbackFooter = 16
)

type rollback struct {
	start     int64 // where the record starts in the file
	oldSize   int64
	newHeader []byte
	ranges    []rbRange // old bytes to restore
}

type rbRange struct {
	off int64
	old []byte
}

func (r *rollback) encode() []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(r.oldSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.newHeader)))
	b = append(b, r.newHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.ranges)))
	for _, x := range r.ranges {
		b = binary.LittleEndian.AppendUint64(b, uint64(x.off))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(x.old)))
		b = append(b, x.old...)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+rollbackFooter))
	return append(b, rollbackMagic...)
}

// readRollback returns the valid record at the end of a file of size
// bytes, or nil.
func readRollback(r io.ReaderAt, size int64) *rollback {
	if size < rollbackFooter+headerLen {
		return nil
	}
	var foot [rollbackFooter]byte
	if n, _ := r.ReadAt(foot[:], size-rollbackFooter); n != rollbackFooter || string(foot[8:]) != rollbackMagic {
		return nil
	}
	n := int64(binary.LittleEndian.Uint64(foot[:8]))
	if n < rollbackFooter+20 || n > size || n > 1<<30 {
		return nil
	}
	b := make([]byte, n-rollbackFooter)
	if m, _ := r.ReadAt(b, size-n); m != len(b) {
		return nil
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil
	}
	rb := &rollback{start: size - n}
	get := func(k int) []byte {
		if len(body) < k {
			return nil
		}
		v := body[:k]
		body = body[k:]
		return v
	}
	u32 := func() int {
		v := get(4)
		if v == nil {
			return -1
		}
		return int(binary.LittleEndian.Uint32(v))
	}
	if v := get(8); v != nil {
		rb.oldSize = int64(binary.LittleEndian.Uint64(v))
	}
	if l := u32(); l == headerLen {
		rb.newHeader = get(l)
	}
	cnt := u32()
	if rb.newHeader == nil || cnt < 0 || cnt > 1<<20 || rb.oldSize < headerLen || rb.oldSize > rb.start {
		return nil
	}
	for i := 0; i < cnt; i++ {
		v := get(8)
		l := u32()
		if v == nil || l < 0 {
			return nil
		}
		old := get(l)
		off := int64(binary.LittleEndian.Uint64(v))
		if old == nil && l > 0 || off < 0 || off+int64(l) > rb.oldSize {
			return nil
		}
		rb.ranges = append(rb.ranges, rbRange{off, old})
	}
	if len(body) != 0 {
		return nil
	}
	return rb
}

// interrupted reports whether the header in r is not the record's new one.
func (rb *rollback) interrupted(r io.ReaderAt) bool {
	cur := make([]byte, headerLen)
	n, _ := r.ReadAt(cur, 0)
	return n != headerLen || !bytes.Equal(cur, rb.newHeader)
}

// rollbackReader reads a file as it was before an interrupted append.
type rollbackReader struct {
	r  io.ReaderAt
	rb *rollback
}

func (o rollbackReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := o.r.ReadAt(p, off)
	for _, x := range o.rb.ranges {
		lo, hi := max(off, x.off), min(off+int64(len(p)), x.off+int64(len(x.old)))
		if lo < hi {
			copy(p[lo-off:hi-off], x.old[lo-x.off:hi-x.off])
		}
	}
	return n, err
}

// resolveRollback returns what a reader of a file of size bytes should
// read: the file as an interrupted append left it before its commit, or
// the file without a committed append's leftover record.
func resolveRollback(r io.ReaderAt, size int64) (io.ReaderAt, int64) {
	rb := readRollback(r, size)
	if rb == nil {
		return r, size
	}
	if rb.interrupted(r) {
		return rollbackReader{r, rb}, rb.oldSize
	}
	return r, rb.start
}

// Recover finishes with a rollback record an interrupted Append left in f:
// the old header and slots are written back and the file cut to its old
// length, or, if the append had committed, the record alone is dropped.
// Append calls it first; a file without a record is left alone.
func Recover(f blosc.WritableFile) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	rb := readRollback(f, st.Size())
	if rb == nil {
		return nil
	}
	size := rb.start
	if rb.interrupted(f) {
		for _, x := range rb.ranges {
			if err := writeAll(f, x.old, x.off); err != nil {
				return err
			}
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("bloscpack: %w", err)
		}
		size = rb.oldSize
	}
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}
