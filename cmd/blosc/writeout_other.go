//go:build !linux

package main

import "os"

// startWriteout is a no-op where write-out cannot be started early: the
// final fsync then writes the whole file.
func startWriteout(*os.File) {}
