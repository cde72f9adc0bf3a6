package blosc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// FuzzDecompress2 feeds mutated Blosc2 chunks to every reader entry point:
// none may panic, a chunk that decodes must decode the same serially, in
// parallel and through GetItem, and nothing may be allocated beyond what
// the header justifies after validation.
func FuzzDecompress2(f *testing.F) {
	if dir, es, err := golden.Lookup(append(blosc2Kinds, "corrupt-blosc2")...); err != nil && !errors.Is(err, golden.ErrNotFound) {
		f.Fatal(err)
	} else if err == nil {
		for _, e := range es {
			if e.Nbytes > 1<<20 {
				continue
			}
			if b, err := os.ReadFile(filepath.Join(dir, e.File)); err == nil {
				f.Add(b)
			}
		}
	}
	small, _ := Compress(nil, bytes.Repeat([]byte("blosc2 fuzz seed "), 40), Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4,
		Filters: [MaxFilters]Filter{Delta, ByteShuffle}})
	f.Add(small)
	d1 := &Decompressor{Threads: 1}
	d2 := &Decompressor{Threads: 2}
	// Staged output and parallel blocks at any size (they start at 8 MiB
	// and 128 KiB), so that the small inputs here reach those paths.
	s2 := &Decompressor{Threads: 2}
	s2.e.stageMin, s2.e.parallelMin = 1, 1
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) < 3 || !isBlosc2Header(src) {
			return
		}
		h, herr := ReadHeader(src)
		if herr == nil && h.Special != SpecialNone && h.Nbytes > 64<<20 {
			return // a valid special chunk may claim 2 GiB; not worth filling here
		}
		a, err := d1.Decompress(nil, src)
		staged, serr := s2.Decompress(nil, src)
		if (serr == nil) != (err == nil) || !bytes.Equal(staged, a) {
			t.Fatalf("staged decode (%v) differs from serial (%v)", serr, err)
		}
		if (err == nil) != (herr == nil) && err == nil {
			t.Fatalf("ReadHeader refused (%v) a chunk Decompress accepted", herr)
		}
		if err != nil {
			return
		}
		if len(a) != h.Nbytes {
			t.Fatalf("decoded %d bytes, header says %d", len(a), h.Nbytes)
		}
		b, err := d2.Decompress(nil, src)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("parallel decode differs: %v", err)
		}
		if n := h.Nbytes / h.Typesize; n > 0 {
			items, err := GetItem(nil, src, n/3, n-n/3)
			if err != nil || !bytes.Equal(items, a[n/3*h.Typesize:n*h.Typesize]) {
				t.Fatalf("GetItem differs: %v", err)
			}
		}
	})
}

// FuzzCompress2RoundTrip: any input under any valid Blosc2 options comes
// back unchanged (trunc_prec left out: it is lossy by design).
func FuzzCompress2RoundTrip(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello hello hello hello"), uint8(1), uint8(5), uint8(8), uint16(0), uint8(0x31))
	f.Add(bytes.Repeat([]byte{0, 0, 0, 1}, 300), uint8(5), uint8(9), uint8(4), uint16(64), uint8(0x13))
	codecs := []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	f.Fuzz(func(t *testing.T, src []byte, c, level, ts uint8, bs uint16, pipe uint8) {
		o := Options{Format: FormatBlosc2, Codec: codecs[int(c)%len(codecs)], Level: int(level % 10),
			Typesize: 1 + int(ts)%32, Blocksize: int(bs), SplitMode: SplitMode(c / 8 % 5), Threads: 1 + int(c)%2}
		for i := 0; i < 3; i++ {
			o.Filters[i] = Filter((pipe >> (2 * i)) & 3) // none, shuffle, bitshuffle, delta
		}
		o.FilterMeta[0] = pipe >> 6
		chunk, err := Compress(nil, src, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decompress(nil, chunk)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("%+v: differs at %d", o, firstDiff(got, src))
		}
	})
}
