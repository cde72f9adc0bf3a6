package blosc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// FuzzDecompress feeds mutated chunks of either format to every reader:
// none may panic; serial, parallel and staged decoding agree on the bytes
// and on the class of error; GetItem agrees with Decompress on the range the
// fuzzer picks and across block boundaries; and a Blosc1 chunk rewritten as
// the Blosc2 chunk that means the same decodes to the same bytes where the
// Blosc2 reader accepts it.
func FuzzDecompress(f *testing.F) {
	golden.SeedChunks(f)
	f.Add([]byte{2, 1, 0x33, 4, 0, 0, 0, 0, 1, 0, 0, 0, 16, 0, 0, 0}, uint32(0), uint32(0))
	w := newDecodeWays()
	f.Fuzz(func(t *testing.T, src []byte, a, b uint32) {
		h, herr := ReadHeader(src)
		if herr == nil && h.Nbytes > 1<<20 {
			// Legitimately huge claims (zero runs, special chunks, zstd's
			// ratio) only slow the fuzzer down.
			return
		}
		out, err := w.check(t, src, a, b)
		if err != nil || h.Format != FormatBlosc1 {
			return
		}
		c2, ok := asBlosc2(src, &h)
		if !ok {
			return
		}
		got, err := w.check(t, c2, a, b)
		if err == nil && !bytes.Equal(got, out) {
			t.Fatalf("the Blosc2 reader decodes the rewritten chunk differently at byte %d", golden.FirstDiff(got, out))
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	if dir, es, err := golden.Lookup("blosc1-chunk"); err != nil && !errors.Is(err, golden.ErrNotFound) {
		f.Fatal(err)
	} else if err == nil {
		for i, e := range es {
			if e.Raw == "-" || strings.Contains(e.File, "_mt2") {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(dir, e.Raw))
			if err != nil || len(raw) > 16<<10 {
				continue
			}
			c, _ := ParseCodec(e.Codec)
			flt := map[string]uint8{"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[e.Filters]
			f.Add(raw, uint8(c), uint8(e.Clevel), uint8(e.Typesize), flt, uint16(e.Blocksize/64), uint8(i%3))
		}
	}
	f.Add([]byte("hello, hello, hello, hello"), uint8(1), uint8(5), uint8(4), uint8(1), uint16(0), uint8(0))
	// One engine and decompressor for the whole run: the pooled ones the
	// package functions use are emptied by every GC, and rebuilding zstd
	// encoders each time would leave the fuzzer little time for anything
	// else.
	e := new(engine)
	d := &Decompressor{}
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
		p, err := o.params()
		if err != nil {
			t.Fatalf("options %+v: %v", o, err)
		}
		chunk, err := e.compress(nil, data, &p)
		if err != nil {
			t.Fatalf("Compress(%+v): %v", o, err)
		}
		if len(chunk) > len(data)+16 {
			t.Fatalf("chunk of %d bytes for %d", len(chunk), len(data))
		}
		out, err := d.Decompress(nil, chunk)
		if err != nil {
			t.Fatalf("Decompress(%+v): %v", o, err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("round trip (%+v) differs at %d", o, golden.FirstDiff(out, data))
		}
	})
}
