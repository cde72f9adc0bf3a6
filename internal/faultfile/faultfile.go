// Package faultfile is an in-memory file that fails or tears a chosen
// write, for testing that code changing a file in place leaves it readable
// whatever write a crash interrupts.
//
// Every call that changes the file (Write, WriteAt, Truncate) counts as one
// write, numbered from 0. A Plan names the write to interrupt and how many
// of its bytes land first (a prefix, as a crash mid-write leaves); from
// then on the file is crashed: the interrupted call and every later change
// or Sync return ErrCrashed and change nothing, while reads still work, so
// the test can inspect what a reopened file would hold.
//
//	for k := 0; ; k++ {
//		f := faultfile.New(orig, faultfile.Plan{At: k})
//		err := update(f)
//		if !f.Crashed() { break } // k is past the last write
//		check(f.Bytes())
//	}
package faultfile

import (
	"errors"
	"io"
	"io/fs"
	"time"
)

// ErrCrashed is returned by the interrupted write and everything after it.
var ErrCrashed = errors.New("faultfile: crashed")

// Plan says which write to interrupt.
type Plan struct {
	// At is the index of the interrupted write; negative: none.
	At int
	// Keep is how many leading bytes of that write land (0: none). A
	// Truncate is all or nothing: it lands only if Keep > 0.
	Keep int
	// Err, when set, makes the fault an error the file returns, as a
	// full or failing disk does (ENOSPC, EIO), rather than a crash: At
	// then counts every Sync as well as the writes, the call At fails
	// with Err after Keep bytes of a write landed (a short write; a
	// failing Truncate or Sync changes nothing), and the file goes on
	// working, unless Sticky: then every later change or Sync fails with
	// Err too.
	Err    error
	Sticky bool
}

// NoFault is a plan that never interrupts.
var NoFault = Plan{At: -1}

// File is the in-memory file. It implements io.ReaderAt, io.WriterAt,
// io.ReadWriteSeeker, Truncate, Sync and Stat, as *os.File does.
type File struct {
	data    []byte
	pos     int64
	plan    Plan
	writes  int
	log     []Write
	syncs   int
	crashed bool
}

// New returns a file holding a copy of data.
func New(data []byte, plan Plan) *File {
	return &File{data: append([]byte(nil), data...), plan: plan}
}

// Bytes returns a copy of the file's contents.
func (f *File) Bytes() []byte { return append([]byte(nil), f.data...) }

// Size returns the file's length.
func (f *File) Size() int64 { return int64(len(f.data)) }

// Writes returns how many writes were attempted, the interrupted one
// included.
func (f *File) Writes() int { return f.writes }

// Log returns every write attempted, so a test can tear each one at
// every byte.
func (f *File) Log() []Write { return append([]Write(nil), f.log...) }

// Syncs returns how many Syncs succeeded.
func (f *File) Syncs() int { return f.syncs }

// Crashed reports whether the planned fault (crash or error) happened.
func (f *File) Crashed() bool { return f.crashed }

// Write is one attempted write: its offset and length (a Truncate is
// logged at the new size with length 1; with a Plan's Err, a Sync at
// offset -1 with length 0).
type Write struct {
	Off int64
	Len int
}

// next counts a write and says how many of its n bytes land and whether
// it fails.
func (f *File) next(n int) (int, error) {
	if f.plan.Err != nil {
		return f.nextErr(n)
	}
	if f.crashed {
		return 0, ErrCrashed
	}
	k := f.writes
	f.writes++

	if k != f.plan.At {
		return n, nil
	}
	f.crashed = true
	return min(max(f.plan.Keep, 0), n), ErrCrashed
}

// WriteAt writes p at off, growing the file (with zeros) as needed.
func (f *File) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("faultfile: negative offset")
	}
	f.log = append(f.log, Write{off, len(p)})
	n, err := f.next(len(p))
	if n == 0 {
		return 0, err
	}
	if end := off + int64(n); end > int64(len(f.data)) {
		f.data = append(f.data, make([]byte, end-int64(len(f.data)))...)
	}
	copy(f.data[off:], p[:n])
	return n, err
}

// Write writes at the current position.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.WriteAt(p, f.pos)
	f.pos += int64(n)
	return n, err
}

// ReadAt implements io.ReaderAt.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("faultfile: negative offset")
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Read reads at the current position.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.pos)
	f.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Seek implements io.Seeker.
func (f *File) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += f.pos
	case io.SeekEnd:
		off += int64(len(f.data))
	}
	if off < 0 {
		return 0, errors.New("faultfile: negative position")
	}
	f.pos = off
	return off, nil
}

// Truncate sets the file's length.
func (f *File) Truncate(size int64) error {
	if size < 0 {
		return errors.New("faultfile: negative size")
	}
	f.log = append(f.log, Write{size, 1})
	n, err := f.next(1)
	if n == 0 || err != nil && f.plan.Err != nil {
		return err
	}
	if size <= int64(len(f.data)) {
		f.data = f.data[:size]
	} else {
		f.data = append(f.data, make([]byte, size-int64(len(f.data)))...)
	}
	return err
}

// nextErr is next for a Plan with Err: Syncs count too (n is 0 for one).
func (f *File) nextErr(n int) (int, error) {
	k := f.writes
	f.writes++
	switch {
	case k == f.plan.At:
		f.crashed = true
		return min(max(f.plan.Keep, 0), n), f.plan.Err
	case f.crashed && f.plan.Sticky:
		return 0, f.plan.Err
	}
	return n, nil
}

// Sync fails once crashed (or when the Plan's error falls on it).
func (f *File) Sync() error {
	if f.plan.Err != nil {
		f.log = append(f.log, Write{-1, 0})
		if _, err := f.nextErr(0); err != nil {
			return err
		}
		f.syncs++
		return nil
	}
	if f.crashed {
		return ErrCrashed
	}
	f.syncs++
	return nil
}

// Stat reports the file's size.
func (f *File) Stat() (fs.FileInfo, error) { return info{size: int64(len(f.data))}, nil }

type info struct{ size int64 }

func (i info) Name() string       { return "faultfile" }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return 0o644 }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }
