package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
)

// byteDeltaC is c-blosc2's bytedelta_forward (legacy: the buggy one as
// its SIMD build runs it), written a byte at a time after the C source:
// per channel a 16-byte vector loop whose delta carries over between
// vectors, then a scalar loop that the fixed filter starts from the last
// vector's last byte and the legacy one from 0. tail says whether the
// bytes after the last whole element are written (3.3.2) or left as out
// had them (legacy).
func byteDeltaC(out, in []byte, ts int, legacy bool) {
	streamLen := len(in) / ts
	ip, op := 0, 0
	for ch := 0; ch < ts; ch++ {
		i := 0
		var last byte
		for ; i < streamLen-15; i += 16 {
			for k := 0; k < 16; k++ {
				v := in[ip]
				out[op] = v - last
				last = v
				ip++
				op++
			}
		}
		if legacy || streamLen <= 15 {
			last = 0
		}
		for ; i < streamLen; i++ {
			v := in[ip]
			out[op] = v - last
			last = v
			ip++
			op++
		}
	}
	if !legacy {
		copy(out[op:], in[ip:])
	}
}

func TestByteDeltaMatchesC(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for ts := 1; ts <= 33; ts++ {
		for n := 0; n <= 40*ts+3; n += 1 + n/7 {
			in := randBytes(r, n)
			for _, legacy := range []bool{false, true} {
				name := fmt.Sprintf("ts=%d/n=%d/legacy=%v", ts, n, legacy)
				want := bytes.Clone(in) // the legacy tail: left as it was
				byteDeltaC(want, in, ts, legacy)
				got := make([]byte, n)
				byteDeltaEncode(got, in, ts, legacy)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: encode differs from C at %d", name, golden.FirstDiff(got, want))
				}
				byteDeltaDecode(got, ts, legacy)
				if !bytes.Equal(got, in) {
					t.Fatalf("%s: decode differs at %d", name, golden.FirstDiff(got, in))
				}
			}
		}
	}
}

// byteDeltaKernelLevels returns the bytedelta kernel levels this build
// has that the CPU runs, the portable one first, and those it has but the
// CPU lacks.
func byteDeltaKernelLevels() (run, lacking []cpu.Level) {
	for l := cpu.Generic; l <= cpu.NEON; l++ {
		switch {
		case !compiledByteDeltaLevel(l):
		case cpu.Available(l):
			run = append(run, l)
		default:
			lacking = append(lacking, l)
		}
	}
	return run, lacking
}

// TestByteDeltaChannelKernels checks every channel kernel this CPU runs
// (the portable SWAR loop first) against a byte loop at every length and
// offset around the vector sizes, in buffers that end at a guard page so
// that a read or write past the end faults; then the whole filter with
// each kernel against c-blosc2's algorithm on random lengths and
// typesizes. It names the kernels the CPU lacks, and fails if one that
// GOBLOSC_TEST_REQUIRE_KERNELS names did not run.
func TestByteDeltaChannelKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	levels, lacking := byteDeltaKernelLevels()
	type kernel struct {
		name   string
		level  cpu.Level
		encode func(out, in []byte)
		decode func(buf []byte)
	}
	var kernels []kernel
	for _, l := range levels {
		kernels = append(kernels, kernel{l.String(), l, byteDeltaEncodeChannel, byteDeltaDecodeChannel})
	}
	var ran []string
	for _, k := range kernels {
		restore := forceByteDeltaLevel(k.level)
		for n := 0; n <= 200; n++ {
			for off := 0; off < 16; off += 5 {
				src, dst := guard.New(n+off, guard.End), guard.New(n+off, guard.End)
				in, out := src.Bytes[off:], dst.Bytes[off:]
				for i := range in {
					in[i] = byte(r.Uint32())
				}
				want := make([]byte, n)
				var last byte
				for i, v := range in {
					want[i] = v - last
					last = v
				}
				clear(out)
				k.encode(out, in)
				if !bytes.Equal(out, want) {
					restore()
					t.Fatalf("%s off=%d n=%d: encode differs at %d", k.name, off, n, golden.FirstDiff(out, want))
				}
				k.decode(out)
				if !bytes.Equal(out, in) {
					restore()
					t.Fatalf("%s off=%d n=%d: decode differs at %d", k.name, off, n, golden.FirstDiff(out, in))
				}
				src.Free()
				dst.Free()
			}
		}
		for range 300 {
			ts := 1 + r.IntN(40)
			if r.IntN(8) == 0 {
				ts = 1 + r.IntN(255)
			}
			n := r.IntN(ts*300 + 64)
			in := randBytes(r, n)
			for _, legacy := range []bool{false, true} {
				want := bytes.Clone(in)
				byteDeltaC(want, in, ts, legacy)
				got := bytes.Clone(in)
				byteDeltaEncode(got, in, ts, legacy)
				if !bytes.Equal(got, want) {
					restore()
					t.Fatalf("%s ts=%d n=%d legacy=%v: encode differs from C at %d", k.name, ts, n, legacy, golden.FirstDiff(got, want))
				}
				byteDeltaDecode(got, ts, legacy)
				if !bytes.Equal(got, in) {
					restore()
					t.Fatalf("%s ts=%d n=%d legacy=%v: decode differs at %d", k.name, ts, n, legacy, golden.FirstDiff(got, in))
				}
			}
		}
		restore()
		ran = append(ran, k.name)
	}
	var lack []string
	for _, l := range lacking {
		lack = append(lack, l.String())
	}
	t.Logf("GOARCH=%s selected=%s; bytedelta kernels run: %s; compiled in but not runnable here: %s",
		runtime.GOARCH, byteDeltaLevel(), strings.Join(ran, ","), strings.Join(lack, ","))
	req := os.Getenv(envRequireKernels)
	for _, name := range strings.Split(req, ",") {
		l, ok := cpu.ParseLevel(strings.TrimSpace(name))
		if ok && compiledByteDeltaLevel(l) && !slices.Contains(ran, l.String()) {
			t.Errorf("%s=%s: bytedelta kernel %q did not run (ran: %s)", envRequireKernels, req, name, strings.Join(ran, ","))
		}
	}
}

// TestIntTruncMask checks the accepted metas and their masks against
// c-blosc2's truncate_uintN, whose bit counts are uint8 arithmetic.
func TestIntTruncMask(t *testing.T) {
	for _, ts := range []int{1, 2, 4, 8} {
		width := uint8(8 * ts)
		for m := 0; m < 256; m++ {
			prec := int8(m)
			var zeroed uint8
			if prec >= 0 {
				zeroed = width - uint8(prec)
			} else {
				zeroed = uint8(-int(prec))
			}
			ok := zeroed < width
			mask, err := intTruncMask(uint8(m), ts)
			if ok != (err == nil) {
				t.Fatalf("ts=%d meta=%d: C accepts %v, we %v (%v)", ts, prec, ok, err == nil, err)
			}
			if !ok {
				if !errors.Is(err, ErrInvalidOptions) {
					t.Fatalf("ts=%d meta=%d: %v", ts, prec, err)
				}
				continue
			}
			if want := ^(uint64(1)<<zeroed - 1); mask != want {
				t.Fatalf("ts=%d meta=%d: mask %#x, want %#x", ts, prec, mask, want)
			}
		}
	}
	for _, ts := range []int{3, 5, 16} {
		if _, err := intTruncMask(4, ts); !errors.Is(err, ErrInvalidOptions) {
			t.Fatalf("ts=%d: %v", ts, err)
		}
	}
}

// pluginPipelines are pipelines with the plugin filters alone, after a
// shuffle as python-blosc2 chains them, and with delta.
var pluginPipelines = [][MaxFilters]Filter{
	{5: ByteDelta},
	{4: ByteShuffle, 5: ByteDelta},
	{4: ByteShuffle, 5: ByteDeltaLegacy},
	{3: ByteDelta, 4: ByteShuffle, 5: BitShuffle},
	{0: Delta, 4: ByteShuffle, 5: ByteDelta},
	{0: ByteDelta, 1: Delta, 2: ByteShuffle},
	{4: IntTrunc, 5: ByteShuffle},
	{3: IntTrunc, 4: ByteShuffle, 5: ByteDelta},
	{0: IntTrunc, 1: Delta, 5: ByteShuffle},
}

// TestPluginFiltersRoundTrip compresses with the plugin filters through
// the public API, blocks whose ends cut elements included, and decodes
// every way (serial, parallel, staged, GetItem); with int_trunc the
// result must be the input masked.
func TestPluginFiltersRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	w := newDecodeWays()
	for _, fs := range pluginPipelines {
		for _, ts := range []int{1, 2, 4, 8, 3, 12} {
			trunc := false
			for _, f := range fs {
				trunc = trunc || f == IntTrunc
			}
			if trunc && ts != 1 && ts != 2 && ts != 4 && ts != 8 {
				continue
			}
			for _, n := range []int{0, 5, 100, 4099, 70001} {
				for _, bs := range []int{0, 1000} {
					o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: ts, Filters: fs, Blocksize: bs, Threads: 2}
					want := golden.MustPattern(t, "linspace_f64", n)
					if n > 0 {
						want = append(want[:n-n%3], randBytes(r, n%3)...)
					}
					src := bytes.Clone(want)
					orig := bytes.Clone(want)
					for i, f := range fs {
						switch f {
						case IntTrunc:
							o.FilterMeta[i] = 0xfd // -3: the low three bits zeroed
							if ts == 1 {
								o.FilterMeta[i] = 6
							}
							mask, err := intTruncMask(o.FilterMeta[i], ts)
							if err != nil {
								t.Fatal(err)
							}
							intTrunc(want, bytes.Clone(want), mask, ts)
						case ByteDelta:
							o.FilterMeta[i] = uint8(n % 2 * ts) // 0 means the typesize
						}
					}
					name := fmt.Sprintf("%v/meta=%v/ts=%d/n=%d/bs=%d", fs, o.FilterMeta, ts, n, bs)
					c, err := Compress(nil, src, o)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if h, err := ReadHeader(c); err != nil {
						t.Fatal(err)
					} else if h.Memcpyed {
						// A chunk stored as it is (too small, or not
						// compressible) holds the input unfiltered, in
						// c-blosc2 too.
						want = src
					}
					got, err := w.check(t, c, uint32(n/3), uint32(n/2))
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: differs at %d", name, golden.FirstDiff(got, want))
					}
					if !bytes.Equal(src, orig) {
						t.Fatalf("%s: Compress changed its input", name)
					}
				}
			}
		}
	}
}

// TestPluginFilterOptions: bad int_trunc settings are refused before
// anything is written.
func TestPluginFilterOptions(t *testing.T) {
	src := make([]byte, 1000)
	for _, o := range []Options{
		{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 3, Filters: [MaxFilters]Filter{IntTrunc}, FilterMeta: [MaxFilters]uint8{4}},
		{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4, Filters: [MaxFilters]Filter{IntTrunc}, FilterMeta: [MaxFilters]uint8{0}},
		{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4, Filters: [MaxFilters]Filter{IntTrunc}, FilterMeta: [MaxFilters]uint8{33}},
	} {
		if _, err := Compress(nil, src, o); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%v meta %v ts %d: %v", o.Filters, o.FilterMeta, o.Typesize, err)
		}
	}
}

// setChunkIDs returns a copy of a Blosc2 chunk with filter f in slot 0
// or, when codec is set, its streams marked as coded by the user codec
// id.
func setChunkIDs(c []byte, f Filter, codec int) []byte {
	c = bytes.Clone(c)
	if codec >= 0 {
		c[2] = c[2]&0x1f | formatUser<<5
		c[22] = byte(codec)
	} else {
		c[16] = byte(f)
	}
	return c
}

// TestUnimplementedIDs: a chunk naming a filter or codec this package does
// not have fails as unsupported, never as corrupt, with the id and what
// it is in the message, alone and inside a frame.
func TestUnimplementedIDs(t *testing.T) {
	src := golden.MustPattern(t, "linspace_f64", 10000)
	base, err := Compress(nil, src, Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}})
	if err != nil {
		t.Fatal(err)
	}
	type tc struct {
		chunk []byte
		want  string
	}
	var cases []tc
	for _, f := range []int{5, 31, 32, 33, 37, 159, 160, 255} {
		cases = append(cases, tc{setChunkIDs(base, Filter(f), -1), fmt.Sprintf("filter %d in slot 0", f)})
	}
	for _, c := range []int{0, 5, 31, 32, 33, 34, 35, 36, 39, 40, 100, 160, 255} {
		cases = append(cases, tc{setChunkIDs(base, 0, c), fmt.Sprintf("codec %d", c)})
	}
	for _, format := range []byte{5, 7} {
		c := bytes.Clone(base)
		c[2] = c[2]&0x1f | format<<5
		cases = append(cases, tc{c, fmt.Sprintf("codec format %d", format)})
	}
	for _, k := range cases {
		_, err := Decompress(nil, k.chunk)
		_, herr := ReadHeader(k.chunk)
		for _, e := range []error{err, herr} {
			if !errors.Is(e, ErrUnsupported) || errors.Is(e, ErrCorrupt) || !strings.Contains(e.Error(), k.want) || !strings.Contains(e.Error(), "(") {
				t.Errorf("%s: %v", k.want, e)
			}
		}
		// The same chunk in a frame.
		s, err := NewSChunk(SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 8}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AppendChunk(k.chunk); err != nil {
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: AppendChunk: %v", k.want, err)
			}
			continue
		}
		frame, err := s.AppendFrame(nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, open := range map[string]func([]byte) (*SChunk, error){"ParseFrame": ParseFrame, "OpenFrameBytes": OpenFrameBytes} {
			s2, err := open(frame)
			if err == nil {
				_, err = s2.DecompressChunk(nil, 0)
			}
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), k.want) {
				t.Errorf("%s in a frame, %s: %v", k.want, name, err)
			}
		}
	}
}

// BenchmarkByteDelta times the bytedelta filter with each kernel this CPU
// runs ("generic" is the portable code) over a 256 KiB block of eight
// channels, with a copy of the same size as the memory bound.
func BenchmarkByteDelta(b *testing.B) {
	const n = 256 << 10
	in := golden.MustPattern(b, "linspace_f64", n)
	sh := make([]byte, n)
	Shuffle(sh, in, 8)
	out := make([]byte, n)
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			copy(out, sh)
		}
	})
	levels, _ := byteDeltaKernelLevels()
	for _, l := range levels {
		restore := forceByteDeltaLevel(l)
		b.Run("encode/"+l.String(), func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				byteDeltaEncode(out, sh, 8, false)
			}
		})
		b.Run("decode/"+l.String(), func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				byteDeltaDecode(out, 8, false)
			}
		})
		restore()
	}
}

// TestIntTruncElements checks intTrunc's words against masking element by
// element, partial element at the end included.
func TestIntTruncElements(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, ts := range []int{1, 2, 4, 8} {
		for _, meta := range []uint8{1, 3, 0xff, 0xf9, uint8(8*ts - 1)} {
			mask, err := intTruncMask(meta, ts)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 70; n++ {
				in := randBytes(r, n)
				want := bytes.Clone(in)
				for e := 0; e+ts <= n; e += ts {
					for k := 0; k < ts; k++ {
						want[e+k] &= byte(mask >> (8 * k))
					}
				}
				got := make([]byte, n)
				intTrunc(got, in, mask, ts)
				if !bytes.Equal(got, want) {
					t.Fatalf("ts=%d meta=%d n=%d: differs at %d", ts, int8(meta), n, golden.FirstDiff(got, want))
				}
			}
		}
	}
}

// TestPluginFiltersZeroAllocs: compressing and decoding through the
// built-in plugin filters with reused contexts allocates nothing.
func TestPluginFiltersZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED: allocation counts are meaningless under -race")
	}
	src := golden.MustPattern(t, "linspace_f64", 300001)
	for _, fs := range pluginPipelines {
		o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Filters: fs, Threads: 1}
		for i, f := range fs {
			if f == IntTrunc {
				o.FilterMeta[i] = 0xf0
			}
		}
		c, err := NewCompressor(o)
		if err != nil {
			t.Fatal(err)
		}
		d := &Decompressor{threads: 1}
		chunk := make([]byte, CompressBound(len(src)))
		out := make([]byte, len(src))
		comp, err := c.Compress(chunk, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Decompress(out, comp); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(5, func() { c.Compress(chunk, src) }); a != 0 {
			t.Errorf("%v: Compress: %v allocs", fs, a)
		}
		if a := testing.AllocsPerRun(5, func() { d.Decompress(out, comp) }); a != 0 {
			t.Errorf("%v: Decompress: %v allocs", fs, a)
		}
	}
}

// FuzzByteDelta: on any block and channel count, the bytedelta encoder
// equals c-blosc2's loops (fixed and legacy) written out in byteDeltaC,
// the build's channel kernels equal the portable ones, and decoding gives
// the block back.
func FuzzByteDelta(f *testing.F) {
	f.Add(golden.MustPattern(f, "linspace_f64", 1000), uint8(8), false)
	f.Add(golden.MustPattern(f, "f32_noise", 333), uint8(3), true)
	f.Add([]byte{1, 2, 3}, uint8(0), false)
	f.Fuzz(func(t *testing.T, in []byte, ts uint8, legacy bool) {
		k := 1 + int(ts)%64
		want := bytes.Clone(in)
		byteDeltaC(want, in, k, legacy)
		got := make([]byte, len(in))
		byteDeltaEncode(got, in, k, legacy)
		if !bytes.Equal(got, want) {
			t.Fatalf("ts=%d legacy=%v: encode differs from C at %d", k, legacy, golden.FirstDiff(got, want))
		}
		gen := make([]byte, len(in))
		byteDeltaEncodeChannelGeneric(gen, in)
		build := make([]byte, len(in))
		byteDeltaEncodeChannel(build, in)
		if !bytes.Equal(gen, build) {
			t.Fatalf("channel encode: build kernel differs at %d", golden.FirstDiff(gen, build))
		}
		byteDeltaDecodeChannelGeneric(gen)
		byteDeltaDecodeChannel(build)
		if !bytes.Equal(gen, in) || !bytes.Equal(build, in) {
			t.Fatalf("channel decode: generic at %d, build at %d", golden.FirstDiff(gen, in), golden.FirstDiff(build, in))
		}
		byteDeltaDecode(got, k, legacy)
		if !bytes.Equal(got, in) {
			t.Fatalf("ts=%d legacy=%v: decode differs at %d", k, legacy, golden.FirstDiff(got, in))
		}
	})
}
