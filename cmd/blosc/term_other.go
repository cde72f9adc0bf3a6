//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

// isTerminalFd reports false where terminals are not detected: no progress
// is drawn there.
func isTerminalFd(fd uintptr) bool { return false }
