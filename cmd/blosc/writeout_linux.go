//go:build linux

package main

import (
	"os"

	"github.com/goblosc/blosc/internal/fsys"

	"golang.org/x/sys/unix"
)

// startWriteout hands f's dirty pages to the kernel's write-out without
// waiting for it (sync_file_range with SYNC_FILE_RANGE_WRITE over the
// whole file); pages already being written are left alone. It ignores
// failure: the final fsync writes whatever this did not.
func startWriteout(file fsys.File) {
	f, ok := file.(*os.File)
	if !ok {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		unix.SyncFileRange(int(fd), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
	})
}
