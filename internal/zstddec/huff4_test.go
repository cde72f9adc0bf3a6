package zstddec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/klauspost/compress/huff0"
)

// huffLoops decodes the 4-stream Huffman section sec (tree description
// and streams) into n symbols with the portable single-symbol loop alone,
// the reference, and with every other choice of loops (assembly where
// there is, double-symbol tables never, always, or by usePairs), from and
// into buffers against guard pages on side, and fails unless all give
// the reference's error, or none and its symbols. It returns the error.
func huffLoops(t *testing.T, label string, sec []byte, n int, side guard.Side) error {
	t.Helper()
	haveAsm := useHuffAsm
	defer func() { useHuffAsm, huffPairs = haveAsm, pairsAuto }()
	var d Decoder
	rest, err := d.readHuffTable(sec)
	if err != nil {
		return err
	}
	in := guard.New(len(rest), side)
	defer in.Free()
	copy(in.Bytes, rest)
	ref := make([]byte, n)
	useHuffAsm, huffPairs = false, pairsNever
	errRef := d.ht.decode4(ref, in.Bytes)
	out := guard.New(n, side)
	defer out.Free()
	for _, asm := range []bool{false, true} {
		for _, pairs := range []int{pairsNever, pairsAlways, pairsAuto, pairsTriples} {
			if asm && !haveAsm || !asm && (pairs == pairsNever || pairs == pairsTriples) {
				continue
			}
			useHuffAsm, huffPairs = asm, pairs
			clear(out.Bytes)
			err := d.ht.decode4(out.Bytes, in.Bytes)
			what := fmt.Sprintf("%s (assembly %v, pairs %d)", label, asm, pairs)
			// The messages count the symbols the last loop had left.
			if (err == nil) != (errRef == nil) || errors.Is(err, ErrHuffmanEnd) != errors.Is(errRef, ErrHuffmanEnd) {
				t.Fatalf("%s: says %v, the portable single-symbol loop %v", what, err, errRef)
			}
			if err == nil && !bytes.Equal(out.Bytes, ref) {
				i := golden.FirstDiff(out.Bytes, ref)
				t.Fatalf("%s: first difference at symbol %d of %d\ngot:\n%swant:\n%s", what, i, n,
					hex.Dump(out.Bytes[max(i-16, 0):min(i+32, n)]), hex.Dump(ref[max(i-16, 0):min(i+32, n)]))
			}
		}
	}
	return errRef
}

// nibbles is n bytes of alpha symbols, equally likely when alpha is a
// power of two (codes of log2(alpha) bits: the byte planes of noisy data
// that the triple-symbol loop takes), skewed otherwise.
func nibbles(n, alpha int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), uint64(alpha)))
	b := make([]byte, n)
	for i := range b {
		if alpha&(alpha-1) == 0 {
			b[i] = byte(r.IntN(alpha))
		} else {
			b[i] = byte(r.IntN(alpha) * r.IntN(alpha) / alpha)
		}
	}
	return b
}

// TestHuff4Loops runs every choice of 4-stream loops over the sections
// huff0 writes of assorted and Blosc-like inputs, whole, with the symbol
// count off by one and with bytes flipped, against guard pages on both
// sides (TestHuff4AsmRuns checks that the assembly loops take most of the
// symbols).
func TestHuff4Loops(t *testing.T) {
	ins := huffInputs()
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "arange_i16"} {
		p, _ := golden.Pattern(name, 128<<10)
		ins = append(ins, golden.Shuffled(p, 4))
	}
	for _, n := range []int{100, 777, 5000, 40000, 128 << 10} {
		for _, alpha := range []int{16, 11, 8, 5, 4, 2} {
			ins = append(ins, nibbles(n, alpha))
		}
	}
	var s huff0.Scratch
	for i, src := range ins {
		s.Reuse = huff0.ReusePolicyNone
		sec, _, err := huff0.Compress4X(src, &s)
		if err != nil {
			continue
		}
		label := func(what string) string { return fmt.Sprintf("%s of input %d (%d bytes)", what, i, len(src)) }
		for _, side := range []guard.Side{guard.Start, guard.End} {
			if err := huffLoops(t, label("whole"), sec, len(src), side); err != nil {
				t.Fatalf("%s: %v", label("whole"), err)
			}
			huffLoops(t, label("one short"), sec, len(src)-1, side)
			huffLoops(t, label("one over"), sec, len(src)+1, side)
		}
		for j := 1; j < len(sec); j += 1 + len(sec)/5 {
			bad := bytes.Clone(sec)
			bad[j] ^= 0x5A
			huffLoops(t, label("flipped"), bad, len(src), guard.End)
		}
	}
}

// TestHuff4Mutations is the fuzz target's work in a fixed, quick dose:
// sections with a few random bytes replaced and random symbol counts.
func TestHuff4Mutations(t *testing.T) {
	var seeds [][]byte
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise", "linspace_f64"} {
		p, _ := golden.Pattern(name, 3000)
		if sec, _, err := huff0.Compress4X(golden.Shuffled(p, 4), &s); err == nil {
			seeds = append(seeds, sec)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	runs := 3000
	if testing.Short() {
		runs = 300
	}
	for run := range runs {
		sec := bytes.Clone(seeds[r.IntN(len(seeds))])
		for k := r.IntN(4); k >= 0; k-- {
			sec[r.IntN(len(sec))] = byte(r.Uint32())
		}
		n := 3000
		if r.IntN(4) == 0 {
			n = r.IntN(5000)
		}
		huffLoops(t, fmt.Sprintf("mutation %d", run), sec, n, guard.End)
	}
}

// FuzzHuff4Loops checks every choice of 4-stream loops against the
// portable single-symbol loop on any section and symbol count.
func FuzzHuff4Loops(f *testing.F) {
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
		huffLoops(t, "fuzz", sec, int(n%(64<<10+1)), guard.End)
	})
}

// TestHuff4NoAllocs: decoding 4-stream sections, through the single- and
// the double-symbol loops, allocates nothing.
func TestHuff4NoAllocs(t *testing.T) {
	var s huff0.Scratch
	for _, name := range []string{"text", "f32_noise"} {
		p, _ := golden.Pattern(name, 64<<10)
		sec, _, err := huff0.Compress4X(golden.Shuffled(p, 4), &s)
		if err != nil {
			t.Fatal(err)
		}
		var d Decoder
		rest, err := d.readHuffTable(sec)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(p))
		for _, pairs := range []int{pairsNever, pairsAlways} {
			huffPairs = pairs
			allocs := testing.AllocsPerRun(20, func() {
				d.ht.pairValid = false
				if err := d.ht.decode4(dst, rest); err != nil {
					t.Fatal(err)
				}
			})
			huffPairs = pairsAuto
			if allocs != 0 {
				t.Errorf("%s, pairs %d: %v allocations a section", name, pairs, allocs)
			}
		}
	}
}

// buildPairsOracle is the double-symbol table built entry by entry,
// straight from its definition: buildPairs must build the same.
func buildPairsOracle(t *huffTable) (p [1 << pairBits]uint32) {
	sh := pairBits - t.maxBits
	for i := range p {
		e1 := uint32(t.dt[i>>sh])
		n1 := e1 & 0xff
		e2 := uint32(t.dt[i<<n1&(1<<pairBits-1)>>sh])
		n2 := e2 & 0xff
		p[i] = n1 | e1>>8<<8 | 1<<24
		if n1+n2 <= pairBits {
			p[i] = n1 + n2 | e1>>8<<8 | e2>>8<<16 | 2<<24
		}
	}
	return p
}

// TestBuildPairs compares buildPairs with its definition on the trees
// huff0 makes for many inputs, of every code length up to 11 bits.
func TestBuildPairs(t *testing.T) {
	seen := map[uint]bool{}
	r := rand.New(rand.NewPCG(3, 5))
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "arange_i16", "rec12", "runs"} {
		for _, n := range []int{300, 5000, 40000} {
			p, _ := golden.Pattern(name, n)
			for _, in := range [][]byte{p, golden.Shuffled(p, 4), skewed(r, n)} {
				var s huff0.Scratch
				sec, _, err := huff0.Compress4X(in, &s)
				if err != nil {
					continue // incompressible
				}
				var d Decoder
				if _, err := d.readHuffTable(sec); err != nil {
					t.Fatalf("%s/%d: %v", name, n, err)
				}
				if d.ht.maxBits > pairBits {
					continue
				}
				seen[d.ht.maxBits] = true
				d.ht.buildPairs()
				if want := buildPairsOracle(d.ht); d.ht.pairs != want {
					for i := range want {
						if d.ht.pairs[i] != want[i] {
							t.Fatalf("%s/%d, %d-bit codes: entry %d is %#x, want %#x", name, n, d.ht.maxBits, i, d.ht.pairs[i], want[i])
						}
					}
				}
			}
		}
	}
	if len(seen) < 5 {
		t.Errorf("only code lengths %v seen", seen)
	}
}

// skewed returns n bytes of geometrically distributed symbols, whose
// Huffman codes run from 1 bit to the longest.
func skewed(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		s := 0
		for s < 40 && r.IntN(3) != 0 {
			s++
		}
		b[i] = byte(s)
	}
	return b
}

// buildTriplesOracle is t's triple-symbol table by its definition: entry
// i decodes the three codes at the top of the 12 bits i, one by one.
func buildTriplesOracle(t *huffTable) (p [1 << tripleBits]uint32) {
	sh := tripleBits - t.maxBits
	for i := range p {
		w, bits := uint32(i), uint32(0)
		for k := range 3 {
			e := uint32(t.dt[w>>sh])
			p[i] |= e >> 8 << (8 * (k + 1))
			bits += e & 0xff
			w = w << (e & 0xff) & (1<<tripleBits - 1)
		}
		p[i] |= bits
	}
	return p
}

// TestBuildTriples compares buildTriples with its definition on trees of
// codes of 1 to 4 bits, flat and skewed.
func TestBuildTriples(t *testing.T) {
	seen := map[uint]bool{}
	for _, n := range []int{300, 5000, 40000} {
		for _, alpha := range []int{16, 11, 8, 5, 4, 3, 2} {
			var s huff0.Scratch
			sec, _, err := huff0.Compress4X(nibbles(n, alpha), &s)
			if err != nil {
				continue // incompressible
			}
			var d Decoder
			if _, err := d.readHuffTable(sec); err != nil {
				t.Fatalf("%d symbols of %d: %v", n, alpha, err)
			}
			if d.ht.maxBits > 4 {
				continue
			}
			seen[d.ht.maxBits] = true
			d.ht.buildTriples()
			if want := buildTriplesOracle(d.ht); d.ht.triples != want {
				for i := range want {
					if d.ht.triples[i] != want[i] {
						t.Fatalf("%d symbols of %d, %d-bit codes: entry %d is %#x, want %#x", n, alpha, d.ht.maxBits, i, d.ht.triples[i], want[i])
					}
				}
			}
		}
	}
	for b := uint(1); b <= 4; b++ {
		if !seen[b] && b > 1 {
			t.Errorf("no tree of %d-bit codes", b)
		}
	}
}
