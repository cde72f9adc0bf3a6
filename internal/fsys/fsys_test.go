package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFaulty: the chosen call fails with the error (a write after Keep
// bytes), the others go through, and Sticky fails every later one.
func TestFaulty(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	ffs := &Faulty{FS: OS{}, Fail: 1, Err: syscall.ENOSPC, Keep: 3}
	f, err := ffs.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("abcdef")); n != 3 || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("the failing write: %d, %v", n, err)
	}
	if err := f.Sync(); err != nil {
		t.Fatalf("the call after: %v", err)
	}
	f.Close()
	if b, _ := os.ReadFile(name); string(b) != "abc" {
		t.Fatalf("the file holds %q", b)
	}
	if got := strings.Join(ffs.Calls(), ","); !strings.HasPrefix(got, "open ") || len(ffs.Calls()) != 4 {
		t.Fatalf("calls %s", got)
	}
	ffs = &Faulty{FS: OS{}, Fail: 0, Err: syscall.EIO, Sticky: true}
	if err := ffs.Rename(name, name+"2"); !errors.Is(err, syscall.EIO) {
		t.Fatalf("rename: %v", err)
	}
	if err := ffs.Remove(name); !errors.Is(err, syscall.EIO) {
		t.Fatalf("a remove after a sticky error: %v", err)
	}
	if _, err := os.Stat(name); err != nil {
		t.Fatal("a failing call changed the directory")
	}
	if err := WriteSynced(&Faulty{FS: OS{}, Fail: 2, Err: syscall.EIO}, filepath.Join(dir, "g"), []byte("x"), true); !errors.Is(err, syscall.EIO) {
		t.Fatalf("WriteSynced with its sync failing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "g")); !os.IsNotExist(err) {
		t.Fatal("WriteSynced left the file of a failed write")
	}
}
