//go:build cblosc && cgo

package zstddec_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
)

// FuzzDecodeVersusC compares zstddec with libzstd's ZSTD_decompress on
// any bytes, decoded into n bytes: where libzstd makes exactly n bytes,
// Decode must make the same or say ErrUnsupported (a checksum, a
// dictionary ID, skippable or several frames, which it leaves to
// klauspost); where Decode succeeds, libzstd must make the same bytes.
func FuzzDecodeVersusC(f *testing.F) {
	for _, name := range []string{"text", "arange_i16", "linspace_f64", "f32_noise", "runs"} {
		src, _ := golden.Pattern(name, 5000)
		src = golden.Shuffled(src, 4)
		for _, level := range []int{1, 9, 19} {
			frame, err := czstd.Compress(src, level)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(frame, uint32(len(src)))
		}
	}
	var d zstddec.Decoder
	f.Fuzz(func(t *testing.T, frame []byte, n uint32) {
		n %= 1 << 20
		ref := make([]byte, n)
		cn, cerr := czstd.Decompress(ref, frame)
		got := make([]byte, n)
		err := d.Decode(got, frame)
		switch {
		case err != nil && !errors.Is(err, zstddec.ErrUnsupported) && !errors.Is(err, zstddec.ErrCorrupt):
			t.Fatalf("error wraps no sentinel: %v", err)
		case err == nil && (cerr != nil || cn != int(n)):
			t.Fatalf("Decode accepts a frame libzstd decodes to %d of %d bytes (%v)", cn, n, cerr)
		case err == nil && !bytes.Equal(got, ref):
			t.Fatalf("Decode and libzstd disagree from byte %d", golden.FirstDiff(got, ref))
		case err != nil && cerr == nil && cn == int(n) && len(frame) > 0 && !errors.Is(err, zstddec.ErrUnsupported):
			if errors.Is(err, zstddec.ErrHuffmanEnd) || errors.Is(err, zstddec.ErrSequencesEnd) ||
				errors.Is(err, zstddec.ErrReservedModes) {
				// Named differences: libzstd 1.5.4 accepts some Huffman
				// streams its symbols do not consume exactly, sequence
				// streams read to a little short of their start or past
				// it, and reserved mode bits set (see the three
				// errors); the format does not.
				t.Skip("libzstd's lenient stream ends")
			}
			t.Fatalf("Decode rejects a frame libzstd decodes: %v", err)
		}
	})
}
