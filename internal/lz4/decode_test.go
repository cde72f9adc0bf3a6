package lz4

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	pierrec "github.com/pierrec/lz4/v4"
)

// sequence appends to b one sequence of the block format: a token, the
// literal length bytes, lit, and, when off > 0, the offset and the match
// length bytes for a match of ml bytes.
func sequence(b []byte, lit []byte, off, ml int) []byte {
	tok := len(lit)
	if tok > 15 {
		tok = 15
	}
	tok <<= 4
	m := 0
	if off > 0 {
		m = ml - minMatch
		tok |= min(m, 15)
	}
	b = append(b, byte(tok))
	if n := len(lit) - 15; n >= 0 {
		for ; n >= 255; n -= 255 {
			b = append(b, 255)
		}
		b = append(b, byte(n))
	}
	b = append(b, lit...)
	if off == 0 {
		return b
	}
	b = append(b, byte(off), byte(off>>8))
	if n := m - 15; n >= 0 {
		for ; n >= 255; n -= 255 {
			b = append(b, 255)
		}
		b = append(b, byte(n))
	}
	return b
}

// naiveCompress writes a valid block for src, whose matches may reach back
// into dict: a greedy search of every earlier position within 1 KiB. Unlike the real compressors it takes the nearest of
// the longest matches, so that offsets below 16 abound.
func naiveCompress(src, dict []byte, maxMatch int) []byte {
	all := append(append([]byte(nil), dict...), src...)
	start := len(dict)
	var b []byte
	anchor := start
	end := len(all)
	for p := start; p+mfLimit <= end; {
		best, bestOff := 0, 0
		for q := p - 1; q >= max(0, p-distanceMax); q-- {
			n := 0
			for p+n < end-lastLiterals && all[q+n] == all[p+n] && n < maxMatch {
				n++
			}
			if n > best {
				best, bestOff = n, p-q
			}
			if p-q > 1024 {
				break // keeps the search quick enough for the fuzz target
			}
		}
		if best < minMatch {
			p++
			continue
		}
		b = sequence(b, all[anchor:p], bestOff, best)
		p += best
		anchor = p
	}
	return sequence(b, all[anchor:end], 0, 0)
}

// decodeBoth decodes src into a dst of n bytes with the assembly loop and
// the portable one, fails unless both return the same, and returns that.
func decodeBoth(t testing.TB, n int, src, dict []byte) ([]byte, int, error) {
	t.Helper()
	port := make([]byte, n)
	pn, perr := decode(port, src, dict, false)
	if !haveDecodeAsm {
		return port, pn, perr
	}
	asm := make([]byte, n)
	an, aerr := decode(asm, src, dict, true)
	if aerr != perr || an != pn || (perr == nil && !bytes.Equal(asm[:an], port[:pn])) {
		i := golden.FirstDiff(asm[:min(an, pn)], port[:min(an, pn)])
		t.Fatalf("dst=%d src=%d dict=%d: assembly gave %d, %v; portable %d, %v; first difference at %d\nsrc:\n%s",
			n, len(src), len(dict), an, aerr, pn, perr, i, hex.Dump(src[:min(len(src), 256)]))
	}
	return port, pn, perr
}

func TestDecompressMalformed(t *testing.T) {
	lit5 := []byte("abcde")
	long := bytes.Repeat([]byte("0123456789"), 4)
	valid := sequence(sequence(nil, lit5, 5, 20), long, 0, 0)
	for _, c := range []struct {
		name string
		dst  int
		src  []byte
		dict []byte
		want error
		n    int
	}{
		{"empty block", 10, nil, nil, ErrTruncated, 0},
		{"empty block, empty dst", 0, nil, nil, ErrTruncated, 0},
		{"empty dst, the one valid block", 0, []byte{0}, nil, nil, 0},
		{"empty dst, one literal", 0, []byte{0x10, 'a'}, nil, ErrShortDst, 0},
		{"empty dst, a token with a match length", 0, []byte{0x0C}, nil, ErrShortDst, 0},
		{"one token", 10, []byte{0}, nil, nil, 0},
		{"one token with a match length", 10, []byte{0x0C}, nil, nil, 0},
		{"literals missing", 10, []byte{0x20, 'a'}, nil, ErrTruncated, 0},
		{"literal length missing", 100, []byte{0xF0}, nil, ErrTruncated, 0},
		{"literal length run cut", 1000, []byte{0xF0, 255, 255}, nil, ErrTruncated, 0},
		{"literal length run past dst", 100, append([]byte{0xF0}, bytes.Repeat([]byte{255}, 10)...), nil, ErrShortDst, 0},
		{"literals past dst", 3, []byte{0x40, 'a', 'b', 'c', 'd'}, nil, ErrShortDst, 0},
		{"bytes after the last literals", 10, []byte{0x10, 'a', 0}, nil, ErrBlockEnd, 0},
		{"ends after a match", 100, sequence(nil, lit5, 5, 8), nil, ErrBlockEnd, 0},
		{"offset cut", 100, sequence(nil, lit5, 5, 8)[:7], nil, ErrBlockEnd, 0},
		{"offset 0", 100, sequence(append(sequence(nil, lit5, 0, 0)[:6], 0, 0), long, 0, 0), nil, ErrZeroOffset, 0},
		{"offset before dst", 100, sequence(sequence(nil, lit5, 6, 4), long, 0, 0), nil, ErrOffset, 0},
		{"offset before dict", 100, sequence(sequence(nil, lit5, 8, 4), long, 0, 0), []byte("xy"), ErrOffset, 0},
		{"offset into dict", 100, sequence(sequence(nil, lit5, 7, 4), long, 0, 0), []byte("xy"), nil, 49},
		{"match length run cut", 1000, []byte{0x5F, 'a', 'b', 'c', 'd', 'e', 5, 0, 255, 255, 255, 255, 255, 255}, nil, ErrTruncated, 0},
		{"match length run near the end", 1000, append(sequence(nil, lit5, 5, 19+510), 0x20, 'a', 'b'), nil, ErrTruncated, 0},
		{"match past dst", 30, sequence(sequence(nil, lit5, 5, 300), long, 0, 0), nil, ErrShortDst, 0},
		{"match in the last 5 bytes", 20, sequence(sequence(nil, lit5, 5, 12), []byte("xyz"), 0, 0), nil, ErrBlockEnd, 0},
		{"last match starts 11 bytes before the end", 20, sequence(sequence(nil, long[:9], 5, 4), long[:7], 0, 0), nil, ErrBlockEnd, 0},
		{"last match starts 12 bytes before the end", 20, sequence(sequence(nil, long[:8], 5, 4), long[:8], 0, 0), nil, nil, 20},
		{"valid", 65, valid, nil, nil, 65},
		{"valid, larger dst", 1000, valid, nil, nil, 65},
		{"valid, dst one short", 64, valid, nil, ErrShortDst, 0},
	} {
		_, n, err := decodeBoth(t, c.dst, c.src, c.dict)
		if err != c.want || (err == nil && n != c.n) {
			t.Errorf("%s: got %d, %v; want %d, %v", c.name, n, err, c.n, c.want)
		}
	}
}

// TestDecompressRoundTrip decodes the blocks of Compressor and
// HCCompressor for the patterns and random data of many sizes, into dst
// of the exact size and larger, and compares with the input and with
// pierrec/lz4's decoder.
func TestDecompressRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 5, 12, 13, 14, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 4096, 65535, 65536, 70000, 200_000}
	if testing.Short() {
		sizes = sizes[:12]
	}
	var c Compressor
	var hc HCCompressor
	for i, n := range sizes {
		for _, in := range inputs(t, n, 5) {
			for j, level := range []int{-1, -5, -10, 1, 9, 12} {
				block := make([]byte, CompressBlockBound(n))
				var k int
				if level < 0 {
					k = c.CompressBlock(block, in.data, -level)
				} else if (i+j)%2 == 0 || n < 5000 {
					k = hc.CompressBlockHC(block, in.data, level)
				} else {
					continue
				}
				block = block[:k]
				for _, extra := range []int{0, 1, 100} {
					out, got, err := decodeBoth(t, n+extra, block, nil)
					if err != nil || got != n || !bytes.Equal(out[:n], in.data) {
						t.Fatalf("%s n=%d level=%d extra=%d: decoded %d bytes, %v", in.name, n, level, extra, got, err)
					}
					ref := make([]byte, n+extra)
					if pn, err := pierrec.UncompressBlock(block, ref); err != nil || pn != n || !bytes.Equal(ref[:n], out[:n]) {
						t.Fatalf("%s n=%d level=%d extra=%d: pierrec decoded %d bytes, %v, or others", in.name, n, level, extra, pn, err)
					}
				}
			}
		}
	}
}

// TestDecompressShortOffsets decodes blocks of every offset below 20 and
// many match lengths, long and short, at every alignment: the assembly
// loop's pattern repeats.
func TestDecompressShortOffsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for off := 1; off < 20; off++ {
		for _, ml := range []int{4, 5, 7, 8, 15, 16, 17, 18, 19, 20, 31, 32, 33, 64, 100, 1000} {
			for lead := 0; lead < 20; lead += 3 {
				var src []byte
				for range lead + off {
					src = append(src, byte(rng.Uint32()))
				}
				for i := range ml {
					src = append(src, src[lead+i%off])
				}
				for range 40 {
					src = append(src, byte(rng.Uint32()))
				}
				block := sequence(sequence(nil, src[:lead+off], off, ml), src[lead+off+ml:], 0, 0)
				out, n, err := decodeBoth(t, len(src), block, nil)
				if err != nil || n != len(src) || !bytes.Equal(out, src) {
					t.Fatalf("off=%d ml=%d lead=%d: decoded %d bytes, %v, or others", off, ml, lead, n, err)
				}
			}
		}
	}
}

// TestDecompressDict decodes blocks whose matches reach into a
// dictionary, across its end into dst, and compares with pierrec/lz4.
func TestDecompressDict(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 13, 50, 200, 3000} {
		for _, dn := range []int{0, 1, 7, 100, 2000} {
			data := compressible(rng, dn+n)
			dict, src := data[:dn], data[dn:]
			block := naiveCompress(src, dict, 1<<20)
			for _, extra := range []int{0, 50} {
				out := make([]byte, n+extra)
				got, err := DecompressBlockDict(out, block, dict)
				if err != nil || got != n || !bytes.Equal(out[:n], src) {
					t.Fatalf("n=%d dict=%d: decoded %d bytes, %v, or others", n, dn, got, err)
				}
				both, bn, berr := decodeBoth(t, n+extra, block, dict)
				if berr != nil || bn != n || !bytes.Equal(both[:n], src) {
					t.Fatalf("n=%d dict=%d: decoded %d bytes, %v", n, dn, bn, berr)
				}
				ref := make([]byte, n+extra)
				if pn, err := pierrec.UncompressBlockWithDict(block, ref, dict); err != nil || pn != n || !bytes.Equal(ref[:n], src) {
					t.Fatalf("n=%d dict=%d: pierrec decoded %d bytes, %v, or others", n, dn, pn, err)
				}
			}
		}
	}
	// Only the last 64 KiB of a longer dictionary can be reached.
	dict := make([]byte, 100_000)
	for i := range dict {
		dict[i] = byte(rng.Uint32())
	}
	src := append([]byte(nil), dict[len(dict)-distanceMax:len(dict)-distanceMax+40]...)
	block := sequence(sequence(nil, nil, distanceMax, 20), src[20:], 0, 0)
	out := make([]byte, len(src))
	if n, err := DecompressBlockDict(out, block, dict); err != nil || n != len(src) || !bytes.Equal(out, src) {
		t.Fatalf("64 KiB back into a long dict: decoded %d bytes, %v", n, err)
	}
}

// mutate returns a copy of block with a few bytes changed, cut, or
// repeated, the shapes of damage that reach each check.
func mutate(rng *rand.Rand, block []byte) []byte {
	b := append([]byte(nil), block...)
	switch rng.IntN(4) {
	case 0:
		if len(b) > 0 {
			b = b[:rng.IntN(len(b))]
		}
	case 1:
		if len(b) > 0 {
			i := rng.IntN(len(b))
			b = append(b[:i:i], append(bytes.Repeat([]byte{b[i]}, 1+rng.IntN(8)), b[i:]...)...)
		}
	}
	for range rng.IntN(4) {
		if len(b) > 0 {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
	}
	return b
}

// TestAssemblyDecodeMatchesPortable decodes damaged blocks, random bytes,
// and valid blocks into dst of many lengths with both loops, which must
// return the same count, error and bytes.
func TestAssemblyDecodeMatchesPortable(t *testing.T) {
	if !haveDecodeAsm {
		t.Skip("no assembly loop on this platform or with these tags")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var c Compressor
	rounds := 3000
	if testing.Short() {
		rounds = 300
	}
	for r := range rounds {
		n := rng.IntN(3000)
		data := compressible(rng, n)
		block := make([]byte, CompressBlockBound(n))
		var dict []byte
		if r%3 == 0 {
			block = naiveCompress(data, nil, 1+rng.IntN(300))
		} else {
			block = block[:c.CompressBlock(block, data, 1+rng.IntN(10))]
		}
		if r%5 == 0 {
			dict = compressible(rng, rng.IntN(100))
		}
		for range 10 {
			src := mutate(rng, block)
			if r%7 == 0 {
				src = make([]byte, rng.IntN(200))
				for i := range src {
					src[i] = byte(rng.Uint32())
				}
			}
			decodeBoth(t, max(0, n-5+rng.IntN(10)), src, dict)
			decodeBoth(t, rng.IntN(2*n+100), src, dict)
		}
	}
}

// The assembly loop reads src and writes dst with 16-byte moves: with
// either flush against an inaccessible page, any access past it faults.
func TestDecodeAgainstGuardPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c Compressor
	for _, n := range []int{0, 1, 13, 17, 32, 33, 64, 65, 100, 1000, 5000, 70000} {
		for _, in := range inputs(t, n, 9) {
			block := make([]byte, CompressBlockBound(n))
			block = block[:c.CompressBlock(block, in.data, 1)]
			srcs := [][]byte{block, naiveCompress(in.data[:min(n, 2000)], nil, 1000)}
			for range 20 {
				srcs = append(srcs, mutate(rng, block))
			}
			for _, src := range srcs {
				for _, side := range []guard.Side{guard.Start, guard.End} {
					sb := guard.New(len(src), side)
					copy(sb.Bytes, src)
					for _, size := range []int{n, n + 1, n + 64, max(n-1, 0)} {
						db := guard.New(size, guard.End)
						for _, asm := range []bool{false, haveDecodeAsm} {
							decode(db.Bytes, sb.Bytes, nil, asm)
						}
						db.Free()
					}
					sb.Free()
				}
			}
		}
	}
}

func TestDecompressAllocs(t *testing.T) {
	p := golden.MustPattern(t, "f32_noise", 1<<16)
	block := make([]byte, CompressBlockBound(len(p)))
	var c Compressor
	block = block[:c.CompressBlock(block, p, 5)]
	dst := make([]byte, len(p))
	dict := make([]byte, 1000)
	bad := append([]byte(nil), block[:len(block)/2]...)
	for _, f := range []func(){
		func() { DecompressBlock(dst, block) },
		func() { decode(dst, block, nil, false) },
		func() { DecompressBlockDict(dst, block, dict) },
		func() { DecompressBlock(dst, bad) },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%v allocations per decode", a)
		}
	}
}

// FuzzDecompress decodes the input as a block with the assembly loop and
// the portable one, which must agree (and pierrec/lz4 too when both
// accept it), and compresses it with Compressor and with a dictionary,
// whose blocks must decode to it exactly as pierrec/lz4 decodes them.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte{0x10, 'a'}, uint16(1), uint8(0))
	f.Add(sequence(sequence(nil, []byte("abcde"), 2, 40), []byte("0123456789abcdef"), 0, 0), uint16(61), uint8(3))
	f.Add(bytes.Repeat([]byte("abcabcabd"), 30), uint16(300), uint8(20))
	var c Compressor
	f.Fuzz(func(t *testing.T, data []byte, size uint16, split uint8) {
		out, n, err := decodeBoth(t, int(size), data, nil)
		if err == nil {
			ref := make([]byte, int(size))
			if pn, perr := pierrec.UncompressBlock(data, ref); perr == nil && (pn != n || !bytes.Equal(ref[:pn], out[:n])) {
				t.Fatalf("pierrec decoded %d bytes, this decoder %d, or other bytes", pn, n)
			}
		}
		k := min(int(split), len(data))
		decodeBoth(t, int(size), data[k:], data[:k])

		block := make([]byte, CompressBlockBound(len(data)))
		block = block[:c.CompressBlock(block, data, 1+int(split)%10)]
		out, n, err = decodeBoth(t, len(data), block, nil)
		if err != nil || n != len(data) || !bytes.Equal(out, data) {
			t.Fatalf("the block of %d bytes decoded to %d, %v, or other bytes", len(data), n, err)
		}
		ref := make([]byte, len(data))
		if pn, perr := pierrec.UncompressBlock(block, ref); perr != nil || pn != n || !bytes.Equal(ref, data) {
			t.Fatalf("pierrec decoded the block to %d bytes, %v", pn, perr)
		}
		if len(data) <= 4096 {
			dict, src := data[:k], data[k:]
			block = naiveCompress(src, dict, 1+int(size)%2000)
			out, n, err = decodeBoth(t, len(src), block, dict)
			if err != nil || n != len(src) || !bytes.Equal(out, src) {
				t.Fatalf("the dict block of %d bytes decoded to %d, %v, or other bytes", len(src), n, err)
			}
		}
	})
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []error{ErrTruncated, ErrZeroOffset, ErrOffset, ErrShortDst, ErrBlockEnd}
	for i, a := range all {
		for j, b := range all {
			if (i == j) != errors.Is(a, b) {
				t.Fatalf("%v and %v", a, b)
			}
		}
	}
}
