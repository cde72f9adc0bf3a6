package blosc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// FuzzDecompress2 feeds mutated Blosc2 chunks to every reader entry point
// with the checks of FuzzDecompress (decodeWays.check): no panic, serial,
// parallel and staged decoding alike, GetItem on any range equal to the
// same bytes of Decompress, ReadHeader accepting what Decompress does.
func FuzzDecompress2(f *testing.F) {
	if dir, es, err := golden.Lookup(append(blosc2Kinds, "corrupt-blosc2")...); err != nil && !errors.Is(err, golden.ErrNotFound) {
		f.Fatal(err)
	} else if err == nil {
		for i, e := range es {
			if e.Nbytes > 1<<20 {
				continue
			}
			if b, err := os.ReadFile(filepath.Join(dir, e.File)); err == nil {
				f.Add(b, uint32(i), 1<<31-uint32(i))
			}
		}
	}
	small, _ := Compress(nil, bytes.Repeat([]byte("blosc2 fuzz seed "), 40), Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4,
		Filters: [MaxFilters]Filter{Delta, ByteShuffle}})
	f.Add(small, uint32(17), uint32(101))
	// The plugin filters c-blosc2 registers by default, with blocks and
	// channels that end in partial elements.
	for i, o := range []Options{
		{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 1000, Filters: [MaxFilters]Filter{4: ByteShuffle, 5: ByteDelta}},
		{Format: FormatBlosc2, Codec: BloscLZ, Level: 5, Typesize: 3, Filters: [MaxFilters]Filter{4: ByteShuffle, 5: ByteDeltaLegacy}},
		{Format: FormatBlosc2, Codec: Zstd, Level: 3, Typesize: 4, Filters: [MaxFilters]Filter{3: IntTrunc, 4: ByteShuffle, 5: ByteDelta}, FilterMeta: [MaxFilters]uint8{3: 0xf8, 5: 2}},
	} {
		src := golden.MustPattern(f, "linspace_f64", 3001+i)
		if c, err := Compress(nil, src, o); err == nil {
			f.Add(c, uint32(i), uint32(3000))
		}
	}
	// Blocks whose streams are partly stored raw (decodeBlockStreams).
	noisy := noisyLowBytes(rand.New(rand.NewPCG(1, 2)), 2048, 4)
	if c, err := Compress(nil, noisy, Options{Format: FormatBlosc2, Codec: BloscLZ, Level: 5, Typesize: 4, Blocksize: 4000,
		Filters: [MaxFilters]Filter{5: ByteShuffle}}); err == nil {
		f.Add(c, uint32(5), uint32(7000))
	}
	w := newDecodeWays()
	f.Fuzz(func(t *testing.T, src []byte, a, b uint32) {
		if len(src) < 3 || !isBlosc2Header(src) {
			return
		}
		if h, err := ReadHeader(src); err == nil && h.Special != SpecialNone && h.Nbytes > 64<<20 {
			return // a valid special chunk may claim 2 GiB; not worth filling here
		}
		w.check(t, src, a, b)
	})
}

// FuzzCompress2RoundTrip: any input under any valid Blosc2 options comes
// back unchanged (trunc_prec and int_trunc left out: they are lossy by
// design). A slot's delta becomes bytedelta or the legacy bytedelta by
// the tens of level, and slot 0's meta (bytedelta's channel count, 0 for
// the typesize) comes from pipe's top bits.
func FuzzCompress2RoundTrip(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello hello hello hello"), uint8(1), uint8(5), uint8(8), uint16(0), uint8(0x31))
	f.Add(bytes.Repeat([]byte{0, 0, 0, 1}, 300), uint8(5), uint8(9), uint8(4), uint16(64), uint8(0x13))
	f.Add(golden.MustPattern(f, "linspace_f64", 5003), uint8(1), uint8(15), uint8(7), uint16(0), uint8(0x0d))
	f.Add(golden.MustPattern(f, "f32_noise", 777), uint8(0), uint8(25), uint8(3), uint16(100), uint8(0x43))
	codecs := []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	f.Fuzz(func(t *testing.T, src []byte, c, level, ts uint8, bs uint16, pipe uint8) {
		o := Options{Format: FormatBlosc2, Codec: codecs[int(c)%len(codecs)], Level: int(level % 10),
			Typesize: 1 + int(ts)%32, Blocksize: int(bs), SplitMode: SplitMode(c / 8 % 5), Threads: 1 + int(c)%2}
		for i := 0; i < 3; i++ {
			o.Filters[i] = Filter((pipe >> (2 * i)) & 3) // none, shuffle, bitshuffle, delta
			if o.Filters[i] == Delta {
				o.Filters[i] = [...]Filter{Delta, ByteDelta, ByteDeltaLegacy}[level/10%3]
			}
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
			t.Fatalf("%+v: differs at %d", o, golden.FirstDiff(got, src))
		}
	})
}
