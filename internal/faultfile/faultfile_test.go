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
