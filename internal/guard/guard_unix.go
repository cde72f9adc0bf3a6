//go:build unix

package guard

import (
	"os"

	"golang.org/x/sys/unix"
)

func newBuffer(n int, side Side) *Buffer {
	ps := os.Getpagesize()
	body := (n + ps - 1) / ps * ps
	mem, err := unix.Mmap(-1, 0, body+2*ps, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		panic("guard: mmap: " + err.Error())
	}
	if err := unix.Mprotect(mem[:ps], unix.PROT_NONE); err != nil {
		panic("guard: mprotect: " + err.Error())
	}
	if err := unix.Mprotect(mem[ps+body:], unix.PROT_NONE); err != nil {
		panic("guard: mprotect: " + err.Error())
	}
	var b []byte
	if side == Start {
		b = mem[ps : ps+n : ps+n]
	} else {
		b = mem[ps+body-n : ps+body : ps+body]
	}
	return &Buffer{Bytes: b, free: func() { _ = unix.Munmap(mem) }}
}
