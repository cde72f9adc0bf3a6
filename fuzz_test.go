package blosc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/testdata"
)

// seedChunks adds the golden and corrupted Blosc1 chunks (up to a size
// the fuzzer handles well) to the corpus.
func seedChunks(f *testing.F) []testdata.Entry {
	dir, err := testdata.Locate()
	if err != nil {
		return nil
	}
	es, err := testdata.Manifest(dir)
	if err != nil {
		f.Fatal(err)
	}
	var rows []testdata.Entry
	for _, e := range es {
		if e.Kind != "blosc1-chunk" && e.Kind != "corrupt-blosc1" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 64<<10 {
			f.Add(b)
		}
		rows = append(rows, e)
	}
	return rows
}

func FuzzDecompress(f *testing.F) {
	seedChunks(f)
	f.Add([]byte{2, 1, 0x33, 4, 0, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0})
	d := &Decompressor{Threads: 1}
	f.Fuzz(func(t *testing.T, src []byte) {
		h, herr := ReadHeader(src)
		out, err := d.Decompress(nil, src)
		if err != nil {
			return
		}
		if herr != nil {
			t.Fatalf("Decompress succeeded where ReadHeader failed: %v", herr)
		}
		if len(out) != h.Nbytes {
			t.Fatalf("decoded %d bytes, header says %d", len(out), h.Nbytes)
		}
		// Parallel decoding and GetItem agree with the serial result.
		p, err := (&Decompressor{Threads: 3}).Decompress(nil, src)
		if err != nil || !bytes.Equal(p, out) {
			t.Fatalf("parallel decode disagrees: %v", err)
		}
		if items := h.Nbytes / h.Typesize; items > 0 {
			got, err := d.GetItem(nil, src, items/4, items/2)
			if err != nil || !bytes.Equal(got, out[items/4*h.Typesize:(items/4+items/2)*h.Typesize]) {
				t.Fatalf("GetItem disagrees: %v", err)
			}
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	if dir, err := testdata.Locate(); err == nil {
		es, _ := testdata.Manifest(dir)
		for i, e := range es {
			if e.Kind != "blosc1-chunk" || e.Raw == "-" || strings.Contains(e.File, "_mt2") {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(dir, e.Raw))
			if err != nil || len(raw) > 64<<10 {
				continue
			}
			c, _ := ParseCodec(e.Codec)
			flt := map[string]uint8{"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[e.Filters]
			f.Add(raw, uint8(c), uint8(e.Clevel), uint8(e.Typesize), flt, uint16(e.Blocksize/64), uint8(i%3))
		}
	}
	f.Add([]byte("hello, hello, hello, hello"), uint8(1), uint8(5), uint8(4), uint8(1), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, c, level, ts, flt uint8, bs uint16, split uint8) {
		o := Options{
			Codec:     Codec(c % 6),
			Level:     int(level % 10),
			Typesize:  1 + int(ts)%MaxTypesize,
			Blocksize: int(bs) * 64,
			SplitMode: SplitMode(split % 5),
			Threads:   1 + int(level/10)%3,
		}
		o.Filters[MaxFilters-1] = Filter(flt % 3)
		chunk, err := Compress(nil, data, o)
		if err != nil {
			t.Fatalf("Compress(%+v): %v", o, err)
		}
		if len(chunk) > len(data)+16 {
			t.Fatalf("chunk of %d bytes for %d", len(chunk), len(data))
		}
		out, err := Decompress(nil, chunk)
		if err != nil {
			t.Fatalf("Decompress(%+v): %v", o, err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("round trip (%+v) differs at %d", o, firstDiff(out, data))
		}
	})
}
