//go:build !purego && !noasm && gc

package zstddec

import (
	"encoding/binary"

	"github.com/klauspost/cpuid/v2"
)

// haveHuffAsm says that the 4-stream Huffman loop can run through
// huff4BMI2 on this CPU; useHuffAsm (tests clear it to run the portable
// loop alone) selects it.
var (
	haveHuffAsm = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)
	useHuffAsm  = haveHuffAsm
)

// huff4Ctx is what huff4BMI2 reads and writes back; the assembly
// addresses its fields by offset (the h_* constants in huffasm_amd64.s,
// checked by TestHuff4CtxLayout).
type huff4Ctx struct {
	dt    *uint16 // the table's entries
	out   *byte   // the first stream's next symbol; the others' follow at seg apart
	seg   int
	iters int      // rounds of 5 symbols a stream to decode, at least 1
	shift uint64   // 64 - the table's maxBits
	base  [4]*byte // each stream's first byte
	pos   [4]int   // where each stream's loaded word starts
	used  [4]uint64
}

// huff4BMI2 decodes c.iters rounds of 5 symbols from each of the four
// streams, each round followed by a reload as backBits.reload makes it.
// Every stream's pos must be at least 7*c.iters, so that no reload
// reaches the stream's start, and every used at most 8. Requires BMI1
// and BMI2; the table's codes must be at most fastBits long.
//
//go:noescape
func huff4BMI2(c *huff4Ctx)

// decode4Asm runs the assembly loop over the four streams of decode4 (dst
// split at seg, 2*seg, 3*seg) for as many rounds as keep each stream's
// window off its start, and returns the symbols it decoded from each,
// leaving br where the portable loop goes on. It gives exactly the
// symbols and reader states the portable loop would.
func (t *huffTable) decode4Asm(dst []byte, seg int, br *[4]backBits) int {
	n3 := len(dst) - 3*seg // the last stream's share, the smallest
	c := huff4Ctx{dt: &t.dt[0], seg: seg, shift: uint64(64 - t.maxBits)}
	o := 0
	for {
		// A round reads at most 8 + 5*11 bits, so moves a window at
		// most 7 bytes.
		iters := (n3 - o) / 5
		for k := range br {
			iters = min(iters, br[k].pos/7)
		}
		if iters == 0 {
			return o
		}
		for k := range br {
			c.base[k], c.pos[k], c.used[k] = &br[k].in[0], br[k].pos, uint64(br[k].used)
		}
		c.out, c.iters = &dst[o], iters
		huff4BMI2(&c)
		for k := range br {
			b := &br[k]
			b.pos, b.used = c.pos[k], uint(c.used[k])
			b.val = binary.LittleEndian.Uint64(b.in[b.pos:])
		}
		o += 5 * iters
	}
}

// pairs4Ctx is what pairs4BMI2 reads and writes back (the p_* constants
// in huffasm_amd64.s, checked by TestHuff4CtxLayout).
type pairs4Ctx struct {
	dt    *uint32 // the double-symbol table
	iters int     // rounds of 5 lookups a stream to make, at least 1
	dst   *byte
	out   [4]int // where each stream's next symbols go in dst
	base  [4]*byte
	pos   [4]int
	used  [4]uint64
}

// pairs4BMI2 makes c.iters rounds of 5 lookups in the double-symbol
// table for each of the four streams, each round followed by a reload.
// Every stream's pos must be at least 7*c.iters and its output must have
// room for 10*c.iters symbols. Requires BMI1 and BMI2.
//
//go:noescape
func pairs4BMI2(c *pairs4Ctx)

// pairs1BMI2 is pairs4BMI2 for the first stream of c alone.
//
//go:noescape
func pairs1BMI2(c *pairs4Ctx)

// pairs4Asm runs the assembly double-symbol loop over the four streams
// as long as it may, as pairs4 does, advancing o and leaving br where
// the portable loops go on: the four streams together while all have
// room, then each alone.
func (t *huffTable) pairs4Asm(dst []byte, o, end *[4]int, br *[4]backBits) {
	c := pairs4Ctx{dt: &t.pairs[0], dst: &dst[0]}
	for {
		iters := len(dst)
		for k := range br {
			iters = min(iters, pairIters(end[k]-o[k], br[k].pos))
		}
		if iters == 0 {
			break
		}
		for k := range br {
			c.out[k], c.base[k], c.pos[k], c.used[k] = o[k], &br[k].in[0], br[k].pos, uint64(br[k].used)
		}
		c.iters = iters
		pairs4BMI2(&c)
		for k := range br {
			b := &br[k]
			o[k], b.pos, b.used = c.out[k], c.pos[k], uint(c.used[k])
			b.val = binary.LittleEndian.Uint64(b.in[b.pos:])
		}
	}
	for k := range br {
		b := &br[k]
		for {
			iters := pairIters(end[k]-o[k], b.pos)
			if iters == 0 {
				break
			}
			c.out[0], c.base[0], c.pos[0], c.used[0] = o[k], &b.in[0], b.pos, uint64(b.used)
			c.iters = iters
			pairs1BMI2(&c)
			o[k], b.pos, b.used = c.out[0], c.pos[0], uint(c.used[0])
			b.val = binary.LittleEndian.Uint64(b.in[b.pos:])
		}
	}
}

// pairIters is how many rounds of 5 lookups a stream may run with room
// for left symbols and its window at pos: a round writes at most 10
// symbols and reads at most 8 + 5*11 bits, so moves the window at most
// 7 bytes.
func pairIters(left, pos int) int {
	return min(left/10, pos/7)
}

// triples4BMI2 makes c.iters rounds of 4 lookups in the triple-symbol
// table (c.dt) for each of the four streams, each round followed by a
// reload; each lookup writes 4 bytes, the three symbols and one the next
// overwrites. Every stream's pos must be at least 7*c.iters and its
// output must have room for 12*c.iters+1 bytes. Requires BMI1 and BMI2.
//
//go:noescape
func triples4BMI2(c *pairs4Ctx)

// triples4Asm runs the triple-symbol loop over the four streams while
// all have room, advancing o and leaving br where the portable
// single-symbol loop goes on: the codes read are the same, three at a
// time.
func (t *huffTable) triples4Asm(dst []byte, o, end *[4]int, br *[4]backBits) {
	c := pairs4Ctx{dt: &t.triples[0], dst: &dst[0]}
	for {
		iters := len(dst)
		for k := range br {
			// A round reads at most 8 + 4*12 bits, so moves a window at
			// most 7 bytes, and writes 12 symbols and one byte more.
			iters = min(iters, (end[k]-o[k]-1)/12, br[k].pos/7)
		}
		if iters <= 0 {
			return
		}
		for k := range br {
			c.out[k], c.base[k], c.pos[k], c.used[k] = o[k], &br[k].in[0], br[k].pos, uint64(br[k].used)
		}
		c.iters = iters
		triples4BMI2(&c)
		for k := range br {
			b := &br[k]
			o[k], b.pos, b.used = c.out[k], c.pos[k], uint(c.used[k])
			b.val = binary.LittleEndian.Uint64(b.in[b.pos:])
		}
	}
}
