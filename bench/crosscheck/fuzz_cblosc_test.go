//go:build cblosc && cgo

package crosscheck

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
)

// FuzzCrossCBlosc1: on any Blosc1 chunk our validator (ReadHeader) accepts,
// c-blosc 1.21 and Decompress agree on whether it decodes and on the bytes,
// and blosc_getitem agrees with GetItem on the range the fuzzer picks.
// Inputs ReadHeader refuses never reach C: c-blosc 1.x trusts the offsets
// and sizes in the chunk and can read past it (docs/formats.md).
func FuzzCrossCBlosc1(f *testing.F) {
	golden.SeedChunks(f)
	for i, c := range allCodecs {
		in, _ := golden.Pattern("linspace_f64", 3000+100*i)
		for _, fl := range []blosc.Filter{blosc.NoFilter, blosc.ByteShuffle, blosc.BitShuffle} {
			ch, err := blosc.Compress(nil, in, withFilter(blosc.Options{Codec: c, Level: 5, Typesize: 8, Blocksize: 1024, Threads: 1}, fl))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(ch, uint32(i), uint32(7*i))
		}
	}
	d := newDecompressor(1)
	f.Fuzz(func(t *testing.T, src []byte, a, b uint32) {
		h, herr := blosc.ReadHeader(src)
		if herr != nil || h.Format != blosc.FormatBlosc1 || h.Nbytes > 1<<20 {
			return
		}
		chunk := src[:h.Cbytes]
		ours, err := d.Decompress(nil, chunk)
		want := make([]byte, h.Nbytes)
		n, cerr := cblosc.Decompress(want, chunk, 1)
		if (err == nil) != (cerr == nil) {
			if why := codecGap(chunk, err); why != "" {
				t.Skip(why)
			}
			if err == nil && h.Version != blosc1Version {
				t.Skip("blosc_cbuffer_validate reads the sizes of format version 2 only")
			}
			t.Fatalf("Decompress: %v; c-blosc: %v", err, cerr)
		}
		if err != nil {
			return
		}
		if n != h.Nbytes || !bytes.Equal(ours, want) {
			t.Fatalf("c-blosc decoded %d bytes, we %d; first difference at %d", n, len(ours), golden.FirstDiff(ours, want))
		}
		if h.Nbytes == 0 {
			return // blosc_getitem refuses every range of an empty chunk, even (0, 0)
		}
		ts := h.Typesize
		items := h.Nbytes / ts
		start := int(uint64(a) % uint64(items+1))
		count := int(uint64(b) % uint64(items-start+1))
		got, err := d.GetItems(nil, chunk, int64(start), int64(count))
		if err != nil {
			t.Fatalf("GetItem(%d, %d): %v", start, count, err)
		}
		cgot := make([]byte, count*ts)
		m, cerr := cblosc.GetItem(cgot, chunk, start, count)
		if cerr != nil || m != count*ts || !bytes.Equal(got, cgot) {
			t.Fatalf("GetItem(%d, %d) of %d-byte items: blosc_getitem %d bytes, %v; first difference at %d", start, count, ts, m, cerr, golden.FirstDiff(got, cgot))
		}
	})
}

// blosc1Codes are the codecs whose streams FuzzCrossCStreams wraps, with
// their Blosc1 flag codes.
var blosc1Codes = []struct {
	c    blosc.Codec
	code uint8
}{{blosc.BloscLZ, 0}, {blosc.LZ4, 1}, {blosc.Snappy, 2}, {blosc.Zlib, 3}, {blosc.Zstd, 4}}

// streamChunk wraps one compressed stream in a Blosc1 chunk of one
// unsplit, unshuffled block of nbytes bytes, the form in which c-blosc
// hands a stream to its codec with a size limit of nbytes.
func streamChunk(code uint8, stream []byte, nbytes int) []byte {
	ch := make([]byte, blosc1HeaderLen+4+4+len(stream))
	ch[0], ch[1], ch[2], ch[3] = blosc1Version, 1, code<<5|flagDontSplit, 1
	binary.LittleEndian.PutUint32(ch[4:], uint32(nbytes))
	binary.LittleEndian.PutUint32(ch[8:], uint32(nbytes))
	binary.LittleEndian.PutUint32(ch[12:], uint32(len(ch)))
	binary.LittleEndian.PutUint32(ch[16:], blosc1HeaderLen+4)
	binary.LittleEndian.PutUint32(ch[20:], uint32(len(stream)))
	copy(ch[24:], stream)
	return ch
}

// FuzzCrossCStreams: a BloscLZ, LZ4, Snappy, Zlib or Zstd stream, wrapped
// in a one-block chunk, decodes in c-blosc 1.21 exactly when it decodes
// here, to the same bytes. The chunk around the stream is well formed, so
// only the codecs' own checks are compared.
func FuzzCrossCStreams(f *testing.F) {
	var st codec.State
	for i, cc := range blosc1Codes {
		for _, name := range []string{"text", "arange_i32", "f32_noise"} {
			in, _ := golden.Pattern(name, 1000+500*i)
			dst := make([]byte, len(in))
			if n, err := st.Compress(codec.ID(cc.c), 5, dst, in, false); err == nil && n > 0 && n < len(in) {
				f.Add(dst[:n], uint16(len(in)), uint8(i))
			}
		}
	}
	d := newDecompressor(1)
	f.Fuzz(func(t *testing.T, s []byte, size uint16, which uint8) {
		if len(s) == 0 || len(s) >= int(size) {
			return // empty, or what both take as a stored stream
		}
		cc := blosc1Codes[int(which)%len(blosc1Codes)]
		if !cblosc.HasCodec(cc.c.String()) {
			t.Skipf("c-blosc lacks %s", cc.c)
		}
		ch := streamChunk(cc.code, s, int(size))
		ours, err := d.Decompress(nil, ch)
		want := make([]byte, size)
		n, cerr := cblosc.Decompress(want, ch, 1)
		if (err == nil) != (cerr == nil) || (err == nil && (n != int(size) || !bytes.Equal(ours, want))) {
			if why := codecGap(ch, err); why != "" && cerr == nil {
				t.Skip(why)
			}
			t.Fatalf("%s stream of %d bytes for %d: ours %v; c-blosc %d bytes, %v; first difference at %d",
				cc.c, len(s), size, err, n, cerr, golden.FirstDiff(ours, want[:max(n, 0)]))
		}
	})
}
