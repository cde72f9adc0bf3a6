package blosclz

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// encodeAll runs every entry point of one reused Encoder and of the
// package's functions over src and reports the first difference.
func encodeAll(e *Encoder, src []byte, level int) error {
	n := max(len(src), minOutput)
	a, b := make([]byte, n), make([]byte, n)
	for _, v := range []struct {
		name string
		enc  func(dst []byte) int
		fun  func(dst []byte) int
	}{
		{"Compress", func(d []byte) int { return e.Compress(d, src, level) }, func(d []byte) int { return Compress(d, src, level) }},
		{"CompressBlock/unsplit", func(d []byte) int { return e.CompressBlock(d, src, level, false) }, func(d []byte) int { return CompressBlock(d, src, level, false) }},
		{"CompressBlosc2", func(d []byte) int { return e.CompressBlosc2(d, src, level) }, func(d []byte) int { return CompressBlosc2(d, src, level) }},
	} {
		for _, room := range []int{n, n / 2} {
			x, y := v.enc(a[:room]), v.fun(b[:room])
			if x != y || !bytes.Equal(a[:x], b[:y]) {
				return fmt.Errorf("%s, level %d, %d bytes into %d: the Encoder wrote %d bytes, the function %d", v.name, level, len(src), room, x, y)
			}
		}
	}
	return nil
}

// TestEncoderReuse: an Encoder reused over inputs of every size around the
// point where it stops clearing entry by entry, at every level, writes the
// functions' bytes: no entry of an earlier call leaks into a later one.
func TestEncoderReuse(t *testing.T) {
	var e Encoder
	for _, name := range []string{"linspace_f64", "text", "rand_s1", "runs", "arange_i16"} {
		data := golden.MustPattern(t, name, 1<<17)
		for _, n := range []int{16, 100, 511, 512, 2047, 2048, 2049, 4096, 65536, 1 << 17} {
			for level := 1; level <= MaxLevel; level++ {
				// Different bytes each time: a leaked entry would point
				// at a match the fresh table does not have.
				off := (n*level*7 + len(name)) % (len(data) - n + 1)
				if err := encodeAll(&e, data[off:off+n], level); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
	if e.t != (table{}) {
		t.Fatal("the Encoder's table is not clear after its calls")
	}
}

// FuzzEncoder: an Encoder reused over two inputs writes what the
// package's functions write for each, and leaves its table clear.
func FuzzEncoder(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabc0123456789"), []byte("0123456789abcdefabcabcabcabcabc"), uint8(5))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 300), bytes.Repeat([]byte{9}, 5000), uint8(9))
	f.Fuzz(func(t *testing.T, a, b []byte, level uint8) {
		lv := int(level%MaxLevel) + 1
		var e Encoder
		for _, src := range [][]byte{a, b, a} {
			if err := encodeAll(&e, src, lv); err != nil {
				t.Fatal(err)
			}
		}
		if e.t != (table{}) {
			t.Fatal("the Encoder's table is not clear after its calls")
		}
	})
}
