package zstdenc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/klauspost/compress/zstd"
)

// testLevels covers each strategy written and the level rows around it.
var testLevels = []int{1, 2, 3, 4, 5, 9, 19, 22}

// testInputs are Blosc-like blocks: shuffled patterns of the sizes
// c-blosc2 hands the codec, and edge cases.
func testInputs(tb testing.TB) map[string][]byte {
	in := map[string][]byte{
		"empty":  {},
		"one":    {7},
		"short":  []byte("abcabcabcabcabcab"),
		"zeros":  make([]byte, 300<<10),
		"rle257": bytes.Repeat([]byte{9}, 257),
	}
	for _, name := range []string{"text", "arange_i16", "arange_i64", "linspace_f64", "f32_noise", "rand_s1", "runs", "rec12"} {
		for _, n := range []int{100, 5000, 64 << 10, 200 << 10, 300 << 10} {
			src := golden.MustPattern(tb, name, n)
			in[fmt.Sprintf("%s/%d", name, n)] = src
			in[fmt.Sprintf("%s/%d/shuf8", name, n)] = golden.Shuffled(src, 8)
		}
	}
	return in
}

func checkFrame(t *testing.T, frame, src, dict []byte, kd *zstd.Decoder) {
	t.Helper()
	if dict == nil {
		var d zstddec.Decoder
		got := make([]byte, len(src))
		if err := d.Decode(got, frame); err != nil {
			t.Fatalf("zstddec: %v", err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("zstddec: differs at %d", golden.FirstDiff(got, src))
		}
	}
	got, err := kd.DecodeAll(frame, nil)
	if err != nil {
		t.Fatalf("klauspost: %v", err)
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("klauspost: differs at %d of %d", golden.FirstDiff(got, src), len(src))
	}
}

func TestRoundTrip(t *testing.T) {
	kd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer kd.Close()
	var e Encoder
	for name, src := range testInputs(t) {
		for _, lvl := range testLevels {
			frame := e.Encode(nil, src, lvl)
			t.Run(fmt.Sprintf("%s/l%d", name, lvl), func(t *testing.T) {
				checkFrame(t, frame, src, nil, kd)
			})
		}
	}
}
