// Package fsys is the file system that sparse frames and the command's
// output and in-place changes go through: the operating system's, or in
// tests one that fails a chosen call (Faulty), so that every create,
// write, sync, truncate, rename and remove of a change can be made to
// fail and the container checked after.
package fsys

import (
	"io"
	"io/fs"
	"os"
)

// File is an open file; *os.File is one.
type File interface {
	io.Reader
	io.ReaderAt
	io.Writer
	io.WriterAt
	io.Seeker
	Stat() (fs.FileInfo, error)
	Truncate(size int64) error
	Sync() error
	Chmod(mode fs.FileMode) error
	Close() error
	Name() string
}

// FS is a file system's calls that change files, and the reads that go
// with them.
type FS interface {
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	CreateTemp(dir, pattern string) (File, error)
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Mkdir(name string, perm fs.FileMode) error
	Rename(oldpath, newpath string) error
	Remove(name string) error
	// SyncDir makes the directory's entries (files created, renamed,
	// removed in it) durable.
	SyncDir(name string) error
}

// Default is the file system sparse frames and the command use: the
// operating system's. Only tests change it.
var Default FS = OS{}

// OS is the operating system's file system.
type OS struct{}

func (OS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (OS) CreateTemp(dir, pattern string) (File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (OS) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (OS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (OS) Mkdir(name string, perm fs.FileMode) error  { return os.Mkdir(name, perm) }
func (OS) Rename(oldpath, newpath string) error       { return os.Rename(oldpath, newpath) }
func (OS) Remove(name string) error                   { return os.Remove(name) }

func (OS) SyncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteSynced writes b to a file at name and syncs it. With excl the file
// must not exist, so that nothing a reader may use is written over. On
// failure the file is removed.
func WriteSynced(fsys FS, name string, b []byte, excl bool) error {
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if excl {
		flag = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := fsys.OpenFile(name, flag, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fsys.Remove(name)
	}
	return err
}
