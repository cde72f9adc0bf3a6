//go:build unix

package bitshuffle

import (
	"testing"

	"golang.org/x/sys/unix"
)

// guarded returns n bytes of fresh memory next to an inaccessible page: the
// page after the last byte when atEnd, else the page before the first.
func guarded(t *testing.T, n int, atEnd bool) []byte {
	t.Helper()
	page := unix.Getpagesize()
	span := (n + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, span+2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { unix.Munmap(mem) })
	if err := unix.Mprotect(mem[:page], unix.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if err := unix.Mprotect(mem[page+span:], unix.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if atEnd {
		return mem[page+span-n : page+span : page+span]
	}
	return mem[page : page+n : page+n]
}
