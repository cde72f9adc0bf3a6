package inflate

import (
	"bytes"
	stdzlib "compress/zlib"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/deflate"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/testrand"
	kzlib "github.com/klauspost/compress/zlib"
)

// inputs are varied data: the bench datasets raw and byte-shuffled, random
// bytes (stored blocks), runs of one byte (distance 1), and a block that
// repeats at exactly 32768 bytes (the window edge).
func inputs(tb testing.TB) map[string][]byte {
	m := map[string][]byte{}
	size := 200_000
	if testing.Short() {
		size = 12_000
	}
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs", "sensor_f32", "sparse_f64", "timestamps_i64", "mixed_rec13"} {
		p := golden.MustPattern(tb, name, size)
		m[name] = p
		m[name+"/shuffled"] = golden.Shuffled(p, 8)
	}
	r := rand.New(rand.NewPCG(1, 2))
	m["random"] = testrand.Bytes(r, 100_000)
	m["zeros"] = make([]byte, 300_000)
	m["empty"] = nil
	m["one"] = []byte{7}
	edge := testrand.Bytes(r, 32768)
	m["edge"] = append(append(append([]byte{}, edge...), edge...), edge[:1000]...)
	small := testrand.Bytes(r, 40)
	var mix []byte
	for i := range 3000 {
		if i%3 == 0 {
			mix = append(mix, testrand.Bytes(r, 1+i%17)...)
		} else {
			mix = append(mix, small[:1+i%40]...)
		}
	}
	m["mix"] = mix
	// Runs at every short period, cut by random bytes, so matches at
	// distances 1-17 of many lengths end near each other and near the
	// end of the output.
	for period := 1; period <= 17; period++ {
		var b []byte
		for i := range 40 {
			unit := testrand.Bytes(r, period)
			for range 1 + i*7%60 {
				b = append(b, unit...)
			}
			b = append(b, testrand.Bytes(r, i%5)...)
		}
		m[fmt.Sprintf("period/%d", period)] = b
	}
	return m
}

// streams writes src as zlib at every level with our encoder (zlib's
// bytes), the standard library and klauspost's.
func streams(tb testing.TB, src []byte) map[string][]byte {
	m := map[string][]byte{}
	var enc deflate.Encoder
	for level := 1; level <= 9; level++ {
		m[fmt.Sprintf("deflate/%d", level)] = enc.AppendCompress(nil, src, level)
	}
	for level := 0; level <= 9; level++ {
		var buf bytes.Buffer
		w, err := stdzlib.NewWriterLevel(&buf, level)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(src)
		w.Close()
		m[fmt.Sprintf("std/%d", level)] = buf.Bytes()
	}
	for _, level := range []int{-2, 0, 1, 3, 5, 9} {
		var buf bytes.Buffer
		w, err := kzlib.NewWriterLevel(&buf, level)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(src)
		w.Close()
		m[fmt.Sprintf("klauspost/%d", level)] = buf.Bytes()
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	var d Decoder
	for name, src := range inputs(t) {
		for sname, s := range streams(t, src) {
			dst := make([]byte, len(src))
			if err := d.Decode(dst, s); err != nil {
				t.Fatalf("%s %s: %v", name, sname, err)
			}
			if !bytes.Equal(dst, src) {
				t.Fatalf("%s %s: differs from byte %d", name, sname, golden.FirstDiff(dst, src))
			}
			// Bytes after the checksum are ignored, as zlib does.
			if err := d.Decode(dst, append(s[:len(s):len(s)], 1, 2, 3)); err != nil {
				t.Fatalf("%s %s with trailing bytes: %v", name, sname, err)
			}
			// One byte too few or too many of room is an error.
			if len(src) > 0 {
				if err := d.Decode(dst[:len(src)-1], s); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s %s into a short buffer: %v", name, sname, err)
				}
			}
			if err := d.Decode(make([]byte, len(src)+1), s); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s %s into a long buffer: %v", name, sname, err)
			}
		}
	}
}

// reference is compress/zlib's verdict on stream decoded to n bytes: the
// bytes, or ok false.
func reference(stream []byte, n int) ([]byte, bool) {
	r, err := stdzlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(n)+1))
	if err != nil || len(out) != n {
		return nil, false
	}
	// The reader checks the checksum when it reaches the end; LimitReader
	// may stop before: read on to EOF.
	if _, err := r.Read(make([]byte, 1)); err != io.EOF {
		return nil, false
	}
	return out, true
}

// check compares Decode with compress/zlib on stream decoded to n bytes.
// They must agree, except that flate accepts a code-length code of a
// single one-bit codeword, which zlib (and so Decode) refuses.
func check(t *testing.T, d *Decoder, stream []byte, n int) {
	t.Helper()
	got := make([]byte, n)
	err := d.Decode(got, stream)
	want, ok := reference(stream, n)
	switch {
	case err != nil && !errors.Is(err, ErrCorrupt):
		t.Fatalf("error wraps no sentinel: %v", err)
	case err == nil && !ok:
		t.Fatalf("Decode accepts a stream compress/zlib refuses (n=%d)", n)
	case err == nil && !bytes.Equal(got, want):
		t.Fatalf("Decode and compress/zlib differ from byte %d", golden.FirstDiff(got, want))
	case err != nil && ok && !errors.Is(err, errCodeLengths):
		t.Fatalf("Decode refuses a stream compress/zlib accepts: %v", err)
	}
}

func TestTruncated(t *testing.T) {
	var d Decoder
	src := golden.MustPattern(t, "text", 5000)
	for sname, s := range streams(t, src) {
		for i := range len(s) {
			if err := d.Decode(make([]byte, len(src)), s[:i]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s cut at %d of %d: %v", sname, i, len(s), err)
			}
		}
	}
}

func TestBitFlips(t *testing.T) {
	var d Decoder
	in := inputs(t)
	step := 7
	if testing.Short() {
		step = 97
	}
	for _, name := range []string{"text", "mix", "runs/shuffled", "random"} {
		src := in[name][:3000]
		for sname, s := range streams(t, src) {
			for i := range len(s) * 8 {
				if i%step != 0 && len(s) > 400 {
					continue
				}
				m := append([]byte{}, s...)
				m[i/8] ^= 1 << (i % 8)
				check(t, &d, m, len(src))
			}
			_ = sname
		}
	}
}

// Hand-made streams for the cases encoders do not write.
func TestHostile(t *testing.T) {
	var d Decoder
	zhead := []byte{0x78, 0x9c}
	cases := map[string][]byte{
		"empty":          nil,
		"one byte":       {0x78},
		"method 7":       {0x77, 0x85},
		"window 64K":     {0x88, 0x98},
		"bad check":      {0x78, 0x9d},
		"dictionary":     {0x78, 0xbb, 0, 0, 0, 1},
		"reserved block": append(zhead, 0x07),
		"stored len":     append(zhead, 0x01, 0x01, 0x00, 0x00, 0x00),
		// A fixed block whose first code is distance 1 with no output.
		"far":  append(zhead, 0x03, 0x02, 0x00),
		"only": append(zhead, 0x03, 0x00, 0, 0, 0, 1),
	}
	for name, s := range cases {
		if err := d.Decode(make([]byte, 10), s); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", name, err)
		}
		check(t, &d, s, 10)
		check(t, &d, s, 0)
	}
}

func TestZeroAlloc(t *testing.T) {
	var d Decoder
	src := golden.MustPattern(t, "sensor_f32", 100_000)
	s := new(deflate.Encoder).AppendCompress(nil, src, 5)
	dst := make([]byte, len(src))
	if n := testing.AllocsPerRun(10, func() {
		if err := d.Decode(dst, s); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per Decode", n)
	}
}

// FuzzInflate holds Decode to compress/zlib on any bytes decoded into n
// bytes (check says where they may differ).
func FuzzInflate(f *testing.F) {
	var enc deflate.Encoder
	for _, name := range []string{"text", "runs", "f32_noise"} {
		src := golden.MustPattern(f, name, 2000)
		for _, level := range []int{1, 6, 9} {
			f.Add(enc.AppendCompress(nil, src, level), uint16(len(src)))
		}
		var buf bytes.Buffer
		w, _ := stdzlib.NewWriterLevel(&buf, 0)
		w.Write(src[:300])
		w.Close()
		f.Add(buf.Bytes(), uint16(300))
	}
	var d Decoder
	f.Fuzz(func(t *testing.T, stream []byte, n uint16) {
		check(t, &d, stream, int(n))
	})
}

func BenchmarkDecode(b *testing.B) {
	var enc deflate.Encoder
	for _, name := range []string{"sensor_f32", "f32_noise", "linspace_f64", "text"} {
		src := golden.Shuffled(golden.MustPattern(b, name, 256<<10), 4)
		for _, level := range []int{1, 9} {
			s := enc.AppendCompress(nil, src, level)
			dst := make([]byte, len(src))
			b.Run(fmt.Sprintf("%s/level=%d/ours", name, level), func(b *testing.B) {
				var d Decoder
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if err := d.Decode(dst, s); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/level=%d/klauspost", name, level), func(b *testing.B) {
				var in bytes.Reader
				in.Reset(s)
				r, _ := kzlib.NewReader(&in)
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					in.Reset(s)
					r.(kzlib.Resetter).Reset(&in, nil)
					if _, err := io.ReadFull(r, dst); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// bitWriter writes deflate's fields, least significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

// code writes a Huffman codeword, sent most significant bit first.
func (w *bitWriter) code(c uint32, n uint) { w.bits(uint64(reverse(c, n)), n) }

func (w *bitWriter) align() {
	if w.nacc > 0 {
		w.bits(0, 8-w.nacc)
	}
}

// A match at distance 32768, the largest deflate can say, after a stored
// block of exactly that many bytes: zlib's own deflate never reaches it
// (it keeps 262 bytes of lookahead), other encoders may. One byte less of
// history makes it a distance before the output start.
func TestWindowEdgeDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, history := range []int{32768, 32767, 40000} {
		data := testrand.Bytes(r, history)
		w := bitWriter{out: []byte{0x78, 0x01}}
		w.bits(0, 3) // stored, not final
		w.align()
		w.bits(uint64(history), 16)
		w.bits(uint64(^uint16(history)), 16)
		w.out = append(w.out, data...)
		w.bits(1|1<<1, 3)       // fixed, final
		w.code(0xc0+285-280, 8) // length 258
		w.code(29, 5)           // distance base 24577
		w.bits(32768-24577, 13) // + 8191
		w.code(0, 7)            // end of block
		w.align()
		want := append(append([]byte{}, data...), make([]byte, 258)...)
		if history >= 32768 {
			copy(want[history:], data[history-32768:])
		}
		sum := adler32.Checksum(want)
		w.out = append(w.out, byte(sum>>24), byte(sum>>16), byte(sum>>8), byte(sum))
		var d Decoder
		got := make([]byte, len(want))
		err := d.Decode(got, w.out)
		if history < 32768 {
			if !errors.Is(err, errFar) {
				t.Fatalf("history %d: %v, want a distance before the output start", history, err)
			}
		} else if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("history %d: %v", history, err)
		}
		check(t, &d, w.out, len(want))
	}
}
