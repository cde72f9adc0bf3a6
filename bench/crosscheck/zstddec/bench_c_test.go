//go:build cblosc && cgo

package zstddec

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/czstd"
)

func init() {
	cFrame = czstd.Compress
	cDecode = func(dst, src []byte) error {
		n, err := czstd.Decompress(dst, src)
		if err == nil && n != len(dst) {
			err = fmt.Errorf("libzstd gave %d bytes, want %d", n, len(dst))
		}
		return err
	}
}

// TestLibzstdFrames decodes frames libzstd writes, at the levels c-blosc
// maps its clevels to, and checks them byte for byte against the input
// and against klauspost's decoding.
func TestLibzstdFrames(t *testing.T) {
	var d Decoder
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
