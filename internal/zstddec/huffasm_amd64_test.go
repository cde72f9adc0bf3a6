//go:build !purego && !noasm && gc

package zstddec

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/klauspost/compress/huff0"
)

// TestHuff4CtxLayout pins the offsets huffasm_amd64.s addresses.
func TestHuff4CtxLayout(t *testing.T) {
	var c huff4Ctx
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
	} {
		if f.got != f.want {
			t.Errorf("%s at %d, the assembly reads %d", f.name, f.got, f.want)
		}
	}
}

// huffBoth decodes the 4-stream Huffman section sec (tree description and
// streams) into n symbols with the assembly loop and with the portable
// one alone, from and into buffers against guard pages on side, and fails
// unless both give the same error, or none and the same symbols. It
// returns the symbols the assembly loop decoded itself, and the error.
func huffBoth(t *testing.T, label string, sec []byte, n int, side guard.Side) (int, error) {
	t.Helper()
	var d Decoder
	rest, err := d.readHuffTable(sec)
	if err != nil {
		return 0, err
	}
	in := guard.New(len(rest), side)
	defer in.Free()
	copy(in.Bytes, rest)
	outA := guard.New(n, side)
	defer outA.Free()
	outP := make([]byte, n)
	useHuffAsm = true
	errA := d.ht.decode4(outA.Bytes, in.Bytes)
	useHuffAsm = false
	errP := d.ht.decode4(outP, in.Bytes)
	useHuffAsm = haveHuffAsm
	if (errA == nil) != (errP == nil) || errA != nil && errA.Error() != errP.Error() {
		t.Fatalf("%s: assembly loop says %v, portable %v", label, errA, errP)
	}
	if errA == nil && !bytes.Equal(outA.Bytes, outP) {
		i := golden.FirstDiff(outA.Bytes, outP)
		t.Fatalf("%s: first difference at symbol %d of %d\nassembly:\n%sportable:\n%s", label, i, n,
			hex.Dump(outA.Bytes[max(i-16, 0):min(i+32, n)]), hex.Dump(outP[max(i-16, 0):min(i+32, n)]))
	}
	return asmSymbols(&d.ht, n, in.Bytes), errA
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

// TestHuff4AsmMatchesPortable runs both 4-stream loops over the sections
// huff0 writes of assorted and Blosc-like inputs, whole, with the symbol
// count off by one and with bytes flipped, against guard pages on both
// sides, and checks that the assembly loop did decode most symbols.
func TestHuff4AsmMatchesPortable(t *testing.T) {
	if !haveHuffAsm {
		t.Skip("no assembly Huffman loop on this CPU or with these tags")
	}
	ins := huffInputs()
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "arange_i16"} {
		p, _ := golden.Pattern(name, 128<<10)
		ins = append(ins, golden.Shuffled(p, 4))
	}
	var s huff0.Scratch
	bulk := 0
	for i, src := range ins {
		s.Reuse = huff0.ReusePolicyNone
		sec, _, err := huff0.Compress4X(src, &s)
		if err != nil {
			continue
		}
		label := func(what string) string { return fmt.Sprintf("%s of input %d (%d bytes)", what, i, len(src)) }
		for _, side := range []guard.Side{guard.Start, guard.End} {
			asm, err := huffBoth(t, label("whole"), sec, len(src), side)
			if err != nil {
				t.Fatalf("%s: %v", label("whole"), err)
			}
			if len(src) >= 4096 && 4*asm > len(src)/2 {
				bulk++
			}
			huffBoth(t, label("one short"), sec, len(src)-1, side)
			huffBoth(t, label("one over"), sec, len(src)+1, side)
		}
		for j := 1; j < len(sec); j += 1 + len(sec)/5 {
			bad := bytes.Clone(sec)
			bad[j] ^= 0x5A
			huffBoth(t, label("flipped"), bad, len(src), guard.End)
		}
	}
	if bulk < 20 {
		t.Errorf("the assembly loop decoded most symbols of only %d large sections", bulk)
	}
}

// TestHuff4AsmMutations is the fuzz target's work in a fixed, quick dose:
// sections with a few random bytes replaced and random symbol counts.
func TestHuff4AsmMutations(t *testing.T) {
	if !haveHuffAsm {
		t.Skip("no assembly Huffman loop on this CPU or with these tags")
	}
	var seeds [][]byte
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise", "linspace_f64"} {
		p, _ := golden.Pattern(name, 3000)
		if sec, _, err := huff0.Compress4X(golden.Shuffled(p, 4), &s); err == nil {
			seeds = append(seeds, sec)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	runs := 5000
	if testing.Short() {
		runs = 500
	}
	for range runs {
		sec := bytes.Clone(seeds[r.IntN(len(seeds))])
		for k := r.IntN(4); k >= 0; k-- {
			sec[r.IntN(len(sec))] = byte(r.Uint32())
		}
		n := 3000
		if r.IntN(4) == 0 {
			n = r.IntN(5000)
		}
		huffBoth(t, "mutated "+hex.EncodeToString(sec), sec, n, guard.End)
	}
}

// FuzzHuff4AsmMatchesPortable checks the assembly 4-stream loop against
// the portable one on any section and symbol count.
func FuzzHuff4AsmMatchesPortable(f *testing.F) {
	if !haveHuffAsm {
		f.Skip("no assembly Huffman loop on this CPU or with these tags")
	}
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise", "linspace_f64"} {
		for _, n := range []int{700, 5000, 40000} {
			p, _ := golden.Pattern(name, n)
			if sec, _, err := huff0.Compress4X(golden.Shuffled(p, 4), &s); err == nil {
				f.Add(sec, uint32(n))
			}
		}
	}
	f.Fuzz(func(t *testing.T, sec []byte, n uint32) {
		huffBoth(t, "fuzz", sec, int(n%(128<<10+1)), guard.End)
	})
}
