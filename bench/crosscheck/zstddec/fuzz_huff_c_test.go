//go:build cblosc && cgo

package zstddec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/klauspost/compress/huff0"
)

// huffFrame wraps a Huffman-compressed literals section (a tree
// description and 1 or 4 streams, as huff0 writes it) of n literals into
// a zstd frame: one compressed block holding the literals and no
// sequences, so that a decoder's output is the literals. It returns false
// when the sizes do not fit a literals header.
func huffFrame(sec []byte, n int, four bool) ([]byte, bool) {
	var sf, bits, hl int
	switch {
	case !four && n < 1024 && len(sec) < 1024:
		sf, bits, hl = 0, 10, 3
	case four && n < 1024 && len(sec) < 1024:
		sf, bits, hl = 1, 10, 3
	case four && n < 1<<14 && len(sec) < 1<<14:
		sf, bits, hl = 2, 14, 4
	case four && n < 1<<18 && len(sec) < 1<<18:
		sf, bits, hl = 3, 18, 5
	default:
		return nil, false
	}
	block := hl + len(sec) + 1
	if n > 128<<10 || block > 128<<10 {
		return nil, false
	}
	f := binary.LittleEndian.AppendUint32(nil, 0xFD2FB528)
	switch {
	case n < 256:
		f = append(f, 0x20, byte(n))
	case n < 65536+256:
		f = append(f, 0x60)
		f = binary.LittleEndian.AppendUint16(f, uint16(n-256))
	default:
		f = append(f, 0xA0)
		f = binary.LittleEndian.AppendUint32(f, uint32(n))
	}
	bh := uint32(1 | 2<<1 | block<<3)
	f = append(f, byte(bh), byte(bh>>8), byte(bh>>16))
	h := uint64(2 | sf<<2 | n<<4 | len(sec)<<(4+bits))
	for i := range hl {
		f = append(f, byte(h>>(8*i)))
	}
	f = append(f, sec...)
	return append(f, 0), true // no sequences
}

// FuzzHuffmanVersusC decodes any Huffman literals section (tree
// description and streams) of n literals with zstddec and with libzstd,
// inside a frame of one block: where libzstd decodes, zstddec must give
// the same bytes, or refuse with ErrHuffmanEnd (a named difference: the
// stream ends as the format does not allow, which libzstd lets pass in
// some of its loops); where zstddec decodes, libzstd must agree.
func FuzzHuffmanVersusC(f *testing.F) {
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise", "linspace_f64"} {
		for _, n := range []int{20, 700, 5000, 60000} {
			src, _ := golden.Pattern(name, n)
			if out, _, err := huff0.Compress4X(src, &s); err == nil {
				f.Add(out, uint32(n), true)
			}
			if out, _, err := huff0.Compress1X(src, &s); err == nil {
				f.Add(out, uint32(n), false)
			}
		}
	}
	var d zstddec.Decoder
	f.Fuzz(func(t *testing.T, sec []byte, n uint32, four bool) {
		frame, ok := huffFrame(sec, int(n%(128<<10+1)), four)
		if !ok {
			return
		}
		n %= 128<<10 + 1
		ref := make([]byte, n)
		cn, cerr := czstd.Decompress(ref, frame)
		got := make([]byte, n)
		err := d.Decode(got, frame)
		cok := cerr == nil && cn == int(n)
		switch {
		case err != nil && !errors.Is(err, zstddec.ErrCorrupt):
			t.Fatalf("error wraps no sentinel: %v", err)
		case err == nil && !cok:
			t.Fatalf("zstddec decodes literals libzstd refuses (%d bytes, %v)", cn, cerr)
		case err == nil && !bytes.Equal(got, ref):
			t.Fatalf("zstddec and libzstd differ from byte %d", golden.FirstDiff(got, ref))
		case err != nil && cok && errors.Is(err, zstddec.ErrHuffmanEnd):
			t.Skip("libzstd's lenient Huffman stream end")
		case err != nil && cok:
			t.Fatalf("zstddec refuses literals libzstd decodes: %v", err)
		}
	})
}
