//go:build cblosc && cgo

package crosscheck

import (
	"testing"

	"github.com/goblosc/blosc"
)

// Helpers only the c-blosc 1.x cross-checks use.

var allCodecs = []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Snappy, blosc.Zlib, blosc.Zstd}

// withFilter sets the pipeline to f alone, in the last slot, where a
// Blosc1 shuffle goes.
func withFilter(o blosc.Options, f blosc.Filter) blosc.Options {
	o.Filters = [blosc.MaxFilters]blosc.Filter{}
	o.Filters[blosc.MaxFilters-1] = f
	return o
}

// autoBlocksize is the block size Compress picks for a 1 MiB input with
// o (whose Blocksize is 0), read from the header it writes: the header
// keeps it even when the data ends up stored.
func autoBlocksize(tb testing.TB, o blosc.Options) int {
	tb.Helper()
	ch, err := blosc.Compress(nil, make([]byte, 1<<20), o)
	if err != nil {
		tb.Fatal(err)
	}
	h, err := blosc.ReadHeader(ch)
	if err != nil {
		tb.Fatal(err)
	}
	return h.Blocksize
}

// streamLen is the length of the stream at s: its 4-byte size and its
// bytes, a zero size alone (a run of zeros), or a negative size and the
// byte it repeats; -1 when it does not fit.
func streamLen(s []byte) int {
	if len(s) < 4 {
		return -1
	}
	switch cs := le32(s); {
	case cs == 0:
		return 4
	case cs < 0:
		return 5
	case cs > len(s)-4:
		return -1
	default:
		return 4 + cs
	}
}
