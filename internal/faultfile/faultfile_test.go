package faultfile

import (
	"bytes"
	"errors"
	"testing"
)

func TestPlan(t *testing.T) {
	orig := []byte("0123456789")
	// No fault: writes land, grow the file, and are counted.
	f := New(orig, NoFault)
	f.WriteAt([]byte("ab"), 8)
	f.WriteAt([]byte("XY"), 11)
	if got := string(f.Bytes()); got != "01234567ab\x00XY" || f.Writes() != 2 || f.Crashed() {
		t.Fatalf("got %q, %d writes, crashed %v", got, f.Writes(), f.Crashed())
	}
	// A torn write lands its prefix; everything after fails.
	f = New(orig, Plan{At: 1, Keep: 2})
	if _, err := f.WriteAt([]byte("ab"), 0); err != nil {
		t.Fatal(err)
	}
	n, err := f.WriteAt([]byte("wxyz"), 5)
	if n != 2 || !errors.Is(err, ErrCrashed) || !f.Crashed() {
		t.Fatalf("torn write: %d, %v", n, err)
	}
	if _, err := f.WriteAt([]byte("q"), 0); !errors.Is(err, ErrCrashed) {
		t.Fatalf("write after crash: %v", err)
	}
	if err := f.Sync(); !errors.Is(err, ErrCrashed) {
		t.Fatalf("sync after crash: %v", err)
	}
	if err := f.Truncate(1); !errors.Is(err, ErrCrashed) {
		t.Fatalf("truncate after crash: %v", err)
	}
	if got := string(f.Bytes()); got != "ab234wx789" {
		t.Fatalf("after crash: %q", got)
	}
	// An interrupted Truncate with Keep 0 changes nothing.
	f = New(orig, Plan{At: 0})
	if err := f.Truncate(3); !errors.Is(err, ErrCrashed) || !bytes.Equal(f.Bytes(), orig) {
		t.Fatalf("truncate: %v, %q", err, f.Bytes())
	}
	// Keep > 0 lets it land.
	f = New(orig, Plan{At: 0, Keep: 1})
	if err := f.Truncate(3); !errors.Is(err, ErrCrashed) || string(f.Bytes()) != "012" {
		t.Fatalf("truncate landed: %v, %q", err, f.Bytes())
	}
	// The original slice is never written.
	if string(orig) != "0123456789" {
		t.Fatal("New did not copy")
	}
}

// TestPlanErr: a Plan with Err counts Syncs, fails the one call with Err
// after Keep bytes of a write, and then the file works again, unless
// Sticky.
func TestPlanErr(t *testing.T) {
	full := errors.New("disk full")
	orig := []byte("0123456789")
	f := New(orig, Plan{At: 1, Err: full})
	if _, err := f.WriteAt([]byte("a"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); !errors.Is(err, full) || !f.Crashed() {
		t.Fatalf("the second call, a sync: %v", err)
	}
	if err := f.Sync(); err != nil {
		t.Fatalf("a sync after the error: %v", err)
	}
	if err := f.Truncate(4); err != nil || string(f.Bytes()) != "a123" {
		t.Fatalf("a truncation after the error: %v, %q", err, f.Bytes())
	}
	// A short write, then a failing truncation that changes nothing.
	f = New(orig, Plan{At: 0, Err: full, Keep: 2})
	if n, err := f.WriteAt([]byte("wxyz"), 8); n != 2 || !errors.Is(err, full) || string(f.Bytes()) != "01234567wx" {
		t.Fatalf("short write: %d, %v, %q", n, err, f.Bytes())
	}
	f = New(orig, Plan{At: 0, Err: full, Keep: 1})
	if err := f.Truncate(2); !errors.Is(err, full) || !bytes.Equal(f.Bytes(), orig) {
		t.Fatalf("failing truncation: %v, %q", err, f.Bytes())
	}
	// Sticky: everything after fails too.
	f = New(orig, Plan{At: 0, Err: full, Sticky: true})
	f.Sync()
	if _, err := f.WriteAt([]byte("q"), 0); !errors.Is(err, full) || !bytes.Equal(f.Bytes(), orig) {
		t.Fatalf("write after a sticky error: %v", err)
	}
	if len(f.Log()) != 2 || f.Log()[0].Off != -1 {
		t.Fatalf("log %v: want the sync, then the write", f.Log())
	}
}
