//go:build cblosc && cgo

package main

import (
	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/engines"
)

// Built with -tags cblosc, the suite adds a row for c-blosc 1.x through cgo,
// measured in the same run as the go row it follows.
func init() {
	extraEngines = append(extraEngines, engines.Engine{
		Name: "c-blosc-" + cblosc.Version(),
		Open: func(o blosc.Options) (engines.Funcs, error) {
			threads := cThreads(o)
			compress := func(dst, src []byte) ([]byte, error) {
				dst = dst[:cap(dst)]
				if len(dst) < len(src)+16 {
					dst = make([]byte, len(src)+16)
				}
				n, err := cblosc.Compress(dst, src, o.Codec.String(), o.Level, int(shuffleOf(o)), o.Typesize, o.Blocksize, threads)
				return dst[:n], err
			}
			decompress := func(dst, src []byte) ([]byte, error) {
				h, err := blosc.ReadHeader(src)
				if err != nil {
					return nil, err
				}
				if cap(dst) < h.Nbytes {
					dst = make([]byte, h.Nbytes)
				}
				n, err := cblosc.Decompress(dst[:h.Nbytes], src, threads)
				return dst[:n], err
			}
			return engines.Funcs{Compress: compress, Decompress: decompress}, nil
		},
		// c-blosc 1.x writes Blosc1 chunks only: it runs every configuration
		// whose pipeline a Blosc1 chunk can hold, as the reference for the
		// same codec, level and shuffle whichever format the go row writes.
		Supports: func(o blosc.Options) bool { return blosc1Pipeline(o) && !o.Dict },
	})
}

func shuffleOf(o blosc.Options) blosc.Filter {
	for _, f := range o.Filters {
		if f == blosc.ByteShuffle || f == blosc.BitShuffle {
			return f
		}
	}
	return blosc.NoFilter
}

func blosc1Pipeline(o blosc.Options) bool {
	shuffles := 0
	for _, f := range o.Filters {
		switch f {
		case blosc.NoFilter:
		case blosc.ByteShuffle, blosc.BitShuffle:
			shuffles++
		default:
			return false
		}
	}
	return shuffles <= 1
}
