package blosc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// The real-world-like benchmark datasets round-trip through every codec
// in both formats, at their record size as typesize (13 for the mixed
// records, which no power-of-two kernel covers whole).
func TestRealWorldRoundTrip(t *testing.T) {
	for _, name := range golden.RealWorld {
		src := golden.MustPattern(t, name, 300_007)
		ts := golden.RealWorldTypesize[name]
		for _, f := range []Format{FormatBlosc1, FormatBlosc2} {
			for _, c := range []Codec{BloscLZ, LZ4, LZ4HC, Zstd, Zlib} {
				for _, fl := range []Filter{ByteShuffle, BitShuffle} {
					t.Run(fmt.Sprintf("%s/%v/%v/%v", name, f, c, fl), func(t *testing.T) {
						o := withFilter(Options{Format: f, Codec: c, Level: 5, Typesize: ts, Blocksize: 64 << 10}, fl)
						chunk, err := Compress(nil, src, o)
						if err != nil {
							t.Fatal(err)
						}
						out, err := Decompress(nil, chunk)
						if err != nil || !bytes.Equal(out, src) {
							t.Fatalf("round trip: %v", err)
						}
					})
				}
			}
		}
	}
}
