//go:build !linux

package main

// adviseHuge does nothing where transparent huge pages cannot be asked
// for; aligned's buffers then sit on the pages the system gives.
func adviseHuge([]byte) {}
