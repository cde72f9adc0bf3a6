package main

import (
	"runtime"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/engines"
)

// extraEngines is filled by the build-tagged peer files.
var extraEngines []engines.Engine

// allEngines are this library, then each C library built in.
func allEngines() []engines.Engine { return append([]engines.Engine{engines.Go}, extraEngines...) }

// cThreads is the thread count a C engine is given for o: Options.Threads
// 0 means every core, and the C libraries want the count itself.
func cThreads(o blosc.Options) int {
	if o.Threads < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Threads
}

// extraKernel is a shuffle kernel from a C library timed beside ours.
// usable reports the bytes of an n-byte buffer it can transform at ts (C
// bit-shuffles whole groups of 8 elements only), 0 when it cannot run.
type extraKernel struct {
	family, name string
	usable       func(n, ts int) int
	shuffle      func(dst, src []byte, ts int)
	unshuffle    func(dst, src []byte, ts int)
}

// extraKernels is filled by the build-tagged kernel files.
var extraKernels []extraKernel
