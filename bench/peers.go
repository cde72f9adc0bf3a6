package main

import (
	"runtime"

	"github.com/goblosc/blosc"
)

// engine is one implementation timed: this library, and each C library
// the binary was built with (-tags cblosc: c-blosc 1.x; -tags cblosc2:
// c-blosc2, see scripts/cblosc2.sh).
type engine struct {
	name string
	// open prepares the engine for one configuration, as a service would:
	// contexts built once, reused for every call.
	open func(o blosc.Options) (codecFuncs, error)
	// supports reports whether the engine can run a configuration.
	supports func(o blosc.Options) bool
}

type codecFuncs struct {
	compress, decompress func(dst, src []byte) ([]byte, error)
}

var goEngine = engine{
	name: "go",
	open: func(o blosc.Options) (codecFuncs, error) {
		c, err := blosc.NewCompressor(o)
		if err != nil {
			return codecFuncs{}, err
		}
		d := blosc.NewDecompressor()
		d.Threads = o.Threads
		return codecFuncs{c.Compress, d.Decompress}, nil
	},
	supports: func(blosc.Options) bool { return true },
}

// extraEngines is filled by the build-tagged peer files.
var extraEngines []engine

func engines() []engine { return append([]engine{goEngine}, extraEngines...) }

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
