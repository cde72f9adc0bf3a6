package main

import (
	"github.com/goblosc/blosc/internal/engines"
)

// extraEngines is filled by the build-tagged peer files.
var extraEngines []engines.Engine

// allEngines are this library, then each C library built in.
func allEngines() []engines.Engine { return append([]engines.Engine{engines.Go}, extraEngines...) }

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
