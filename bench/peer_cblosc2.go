//go:build cblosc2 && cgo

package main

import (
	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/engines"
)

// Built with -tags cblosc2 (c-blosc2 built from source, see
// scripts/cblosc2.sh), bench adds a c-blosc2 row after every Blosc2
// configuration, measured in the same run. Its contexts live as long as
// the process: a bench run opens a few dozen.
func init() {
	extraEngines = append(extraEngines, engines.Engine{
		Name: "c-blosc2-" + cblosc2.Version(),
		Open: func(o blosc.Options) (engines.Funcs, error) {
			threads := cThreads(o)
			p := cblosc2.Params{Codec: int(o.Codec), Level: o.Level, Typesize: max(o.Typesize, 1), Threads: threads,
				Blocksize: o.Blocksize, Split: int(o.SplitMode), Dict: o.Dict}
			if o.SplitMode == blosc.SplitDefault {
				p.Split = int(blosc.SplitForwardCompat)
			}
			for i := range o.Filters {
				p.Filters[i], p.FilterMeta[i] = uint8(o.Filters[i]), o.FilterMeta[i]
			}
			cc, err := cblosc2.NewCompressor(p)
			if err != nil {
				return engines.Funcs{}, err
			}
			dc, err := cblosc2.NewDecompressor(threads)
			if err != nil {
				return engines.Funcs{}, err
			}
			compress := func(dst, src []byte) ([]byte, error) {
				// n+32 bytes, BLOSC2_MAX_OVERHEAD, as python-blosc2 passes.
				if cap(dst) < len(src)+32 {
					dst = make([]byte, len(src)+32)
				}
				n, err := cc.Compress(dst[:len(src)+32], src)
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
				n, err := dc.Decompress(dst[:h.Nbytes], src)
				return dst[:n], err
			}
			return engines.Funcs{Compress: compress, Decompress: decompress}, nil
		},
		// c-blosc2 has no Snappy; it writes Blosc2 chunks, the reference
		// for our -format chunk2 rows.
		Supports: func(o blosc.Options) bool { return o.Format == blosc.FormatBlosc2 && o.Codec != blosc.Snappy },
	})
}
