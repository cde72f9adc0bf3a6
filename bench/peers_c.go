//go:build cgo && (cblosc || cblosc2)

package main

import (
	"runtime"

	"github.com/goblosc/blosc"
)

// cThreads is the thread count a C engine is given for o: Options.Threads
// 0 means every core, and the C libraries want the count itself.
func cThreads(o blosc.Options) int {
	if o.Threads < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Threads
}
