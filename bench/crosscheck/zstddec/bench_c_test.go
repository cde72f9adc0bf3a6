//go:build cblosc && cgo

// Package zstddec_test holds internal/zstddec, the decoder of Blosc's zstd
// streams, to libzstd: the frames libzstd writes decode to the input and
// to klauspost's decoding (TestLibzstdFrames), and the two decoders are
// timed side by side on them (BenchmarkDecodeVersusC).
package zstddec_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/klauspost/compress/zstd"
)

// TestLibzstdFrames decodes frames libzstd writes, at the levels c-blosc
// maps its clevels to, and checks them byte for byte against the input
// and against klauspost's decoding.
func TestLibzstdFrames(t *testing.T) {
	var d zstddec.Decoder
	o := oracle(t)
	for name, src := range inputs(t) {
		for _, level := range []int{1, 3, 5, 9, 13, 22} {
			if level > 9 && len(src) > 1<<17 {
				continue // slow in C and adds no frame shape
			}
			frame, err := czstd.Compress(src, level)
			if err != nil {
				t.Fatal(err)
			}
			check(t, &d, o, fmt.Sprintf("%s/libzstd-%d", name, level), frame, src)
		}
	}
}

// benchSets are cmd/blosc bench's datasets with their typesizes.
var benchSets = []struct {
	name string
	ts   int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}, {"runs", 4}, {"rec12", 4}, {"arange_i16", 2}}

// BenchmarkDecodeVersusC alternates memcpy, klauspost's DecodeAll,
// zstddec's Decode and libzstd's ZSTD_decompress on the same 256 KiB
// frames (shuffled as Blosc does, written by libzstd at the level c-blosc
// maps clevel 1, 5, 9 to) and reports each one's best GB/s and the
// ratios; run with -benchtime=200x or so. internal/zstddec's own
// BenchmarkDecode is the same without the C side.
func BenchmarkDecodeVersusC(b *testing.B) {
	const n = 256 << 10
	o := oracle(b)
	for _, s := range benchSets {
		p, _ := golden.Pattern(s.name, n)
		src := shuffled(p, s.ts)
		for _, clevel := range []int{1, 5, 9} {
			zl := map[int]int{1: 1, 5: 9, 9: 22}[clevel]
			frame, err := czstd.Compress(src, zl)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/ts=%d/clevel=%d", s.name, s.ts, clevel), func(b *testing.B) {
				dst := make([]byte, n)
				var d zstddec.Decoder
				sides := []struct {
					name string
					f    func() error
				}{
					{"memcpy", func() error { copy(dst, src); return nil }},
					{"klauspost", func() error { _, err := o.DecodeAll(frame, dst[:0:n]); return err }},
					{"go", func() error { return d.Decode(dst, frame) }},
					{"c", func() error {
						m, err := czstd.Decompress(dst, frame)
						if err == nil && m != n {
							err = fmt.Errorf("libzstd gave %d bytes, want %d", m, n)
						}
						return err
					}},
				}
				best := make([]time.Duration, len(sides))
				for i := range best {
					best[i] = 1 << 62
				}
				for b.Loop() {
					for i, sd := range sides {
						t0 := time.Now()
						if err := sd.f(); err != nil {
							b.Fatal(sd.name, err)
						}
						best[i] = min(best[i], time.Since(t0))
					}
				}
				gb := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
				for i, sd := range sides {
					b.ReportMetric(gb(best[i]), sd.name+"-GB/s")
				}
				b.ReportMetric(float64(best[1])/float64(best[2]), "go/klauspost")
				b.ReportMetric(float64(best[3])/float64(best[2]), "go/c")
				b.ReportMetric(float64(n)/float64(len(frame)), "ratio")
			})
		}
	}
}

// shuffled is src with its bytes grouped by position in a typesize-byte
// element, as Blosc's shuffle stores numeric data.
func shuffled(src []byte, ts int) []byte {
	out := make([]byte, len(src))
	n := len(src) / ts
	for i := 0; i < n; i++ {
		for j := 0; j < ts; j++ {
			out[j*n+i] = src[i*ts+j]
		}
	}
	copy(out[n*ts:], src[n*ts:])
	return out
}

// inputs are the benchmark patterns, plain and shuffled, at sizes around
// the 128 KiB block limit (internal/zstddec's test inputs).
func inputs(t testing.TB) map[string][]byte {
	m := map[string][]byte{}
	for _, name := range []string{"zeros", "arange_i16", "arange_i64", "linspace_f64", "f32_noise", "rand_s1", "text", "runs", "rec12"} {
		for _, n := range []int{0, 1, 7, 100, 4096, 128<<10 + 1, 200000} {
			p, err := golden.Pattern(name, n)
			if err != nil {
				t.Fatal(err)
			}
			m[fmt.Sprintf("%s/n=%d", name, n)] = p
			m[fmt.Sprintf("%s/n=%d/shuffle8", name, n)] = shuffled(p, 8)
		}
	}
	return m
}

func oracle(t testing.TB) *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// check decodes frame with our decoder and the oracle and requires the
// same bytes, the original ones.
func check(t *testing.T, d *zstddec.Decoder, o *zstd.Decoder, label string, frame, want []byte) {
	t.Helper()
	ref, err := o.DecodeAll(frame, make([]byte, 0, len(want)))
	if err != nil || !bytes.Equal(ref, want) {
		t.Fatalf("%s: the oracle fails: %v", label, err)
	}
	got := make([]byte, len(want))
	if err := d.Decode(got, frame); err != nil {
		// A frame without its content size is not one Blosc writes.
		if noContentSize := frame[4]&0xE0 == 0; noContentSize && errors.Is(err, zstddec.ErrUnsupported) {
			return
		}
		t.Fatalf("%s: %v", label, err)
	}
	if !bytes.Equal(got, want) {
		i := golden.FirstDiff(got, want)
		t.Fatalf("%s: first difference at byte %d of %d: %x, want %x", label, i, len(want),
			got[i:min(i+16, len(got))], want[i:min(i+16, len(want))])
	}
}
