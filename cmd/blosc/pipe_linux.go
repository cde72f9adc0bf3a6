//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the kernel buffer a stream through a pipe asks for: the
// largest an unprivileged process gets by default (pipe-max-size).
const pipeSize = 1 << 20

// growPipe enlarges the kernel buffer of f when it is a pipe, so that a
// stream through it takes one system call and one wake-up per megabyte
// rather than per 64 KiB. It leaves f's blocking mode alone and ignores
// failure: the pipe then works as it did.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
			return
		}
		unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize)
	})
}
