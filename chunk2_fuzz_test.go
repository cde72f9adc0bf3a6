package blosc

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc/internal/testdata"
)

// FuzzDecompress2 feeds mutated Blosc2 chunks to every reader entry point:
// none may panic, a chunk that decodes must decode the same serially, in
// parallel and through GetItem, and nothing may be allocated beyond what
// the header justifies after validation.
func FuzzDecompress2(f *testing.F) {
	if dir, err := testdata.Locate(); err == nil {
		if es, err := testdata.Manifest(dir); err == nil {
			for _, e := range es {
				switch e.Kind {
				case "blosc2-chunk", "blosc2-special-chunk", "blosc2-vlblocks-chunk", "corrupt-blosc2":
				default:
					continue
				}
				if e.Nbytes > 1<<20 {
					continue
				}
				if b, err := os.ReadFile(filepath.Join(dir, e.File)); err == nil {
					f.Add(b)
				}
			}
		}
	}
	small, _ := Compress(nil, bytes.Repeat([]byte("blosc2 fuzz seed "), 40), Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4,
		Filters: [MaxFilters]Filter{Delta, ByteShuffle}})
	f.Add(small)
	d1 := &Decompressor{Threads: 1}
	d2 := &Decompressor{Threads: 2}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) < 3 || !isBlosc2Header(src) {
			return
		}
		h, herr := ReadHeader(src)
		if herr == nil && h.Special != SpecialNone && h.Nbytes > 64<<20 {
			return // a valid special chunk may claim 2 GiB; not worth filling here
		}
		a, err := d1.Decompress(nil, src)
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
