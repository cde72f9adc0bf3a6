package fsys

import (
	"fmt"
	"io/fs"
	"sync"
)

// Faulty is a file system that fails one chosen call with an error, as a
// full or failing disk does (ENOSPC, EIO): every call that opens, creates,
// writes, syncs, truncates, renames or removes counts, from 0, on the
// file system and on the files it opened (reads of an open file do not).
// The failing call changes nothing, except a write, of which Keep bytes
// land first (a short write). With Sticky every later counted call fails
// too, as a disk that stays full or dead.
type Faulty struct {
	FS     FS
	Fail   int // the call to fail; negative: none
	Err    error
	Keep   int
	Sticky bool

	mu     sync.Mutex
	calls  []string
	failed bool
}

// Calls returns the counted calls made, in order, the failing one
// included.
func (f *Faulty) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// Failed reports whether the chosen call was reached.
func (f *Faulty) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

// step counts a call and returns the error it fails with, if it does.
func (f *Faulty) step(what string) error {
	_, err := f.stepWrite(what)
	return err
}

// stepWrite is step for a write: keep is how many of its bytes land
// before it fails (only the chosen call's do).
func (f *Faulty) stepWrite(what string) (keep int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := len(f.calls)
	f.calls = append(f.calls, what)
	if k == f.Fail {
		f.failed = true
		return max(f.Keep, 0), fmt.Errorf("%s: %w", what, f.Err)
	}
	if f.Sticky && f.failed {
		return 0, fmt.Errorf("%s: %w", what, f.Err)
	}
	return 0, nil
}

func (f *Faulty) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if err := f.step("open " + name); err != nil {
		return nil, err
	}
	h, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{File: h, fs: f}, nil
}

func (f *Faulty) CreateTemp(dir, pattern string) (File, error) {
	if err := f.step("create temp in " + dir); err != nil {
		return nil, err
	}
	h, err := f.FS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultyFile{File: h, fs: f}, nil
}

func (f *Faulty) ReadFile(name string) ([]byte, error) {
	if err := f.step("read " + name); err != nil {
		return nil, err
	}
	return f.FS.ReadFile(name)
}

// Stat does not count: it changes nothing and opens nothing.
func (f *Faulty) Stat(name string) (fs.FileInfo, error) { return f.FS.Stat(name) }

func (f *Faulty) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.step("readdir " + name); err != nil {
		return nil, err
	}
	return f.FS.ReadDir(name)
}

func (f *Faulty) Mkdir(name string, perm fs.FileMode) error {
	if err := f.step("mkdir " + name); err != nil {
		return err
	}
	return f.FS.Mkdir(name, perm)
}

func (f *Faulty) Rename(oldpath, newpath string) error {
	if err := f.step("rename " + oldpath + " " + newpath); err != nil {
		return err
	}
	return f.FS.Rename(oldpath, newpath)
}

func (f *Faulty) Remove(name string) error {
	if err := f.step("remove " + name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

func (f *Faulty) SyncDir(name string) error {
	if err := f.step("syncdir " + name); err != nil {
		return err
	}
	return f.FS.SyncDir(name)
}

// faultyFile is a file a Faulty opened: its changes count.
type faultyFile struct {
	File
	fs *Faulty
}

func (h *faultyFile) Write(p []byte) (int, error) {
	if keep, err := h.fs.stepWrite("write " + h.Name()); err != nil {
		n, _ := h.File.Write(p[:min(keep, len(p))])
		return n, err
	}
	return h.File.Write(p)
}

func (h *faultyFile) WriteAt(p []byte, off int64) (int, error) {
	if keep, err := h.fs.stepWrite(fmt.Sprintf("pwrite %s at %d", h.Name(), off)); err != nil {
		n, _ := h.File.WriteAt(p[:min(keep, len(p))], off)
		return n, err
	}
	return h.File.WriteAt(p, off)
}

func (h *faultyFile) Truncate(size int64) error {
	if err := h.fs.step(fmt.Sprintf("truncate %s to %d", h.Name(), size)); err != nil {
		return err
	}
	return h.File.Truncate(size)
}

func (h *faultyFile) Sync() error {
	if err := h.fs.step("fsync " + h.Name()); err != nil {
		return err
	}
	return h.File.Sync()
}

func (h *faultyFile) Chmod(mode fs.FileMode) error {
	if err := h.fs.step("chmod " + h.Name()); err != nil {
		return err
	}
	return h.File.Chmod(mode)
}

func (h *faultyFile) Close() error {
	// The file is closed whatever the fault: a close that fails has
	// still released the descriptor.
	err := h.fs.step("close " + h.Name())
	if cerr := h.File.Close(); err == nil {
		err = cerr
	}
	return err
}
