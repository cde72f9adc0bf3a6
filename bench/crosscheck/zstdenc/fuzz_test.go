//go:build cblosc && cgo

package zstdenc_test

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/zstdenc"
)

// FuzzDecodedByLibzstd: any input at any level, with any prefix of it as
// a raw-content dictionary, libzstd decodes to the input.
func FuzzDecodedByLibzstd(f *testing.F) {
	for _, s := range sets[:5] {
		f.Add(block(f, s.name, s.ts, 3000), uint8(1), uint16(0))
		f.Add(block(f, s.name, s.ts, 3000), uint8(4), uint16(700))
		// The tree levels: btlazy2, btopt, btultra2 (level bytes mod 22).
		f.Add(block(f, s.name, s.ts, 3000), uint8(12), uint16(0))
		f.Add(block(f, s.name, s.ts, 3000), uint8(15), uint16(900))
		f.Add(block(f, s.name, s.ts, 3000), uint8(21), uint16(0))
	}
	var e zstdenc.Encoder
	var frame []byte
	f.Fuzz(func(t *testing.T, data []byte, level uint8, dictLen uint16) {
		dl := min(int(dictLen), len(data))
		dict, src := data[:dl], data[dl:]
		lvl := int(level)%zstdenc.MaxLevel + 1
		frame = e.EncodeDict(frame[:0], src, dict, lvl)
		got := make([]byte, len(src)+1)
		var n int
		var err error
		if dl == 0 {
			n, err = czstd.Decompress(got, frame)
		} else {
			n, err = czstd.DecompressWithDict(got, frame, dict)
		}
		if err != nil || n != len(src) || !bytes.Equal(got[:n], src) {
			t.Fatalf("level %d, %d bytes, dictionary %d: libzstd made %d bytes: %v", lvl, len(src), dl, n, err)
		}
	})
}
