package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// addFilter adds meta to every byte, a lossless filter whose output
// differs from its input; negFilter fails as told.
type addFilter struct{}

func (addFilter) Forward(dst, src []byte, p FilterParams) error {
	for i, b := range src {
		dst[i] = b + p.Meta + byte(p.Typesize)
	}
	return nil
}

func (addFilter) Backward(dst, src []byte, p FilterParams) error {
	for i, b := range src {
		dst[i] = b - p.Meta - byte(p.Typesize)
	}
	return nil
}

type failFilter struct{ forward, backward error }

func (f failFilter) Forward(dst, src []byte, p FilterParams) error {
	copy(dst, src)
	return f.forward
}

func (f failFilter) Backward(dst, src []byte, p FilterParams) error {
	copy(dst, src)
	return f.backward
}

// rleCodec stores a stream as (count, byte) pairs of runs up to 255, and
// checks that the meta it is given is the one compressed with.
type rleCodec struct{ short bool }

func (rleCodec) Compress(dst, src []byte, p CodecParams) (int, error) {
	if p.Level < 1 || p.Meta != 7 {
		return 0, fmt.Errorf("level %d meta %d", p.Level, p.Meta)
	}
	n := 0
	for i := 0; i < len(src); {
		j := i + 1
		for j < len(src) && j-i < 255 && src[j] == src[i] {
			j++
		}
		if n+2 > len(dst) {
			return 0, nil
		}
		dst[n], dst[n+1] = byte(j-i), src[i]
		n += 2
		i = j
	}
	return n, nil
}

func (c rleCodec) Decompress(dst, src []byte, p CodecParams) (int, error) {
	if p.Meta != 7 {
		return 0, fmt.Errorf("meta %d", p.Meta)
	}
	n := 0
	for i := 0; i+1 < len(src); i += 2 {
		k := int(src[i])
		if n+k > len(dst) {
			return 0, errors.New("overrun")
		}
		fill(dst[n:n+k], src[i+1])
		n += k
	}
	if c.short {
		n--
	}
	return n, nil
}

func TestRegisterErrors(t *testing.T) {
	for _, id := range []Filter{0, 4, 5, 31, ByteDeltaLegacy, ByteDelta, IntTrunc} {
		if err := RegisterFilter(id, "x", addFilter{}); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("filter %d: %v", id, err)
		}
	}
	for _, id := range []Codec{0, 5, 6, 31} {
		if err := RegisterCodec(id, "x", 1, rleCodec{}); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("codec %d: %v", id, err)
		}
	}
	if err := RegisterFilter(250, "", addFilter{}); !errors.Is(err, ErrInvalidOptions) {
		t.Error(err)
	}
	if err := RegisterFilter(250, "add", nil); !errors.Is(err, ErrInvalidOptions) {
		t.Error(err)
	}
	if err := RegisterCodec(250, "lz4", 1, rleCodec{}); !errors.Is(err, ErrInvalidOptions) {
		t.Error(err)
	}
	// The same name again replaces; another name fails.
	for i := 0; i < 2; i++ {
		if err := RegisterFilter(250, "add", addFilter{}); err != nil {
			t.Fatal(err)
		}
		if err := RegisterCodec(250, "rle250", 1, rleCodec{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := RegisterFilter(250, "other", addFilter{}); !errors.Is(err, ErrInvalidOptions) {
		t.Error(err)
	}
	if err := RegisterCodec(250, "other", 1, rleCodec{}); !errors.Is(err, ErrInvalidOptions) {
		t.Error(err)
	}
	if err := RegisterCodec(251, "RLE250", 1, rleCodec{}); !errors.Is(err, ErrInvalidOptions) {
		t.Error("a second codec under a registered name:", err)
	}
	if Filter(250).String() != "add" || Codec(250).String() != "rle250" || Codec(33).String() != "zfp_acc" || Filter(32).String() != "ndcell" {
		t.Error(Filter(250), Codec(250), Codec(33), Filter(32))
	}
	if c, err := ParseCodec("RLE250"); err != nil || c != 250 {
		t.Error(c, err)
	}
	for name, want := range map[string]Filter{"add": 250, "BYTEDELTA": ByteDelta, "bytedelta_buggy": ByteDeltaLegacy, "int_trunc": IntTrunc, "trunc_prec": TruncPrec} {
		if f, err := ParseFilter(name); err != nil || f != want {
			t.Errorf("ParseFilter(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := ParseFilter("ndcell"); !errors.Is(err, ErrInvalidOptions) {
		t.Error("ParseFilter of an unregistered plugin:", err)
	}
}

// TestPluginChunks writes and reads chunks with a registered codec and
// filter through chunks, every decoder and a frame, and checks the header
// records them as c-blosc2 does.
func TestPluginChunks(t *testing.T) {
	const codecID, filterID = Codec(170), Filter(170)
	if err := RegisterCodec(codecID, "rle170", 9, rleCodec{}); err != nil {
		t.Fatal(err)
	}
	if err := RegisterFilter(filterID, "add170", addFilter{}); err != nil {
		t.Fatal(err)
	}
	w := newDecodeWays()
	src := golden.MustPattern(t, "arange_i64", 300000)
	for _, fs := range [][MaxFilters]Filter{
		{5: filterID}, {4: filterID, 5: ByteShuffle}, {0: filterID, 1: Delta, 2: ByteShuffle}, {0: Delta, 4: ByteShuffle, 5: filterID}, {},
	} {
		for _, split := range []SplitMode{SplitAlways, SplitNever} {
			o := Options{Format: FormatBlosc2, Codec: codecID, CodecMeta: 7, Level: 5, Typesize: 8, Filters: fs, SplitMode: split, Threads: 2}
			o.FilterMeta[5] = 3
			name := fmt.Sprintf("%v/split=%v", fs, split)
			c, err := Compress(nil, src, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			h, err := ReadHeader(c)
			if err != nil {
				t.Fatal(err)
			}
			if h.Memcpyed || h.Codec != codecID || h.CodecCode != formatUser || h.CodecMeta != 7 || h.VersionLZ != 9 || h.Filters != fs {
				t.Fatalf("%s: header %+v", name, h)
			}
			got, err := w.check(t, c, 1000, 5000)
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	// A frame records the plugin codec as c-blosc2 does, and reopened it
	// goes on compressing with it.
	s, err := NewSChunk(SChunkOptions{Options: Options{Codec: codecID, CodecMeta: 7, Level: 5, Typesize: 8,
		Filters: [MaxFilters]Filter{4: filterID, 5: ByteShuffle}}, ChunkSize: 80000})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendData(src[:160000]); err != nil {
		t.Fatal(err)
	}
	frame, err := s.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	if frame[frameCodecsPos]&0x0f != formatUser || frame[frameUDCodecPos] != byte(codecID) || frame[frameCodecMetaPos] != 7 {
		t.Fatalf("frame header codec bytes %#x %d %d", frame[frameCodecsPos], frame[frameUDCodecPos], frame[frameCodecMetaPos])
	}
	s2, err := ParseFrame(frame)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.AppendData(src[160000:240000]); err != nil {
		t.Fatal(err)
	}
	got, err := s2.Decompress(nil)
	if err != nil || !bytes.Equal(got, src[:240000]) {
		t.Fatalf("frame: %v", err)
	}
}

// TestPluginErrors: what a plugin reports comes back wrapped, a decoder
// that fills less than its stream is corrupt input, and a chunk of an
// unregistered codec or filter is unsupported.
func TestPluginErrors(t *testing.T) {
	const okCodec, shortCodec = Codec(171), Codec(172)
	const failBack, failFwd, failUns = Filter(171), Filter(172), Filter(173)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(RegisterCodec(okCodec, "rle171", 1, rleCodec{}))
	must(RegisterCodec(shortCodec, "rle172", 1, rleCodec{short: true}))
	must(RegisterFilter(failBack, "failback", failFilter{backward: errors.New("no")}))
	must(RegisterFilter(failFwd, "failfwd", failFilter{forward: errors.New("no")}))
	must(RegisterFilter(failUns, "failuns", failFilter{backward: fmt.Errorf("%w: version 2", ErrUnsupported)}))
	src := golden.MustPattern(t, "arange_i64", 100000)
	o := Options{Format: FormatBlosc2, Codec: okCodec, CodecMeta: 7, Level: 5, Typesize: 8}
	compress := func(o Options) []byte {
		c, err := Compress(nil, src, o)
		must(err)
		return c
	}
	// A codec that fills less than the stream.
	o2 := o
	o2.Codec = shortCodec
	if _, err := Decompress(nil, compress(o2)); !errors.Is(err, ErrCorrupt) {
		t.Error("short decode:", err)
	}
	// Compression errors from the codec and the filter.
	o2 = o
	o2.CodecMeta = 1
	if _, err := Compress(nil, src, o2); err == nil || !strings.Contains(err.Error(), "meta 1") {
		t.Error("codec error:", err)
	}
	o2 = o
	o2.Filters[0] = failFwd
	if _, err := Compress(nil, src, o2); err == nil || !strings.Contains(err.Error(), "failfwd") {
		t.Error("filter error:", err)
	}
	// A backward error is corrupt input unless it says otherwise.
	o2 = o
	o2.Filters[0] = failBack
	if _, err := Decompress(nil, compress(o2)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "failback") {
		t.Error("backward error:", err)
	}
	o2.Filters[0] = failUns
	if _, err := Decompress(nil, compress(o2)); !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) {
		t.Error("backward unsupported:", err)
	}
	// Unregistered ids, for writing.
	o2 = o
	o2.Codec = 180
	if _, err := Compress(nil, src, o2); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "codec 180") {
		t.Error(err)
	}
	o2 = o
	o2.Filters[2] = 180
	if _, err := Compress(nil, src, o2); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "filter 180 in slot 2") {
		t.Error(err)
	}
}

// TestRegisterConcurrent registers plugins (220..239, ids no other test
// or example takes) while other goroutines compress and decompress with
// the built-in filters and a plugin (run with -race).
func TestRegisterConcurrent(t *testing.T) {
	if err := RegisterFilter(190, "add190", addFilter{}); err != nil {
		t.Fatal(err)
	}
	src := golden.MustPattern(t, "linspace_f64", 50000)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{4: ByteShuffle, 5: ByteDelta}}
			if g%2 == 1 {
				o.Filters[0] = 190
			}
			for i := 0; i < 20; i++ {
				c, err := Compress(nil, src, o)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := Decompress(nil, c)
				if err != nil || !bytes.Equal(got, src) {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	for i := 0; i < 20; i++ {
		if err := RegisterFilter(Filter(220+i), fmt.Sprintf("add%d", 220+i), addFilter{}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}

// TestPluginZeroAllocs: a registered codec and filter cost no allocation
// of their own through reused contexts.
func TestPluginZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED: allocation counts are meaningless under -race")
	}
	if err := RegisterCodec(170, "rle170", 9, rleCodec{}); err != nil {
		t.Fatal(err)
	}
	if err := RegisterFilter(170, "add170", addFilter{}); err != nil {
		t.Fatal(err)
	}
	src := golden.MustPattern(t, "arange_i64", 300000)
	o := Options{Format: FormatBlosc2, Codec: 170, CodecMeta: 7, Level: 5, Typesize: 8, Threads: 1,
		Filters: [MaxFilters]Filter{4: 170, 5: ByteShuffle}}
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
	if got, err := d.Decompress(out, comp); err != nil || !bytes.Equal(got, src) {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, func() { c.Compress(chunk, src) }); a != 0 {
		t.Errorf("Compress: %v allocs", a)
	}
	if a := testing.AllocsPerRun(5, func() { d.Decompress(out, comp) }); a != 0 {
		t.Errorf("Decompress: %v allocs", a)
	}
}
