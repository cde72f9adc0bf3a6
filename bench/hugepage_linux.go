package main

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHuge asks for transparent huge pages under b (madvise
// MADV_HUGEPAGE), which this kernel's default mode ("madvise") gives only
// to memory that asks. b starts at a huge page boundary; the advice covers
// its whole huge pages, and failure only leaves it on small pages.
func adviseHuge(b []byte) {
	n := len(b) &^ (hugePage - 1)
	if n == 0 {
		return
	}
	unix.Madvise(unsafe.Slice(unsafe.SliceData(b), n), unix.MADV_HUGEPAGE)
}
