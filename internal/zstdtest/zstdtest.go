// Package zstdtest holds what internal/zstddec's tests and bench's
// cross-checks against libzstd share: the inputs, the klauspost oracle and
// the check of one frame. It cannot import zstddec (zstddec's own tests are
// in package zstddec), so the decoder comes in as a function.
package zstdtest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/klauspost/compress/zstd"
)

// Inputs are the benchmark patterns, plain and shuffled, at sizes around
// the 128 KiB block limit.
func Inputs(t testing.TB) map[string][]byte {
	m := map[string][]byte{}
	for _, name := range []string{"zeros", "arange_i16", "arange_i64", "linspace_f64", "f32_noise", "rand_s1", "text", "runs", "rec12"} {
		for _, n := range []int{0, 1, 7, 100, 4096, 128<<10 + 1, 200000} {
			p, err := golden.Pattern(name, n)
			if err != nil {
				t.Fatal(err)
			}
			m[fmt.Sprintf("%s/n=%d", name, n)] = p
			m[fmt.Sprintf("%s/n=%d/shuffle8", name, n)] = golden.Shuffled(p, 8)
		}
	}
	return m
}

// BenchSets are cmd/blosc bench's datasets with their typesizes.
var BenchSets = []struct {
	Name string
	TS   int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}, {"runs", 4}, {"rec12", 4}, {"arange_i16", 2}}

// Oracle is klauspost's decoder, single-threaded and capped at the
// destination's capacity.
func Oracle(t testing.TB) *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Check decodes frame with decode (zstddec's Decoder.Decode) and the
// oracle and requires the same bytes, the original ones. unsupported is
// zstddec.ErrUnsupported.
func Check(t *testing.T, decode func(dst, frame []byte) error, unsupported error, o *zstd.Decoder, label string, frame, want []byte) {
	t.Helper()
	ref, err := o.DecodeAll(frame, make([]byte, 0, len(want)))
	if err != nil || !bytes.Equal(ref, want) {
		t.Fatalf("%s: the oracle fails: %v", label, err)
	}
	got := make([]byte, len(want))
	if err := decode(got, frame); err != nil {
		// A frame without its content size is not one Blosc writes
		// (klauspost omits it for small inputs in frames that are not
		// single-segment).
		if noContentSize := frame[4]&0xE0 == 0; noContentSize && errors.Is(err, unsupported) {
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

// Side is one decoder of a benchmark that alternates several on the same
// frame (an alias of an unnamed struct, so that callers list sides
// without field names).
type Side = struct {
	Name string
	F    func() error
}

// Alternate runs every side once per iteration, in order, keeps each one's
// best time, reports each one's best GB/s for n decoded bytes and returns
// the best times; run with -benchtime=200x or so.
func Alternate(b *testing.B, n int, sides []Side) []time.Duration {
	best := make([]time.Duration, len(sides))
	for i := range best {
		best[i] = 1 << 62
	}
	for b.Loop() {
		for i, sd := range sides {
			t0 := time.Now()
			if err := sd.F(); err != nil {
				b.Fatal(sd.Name, err)
			}
			best[i] = min(best[i], time.Since(t0))
		}
	}
	gb := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e9 }
	for i, sd := range sides {
		b.ReportMetric(gb(best[i]), sd.Name+"-GB/s")
	}
	return best
}

// NoisyFloats is n bytes of an hourly temperature-like float32 series (a
// daily cycle plus noise down to the last mantissa bit): the noisy
// floats that Blosc with byte shuffle compresses to 1.3-1.8, whose
// literals are mostly Huffman-coded.
func NoisyFloats(n int) []byte {
	r := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, n)
	for i := 0; i+4 <= n; i += 4 {
		h := float64(i / 4)
		v := 12 + 8*math.Sin(2*math.Pi*h/24) + 3*r.NormFloat64()
		binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(v)))
	}
	return b
}
