//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// mappedFile is a regular file mapped read-only, so that the command
// compresses or decodes bytes where the page cache holds them rather than
// copying them out with read(2) first, which costs a copy's CPU
// (BenchmarkStreamCLI in stream_bench_test.go, decompressing f32_noise and
// compressing linspace_f64, shows it).
type mappedFile struct{ b []byte }

// mapFile maps size bytes of f; ok is false when it cannot.
func mapFile(f *os.File, size int64) (m mappedFile, ok bool) {
	if size <= 0 || int64(int(size)) != size {
		return m, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return m, false
	}
	rc.Control(func(fd uintptr) {
		m.b, err = unix.Mmap(int(fd), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	})
	if err != nil {
		return mappedFile{}, false
	}
	return m, true
}

// release drops the pages of bytes [lo, hi) from this process's resident
// memory (they stay in the page cache, and a later touch maps them
// again), so that a stream's footprint stays bounded whatever the file's
// size.
func (m mappedFile) release(lo, hi int64) {
	if b := m.pages(lo, hi); len(b) > 0 {
		unix.Madvise(b, unix.MADV_DONTNEED)
	}
}

// pages is bytes [lo, hi) of the mapping from the start of lo's page, as
// madvise wants.
func (m mappedFile) pages(lo, hi int64) []byte {
	lo -= lo % int64(os.Getpagesize())
	if lo >= hi {
		return nil
	}
	return m.b[lo:hi]
}

func (m mappedFile) unmap() { unix.Munmap(m.b) }
