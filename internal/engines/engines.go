// Package engines names the implementations the benchmarks time side by
// side: this library's here, and in the bench module the C libraries'
// through cgo. cmd/blosc bench and go run ./bench share it.
package engines

import "github.com/goblosc/blosc"

// Engine is one implementation timed.
type Engine struct {
	Name string
	// Open prepares the engine for one configuration, as a service would:
	// contexts built once, reused for every call.
	Open func(o blosc.Options) (Funcs, error)
	// Supports reports whether the engine can run a configuration.
	Supports func(o blosc.Options) bool
}

// Funcs are one configuration's calls, with blosc.Compress's contract:
// the result is written into dst's array when its capacity is enough.
type Funcs struct {
	Compress, Decompress func(dst, src []byte) ([]byte, error)
}

// Go is this library, through a reused Compressor and Decompressor.
var Go = Engine{
	Name: "go",
	Open: func(o blosc.Options) (Funcs, error) {
		c, err := blosc.NewCompressor(o)
		if err != nil {
			return Funcs{}, err
		}
		d, err := blosc.NewDecompressor(blosc.DecompressOptions{Threads: o.Threads})
		if err != nil {
			return Funcs{}, err
		}
		return Funcs{c.Compress, d.Decompress}, nil
	},
	Supports: func(blosc.Options) bool { return true },
}
