package blosclz

import (
	"bytes"
	"fmt"
	"math"
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

// empty reports whether every entry of t reads as empty: none above base.
func (t *table) empty() bool {
	for _, v := range t.e {
		if v > t.base {
			return false
		}
	}
	return true
}

// TestEncoderReuse: an Encoder reused over inputs of many sizes, at every
// level, writes the functions' bytes: no entry of an earlier call leaks
// into a later one.
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
	if !e.t.empty() {
		t.Fatal("the Encoder's table is not empty after its calls")
	}
}

// TestEncoderWrap: when the positions of the next input would not fit in
// 32 bits above base, the table is cleared and numbering starts over; the
// bytes written before, across and after that point are the functions'.
func TestEncoderWrap(t *testing.T) {
	data := golden.MustPattern(t, "text", 1<<16)
	for _, n := range []int{2000, 1 << 16} {
		var e Encoder
		start := math.MaxUint32 - 3*uint32(n) - 100
		e.t.base = start
		for i := range 8 {
			before := e.t.base
			src := data[(i*977)%(len(data)-n+1):][:n]
			if err := encodeAll(&e, src, 1+i%MaxLevel); err != nil {
				t.Fatalf("%d bytes, call %d (base %d): %v", n, i, before, err)
			}
			if !e.t.empty() {
				t.Fatalf("%d bytes, call %d: the table is not empty after it", n, i)
			}
		}
		if e.t.base >= start {
			t.Fatalf("%d bytes: base %d, the numbering never started over", n, e.t.base)
		}
	}
}

// FuzzEncoder: an Encoder reused over two inputs writes what the
// package's functions write for each, and leaves its table empty.
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
		if !e.t.empty() {
			t.Fatal("the Encoder's table is not empty after its calls")
		}
	})
}
