//go:build cblosc && cgo

package cblosc

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	t.Logf("c-blosc %s", Version())
	src := make([]byte, 100000)
	for i := range src {
		src[i] = byte(i / 7)
	}
	for _, c := range Codecs {
		if !HasCodec(c) {
			t.Logf("c-blosc lacks %s", c)
			continue
		}
		dst := make([]byte, len(src)+16)
		n, err := Compress(dst, src, c, 5, 1, 4, 0, 1)
		if err != nil {
			t.Fatal(c, err)
		}
		out := make([]byte, len(src))
		if _, err := Decompress(out, dst[:n], 1); err != nil || !bytes.Equal(out, src) {
			t.Fatalf("%s: round trip failed: %v", c, err)
		}
	}
}
