//go:build !purego && !noasm && gc

package zstddec

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/klauspost/compress/huff0"
)

// TestHuff4CtxLayout pins the offsets huffasm_amd64.s addresses.
func TestHuff4CtxLayout(t *testing.T) {
	var c huff4Ctx
	var p pairs4Ctx
	base := uintptr(unsafe.Pointer(&c))
	off := func(p unsafe.Pointer) uintptr { return uintptr(p) - base }
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"dt", off(unsafe.Pointer(&c.dt)), 0}, {"out", off(unsafe.Pointer(&c.out)), 8},
		{"seg", off(unsafe.Pointer(&c.seg)), 16}, {"iters", off(unsafe.Pointer(&c.iters)), 24},
		{"shift", off(unsafe.Pointer(&c.shift)), 32}, {"base", off(unsafe.Pointer(&c.base)), 40},
		{"pos", off(unsafe.Pointer(&c.pos)), 72}, {"used", off(unsafe.Pointer(&c.used)), 104},
		{"size", unsafe.Sizeof(c), 136},
		{"pairs4Ctx.dt", unsafe.Offsetof(p.dt), 0}, {"pairs4Ctx.iters", unsafe.Offsetof(p.iters), 8},
		{"pairs4Ctx.dst", unsafe.Offsetof(p.dst), 16}, {"pairs4Ctx.out", unsafe.Offsetof(p.out), 24},
		{"pairs4Ctx.base", unsafe.Offsetof(p.base), 56}, {"pairs4Ctx.pos", unsafe.Offsetof(p.pos), 88},
		{"pairs4Ctx.used", unsafe.Offsetof(p.used), 120}, {"pairBits", pairBits, 11},
	} {
		if f.got != f.want {
			t.Errorf("%s at %d, the assembly reads %d", f.name, f.got, f.want)
		}
	}
}

// asmSymbols is how many symbols of each stream decode4Asm decodes of a
// section of n symbols, 0 if decode4 would refuse its streams.
func asmSymbols(t *huffTable, n int, src []byte) int {
	if len(src) < 10 || t.maxBits > fastBits {
		return 0
	}
	in := src[6:]
	var ends [4]int
	for k := range 3 {
		ends[k+1] = ends[k] + int(binary.LittleEndian.Uint16(src[2*k:]))
	}
	seg := (n + 3) / 4
	if ends[3] >= len(in) || 3*seg > n {
		return 0
	}
	var br [4]backBits
	for k := range br {
		end := len(in)
		if k < 3 {
			end = ends[k+1]
		}
		if br[k].init(in[ends[k]:end]) != nil {
			return 0
		}
	}
	return t.decode4Asm(make([]byte, n), seg, &br)
}

// asmPairSymbols is how many symbols pairs4Asm decodes of a section of
// n symbols, 0 if decode4 would refuse its streams.
func asmPairSymbols(t *huffTable, n int, src []byte) int {
	if len(src) < 10 || t.maxBits > fastBits {
		return 0
	}
	in := src[6:]
	var ends [4]int
	for k := range 3 {
		ends[k+1] = ends[k] + int(binary.LittleEndian.Uint16(src[2*k:]))
	}
	seg := (n + 3) / 4
	if ends[3] >= len(in) || 3*seg > n {
		return 0
	}
	var br [4]backBits
	for k := range br {
		end := len(in)
		if k < 3 {
			end = ends[k+1]
		}
		if br[k].init(in[ends[k]:end]) != nil {
			return 0
		}
	}
	t.buildPairs()
	o := [4]int{0, seg, 2 * seg, 3 * seg}
	end := [4]int{seg, 2 * seg, 3 * seg, n}
	t.pairs4Asm(make([]byte, n), &o, &end, &br)
	return o[0] + o[1] - seg + o[2] - 2*seg + o[3] - 3*seg
}

// asmTripleSymbols is how many symbols triples4Asm decodes of a section
// of n symbols, 0 if decode4 would refuse its streams or its codes are
// longer than 4 bits.
func asmTripleSymbols(t *huffTable, n int, src []byte) int {
	if len(src) < 10 || t.maxBits > 4 {
		return 0
	}
	in := src[6:]
	var ends [4]int
	for k := range 3 {
		ends[k+1] = ends[k] + int(binary.LittleEndian.Uint16(src[2*k:]))
	}
	seg := (n + 3) / 4
	if ends[3] >= len(in) || 3*seg > n {
		return 0
	}
	var br [4]backBits
	for k := range br {
		end := len(in)
		if k < 3 {
			end = ends[k+1]
		}
		if br[k].init(in[ends[k]:end]) != nil {
			return 0
		}
	}
	t.buildTriples()
	o := [4]int{0, seg, 2 * seg, 3 * seg}
	end := [4]int{seg, 2 * seg, 3 * seg, n}
	t.triples4Asm(make([]byte, n), &o, &end, &br)
	return o[0] + o[1] - seg + o[2] - 2*seg + o[3] - 3*seg
}

// TestHuff4AsmRuns: the assembly loops, single- and double-symbol, decode
// most of the symbols of large sections themselves, so that the tests
// comparing loops compare them.
func TestHuff4AsmRuns(t *testing.T) {
	if !haveHuffAsm {
		t.Skip("no assembly Huffman loop on this CPU or with these tags")
	}
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "arange_i16"} {
		p, _ := golden.Pattern(name, 128<<10)
		src := golden.Shuffled(p, 4)[:64<<10]
		sec, _, err := huff0.Compress4X(src, &s)
		if err != nil {
			continue
		}
		var d Decoder
		rest, err := d.readHuffTable(sec)
		if err != nil {
			t.Fatal(err)
		}
		if n := 4 * asmSymbols(d.ht, len(src), rest); n < len(src)*9/10 {
			t.Errorf("%s: the single-symbol loop decoded %d of %d symbols", name, n, len(src))
		}
		if n := asmPairSymbols(d.ht, len(src), rest); n < len(src)*9/10 {
			t.Errorf("%s: the double-symbol loop decoded %d of %d symbols", name, n, len(src))
		}
	}
	for _, alpha := range []int{16, 8, 4} {
		src := nibbles(64<<10, alpha)
		sec, _, err := huff0.Compress4X(src, &s)
		if err != nil {
			t.Fatal(err)
		}
		var d Decoder
		rest, err := d.readHuffTable(sec)
		if err != nil {
			t.Fatal(err)
		}
		if n := asmTripleSymbols(d.ht, len(src), rest); n < len(src)*9/10 {
			t.Errorf("%d symbols, %d-bit codes: the triple-symbol loop decoded %d of %d symbols", alpha, d.ht.maxBits, n, len(src))
		}
	}
}
