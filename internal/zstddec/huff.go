package zstddec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// The Huffman-coded literals (RFC 8878 3.1.1.3.1 and 4.2). The decoder is
// ours rather than klauspost/compress/huff0's because huff0 draws its
// scratch from a sync.Pool on every call of its portable loops (all of
// them on targets without its assembly, and small 4-stream sections on
// amd64 and arm64): a pool is per P, so a Decoder whose goroutine moved to
// another P missed and allocated, and a reused Decoder was not
// allocation-free. Everything here lives in the Decoder.

// ErrHuffmanEnd (an ErrCorrupt) is a Huffman stream whose end is not what
// the format requires: no end mark in its last byte, or symbols that do
// not consume it exactly. libzstd 1.5.4 refuses such streams in its
// portable single-symbol decoder, but its double-symbol decoder, which it
// picks by a speed estimate from the section's sizes, lets the last
// symbol end anywhere past the stream's end (reading the container's bits
// again), and its x86-64 assembly loop, which takes 4-stream sections of
// long enough streams, reads a last byte of 0 as 8 bits of data.
// Differential tests against libzstd name this difference by it.
var ErrHuffmanEnd = fmt.Errorf("%w: Huffman stream end", ErrCorrupt)

const (
	// The format's Max_Number_of_Bits is 11, but libzstd, the
	// reference, decodes codes of 12 bits (HUF_TABLELOG_MAX), so this
	// decoder does too: the loops below take 5 codes a reload only up to
	// 11 bits.
	huffMaxBits = 12
	fastBits    = 11
	huffMaxSyms = 256
	weightLog   = 6 // the accuracy log limit of the weights' FSE table
)

// huffTable is a decoding table: entry i, for the next maxBits bits of the
// stream read as a number i, holds the bits its code takes in its low
// byte and the symbol in its high byte (the assembly loop shifts its bit
// container by a whole entry: the shift takes the count's low 6 bits).
// Entries past 1<<maxBits are never read; the fixed size lets the loops
// index without bounds checks.
type huffTable struct {
	maxBits uint
	dt      [1 << huffMaxBits]uint16
	// The double-symbol table of dt, built when a section first pays
	// for it (pairValid): entry i, for the next pairBits bits read as i,
	// decodes the code at their top and, when the next code fits in
	// what is left of them, that code too. Its bytes hold the bits both
	// codes take, the first symbol, the second (or garbage) and how
	// many symbols it decodes, 1 or 2.
	pairs     [1 << pairBits]uint32
	pairValid bool
	// The triple-symbol table of a tree of codes of at most 4 bits (the
	// half-byte planes of noisy data), built when a section comes under
	// a tree already seen: entry i, for the next tripleBits bits read as
	// i, holds the bits of the three codes at their top in its low byte
	// and the three symbols in the others.
	triples     [1 << tripleBits]uint32
	tripleValid bool
	seen        bool // the tree came again
}

// tripleBits is the triple-symbol table's index width: three codes of at
// most 4 bits.
const tripleBits = 12

// buildTriples builds t.triples from t.dt; t.maxBits must be at most 4.
// Like buildPairs it looks each code up once for the run of entries it
// starts.
func (t *huffTable) buildTriples() {
	sh := (tripleBits - t.maxBits) & 15
	const mask = 1<<tripleBits - 1
	for i := 0; i < 1<<tripleBits; {
		e1 := uint32(t.dt[i>>sh&(1<<huffMaxBits-1)])
		n1 := e1 & 15
		end1 := i + 1<<((tripleBits-n1)&15)
		for j := i; j < end1; {
			e2 := uint32(t.dt[j<<n1&mask>>sh])
			n2 := e2 & 15
			end2 := j + 1<<((tripleBits-n1-n2)&15)
			for k := j; k < end2; {
				e3 := uint32(t.dt[k<<(n1+n2)&mask>>sh])
				n3 := e3 & 15
				run := 1 << ((tripleBits - n1 - n2 - n3) & 15)
				v := n1 + n2 + n3 | e1>>8<<8 | e2>>8<<16 | e3>>8<<24
				for x := k; x < k+run; x++ {
					t.triples[x&mask] = v
				}
				k += run
			}
			j = end2
		}
		i = end1
	}
	t.tripleValid = true
}

// pairBits is the double-symbol table's index width: more than a
// table's maxBits gives a second short code room more often, and
// pairBits-bit windows still take 5 lookups a reload.
const pairBits = fastBits

// buildPairs builds t.pairs from t.dt; t.maxBits must be at most
// pairBits. It runs once per tree of the sections it pays for, which on
// the short sections of Blosc's streams made it a sixth of their time
// when built entry by entry, with a branch on whether the second code
// fits that no predictor learns. Here the first code is looked up once
// for the run of entries it starts (it takes pairBits-n1 bits' worth of
// them), and whether the second fits is a select.
func (t *huffTable) buildPairs() {
	sh := (pairBits - t.maxBits) & 15
	for i := 0; i < 1<<pairBits; {
		e1 := uint32(t.dt[i>>sh&(1<<huffMaxBits-1)])
		n1 := e1 & 15
		one := n1 | e1>>8<<8 | 1<<24
		run := 1 << ((pairBits - n1) & 15)
		// The entries of the run differ in the bits after the first
		// code, which start the second.
		for j := 0; j < run; j++ {
			e2 := uint32(t.dt[j<<n1&(1<<pairBits-1)>>sh])
			n2 := e2 & 15
			// All ones when the second code fits: the entry decodes
			// two symbols and both codes' bits.
			fits := uint32(int32(n1+n2-pairBits-1) >> 31)
			t.pairs[(i+j)&(1<<pairBits-1)] = one + (1<<24+n2+e2>>8<<16)&fits
		}
		i += run
	}
	t.pairValid = true
}

// weightEntry is one state of the FSE table of a tree description's
// weights.
type weightEntry struct {
	sym    uint8
	nbBits uint8
	next   uint16
}

// huffSlot is a Huffman table and the tree description it was built
// from (empty while it holds none).
type huffSlot struct {
	desc []byte
	t    huffTable
	idle int // descriptions read since this one was last
}

// huffKeep is how many other descriptions a tree that came again stays
// kept through before the slot counts as free.
const huffKeep = 16

// readHuffTable reads a Huffman_Tree_Description from in, points d.ht at
// its table and returns the rest of in. A description equal to one of
// the two last read takes that one's table as it is; another is built in
// the slot not used last.
func (d *Decoder) readHuffTable(in []byte) ([]byte, error) {
	if len(in) < 1 {
		return nil, corrupt("missing Huffman tree description")
	}
	hb := int(in[0])
	dl := 1 + hb
	if hb >= 128 {
		dl = 1 + (hb-127+1)/2
	}
	if dl <= len(in) {
		for k := range d.hts {
			if s := &d.hts[k]; len(s.desc) == dl && bytes.Equal(s.desc, in[:dl]) {
				d.ht = &s.t
				s.t.seen = true
				s.idle = 0
				d.hts[1-k].idle++
				return in[dl:], nil
			}
		}
	}
	// The new table replaces one that did not come again, if one did
	// (the planes whose tree changes from block to block take turns
	// with those whose tree stays), else the one not read last.
	kept := func(s *huffSlot) bool { return s.t.seen && s.idle < huffKeep }
	s, other := &d.hts[0], &d.hts[1]
	if kept(s) && !kept(other) || kept(s) == kept(other) && d.ht == &s.t {
		s, other = other, s
	}
	other.idle++
	s.desc = s.desc[:0]
	rest, err := d.buildHuffTable(&s.t, in)
	if err != nil {
		return nil, err
	}
	d.ht = &s.t
	s.idle = 0
	s.desc = append(s.desc, in[:len(in)-len(rest)]...)
	return rest, nil
}

// buildHuffTable reads a Huffman_Tree_Description from in into t and
// returns the rest of in.
func (d *Decoder) buildHuffTable(t *huffTable, in []byte) ([]byte, error) {
	var w [huffMaxSyms]uint8
	n := 0 // weights given; the last symbol's is implied
	hb := int(in[0])
	in = in[1:]
	if hb >= 128 {
		n = hb - 127
		nb := (n + 1) / 2
		if len(in) < nb {
			return nil, corrupt("truncated Huffman weights")
		}
		for i := range n {
			b := in[i/2]
			if i&1 == 0 {
				w[i] = b >> 4
			} else {
				w[i] = b & 15
			}
		}
		in = in[nb:]
	} else {
		if len(in) < hb {
			return nil, corrupt("truncated Huffman weights")
		}
		var err error
		if n, err = d.fseWeights(&w, in[:hb]); err != nil {
			return nil, err
		}
		in = in[hb:]
	}
	if n < 1 || n > huffMaxSyms-1 {
		return nil, corrupt("%d Huffman weights", n)
	}
	// One pass counts the symbols of each weight; the checks and the
	// code layout below work from the counts.
	var count [huffMaxBits + 1]int
	for _, x := range w[:n] {
		if x > huffMaxBits {
			return nil, corrupt("Huffman weight %d", x)
		}
		count[x]++
	}
	// The weights' powers sum, with the implied last weight's, to a power
	// of two, 1<<maxBits.
	total := 0
	for x := 1; x <= huffMaxBits; x++ {
		total += count[x] << (x - 1)
	}
	if total == 0 {
		return nil, corrupt("Huffman weights all zero")
	}
	maxBits := uint(bits.Len(uint(total)))
	if maxBits > huffMaxBits {
		return nil, corrupt("Huffman codes of %d bits", maxBits)
	}
	rest := 1<<maxBits - total
	if rest&(rest-1) != 0 {
		return nil, corrupt("Huffman weights do not complete a tree")
	}
	last := bits.Len(uint(rest)) // at most maxBits: rest < 1<<maxBits
	w[n] = uint8(last)
	count[last]++
	n++
	// A complete prefix code has an even number, at least two, of the
	// longest codes (weight 1); libzstd and huff0 refuse any other.
	if ones := count[1]; ones < 2 || ones&1 != 0 {
		return nil, corrupt("%d Huffman codes of the longest length", ones)
	}
	// Codes are assigned by weight, lowest first (the longest codes take
	// the lowest values), and by symbol within a weight: each symbol of
	// weight x fills 1<<(x-1) consecutive entries. The symbols are
	// grouped by weight first, so that the runs of a group have one
	// length: a length changing from symbol to symbol mispredicted the
	// end of nearly every run, a tenth of the time of c-blosc2's small
	// frames, which read a tree each.
	var order [huffMaxSyms]uint8
	var at [huffMaxBits + 1]int
	for x := 1; x <= huffMaxBits; x++ {
		at[x] = at[x-1] + count[x-1]
	}
	for s, x := range w[:n] {
		order[at[x]&(huffMaxSyms-1)] = uint8(s)
		at[x]++
	}
	t.maxBits = maxBits
	t.pairValid, t.tripleValid, t.seen = false, false, false
	q := 0
	from := count[0]
	for x := 1; x <= int(maxBits); x++ {
		nb := uint16(maxBits + 1 - uint(x))
		syms := order[from : from+count[x]]
		from += count[x]
		run := 1 << (x - 1)
		switch run {
		case 1:
			for _, sym := range syms {
				t.dt[q&(1<<huffMaxBits-1)] = uint16(sym)<<8 | nb
				q++
			}
		case 2:
			for _, sym := range syms {
				e := uint16(sym)<<8 | nb
				d := t.dt[q : q+2 : q+2]
				d[0], d[1] = e, e
				q += 2
			}
		case 4:
			for _, sym := range syms {
				e := uint16(sym)<<8 | nb
				d := t.dt[q : q+4 : q+4]
				d[0], d[1], d[2], d[3] = e, e, e, e
				q += 4
			}
		default:
			for _, sym := range syms {
				e := uint16(sym)<<8 | nb
				d := t.dt[q : q+run : q+run]
				for k := 0; k+8 <= len(d); k += 8 {
					c := d[k : k+8 : k+8]
					c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] = e, e, e, e, e, e, e, e
				}
				q += run
			}
		}
	}
	return in, nil
}

// fseWeights decodes FSE-compressed Huffman weights (RFC 8878 4.2.1.2):
// a table description, then a backward bit stream read by two states in
// turn until a state's update runs past the stream's start; the other
// state then gives the last weight.
func (d *Decoder) fseWeights(w *[huffMaxSyms]uint8, in []byte) (int, error) {
	// Symbols (weights) up to 255 may be described, as libzstd reads
	// them; any above 12 that is decoded is refused by the caller.
	var norm [256]int16
	log, nsym, used, err := readNCount(norm[:], in, 255, weightLog)
	if err != nil {
		return 0, err
	}
	// libzstd decodes the weights in a workspace sized for a 6-bit
	// table of 12 symbols and refuses a description whose table and
	// symbol count need more (FSE_DECOMPRESS_WKSP_SIZE): at 6 bits at
	// most 12 symbols, fewer bits leave room for more.
	if fseWksp(log, nsym) > fseWksp(weightLog, 12) {
		return 0, corrupt("Huffman weights describe %d symbols at %d bits", nsym, log)
	}
	var tab [1 << weightLog]weightEntry
	buildWeightTable(tab[:1<<log], norm[:nsym], log)
	var br backBits
	if err := br.init(in[used:]); err != nil {
		return 0, err
	}
	mask := uint32(1)<<log - 1
	s1 := br.read(log) & mask
	s2 := br.read(log) & mask
	// The states take turns: s1 is always the one to decode next.
	n := 0
	for {
		if n > huffMaxSyms-3 {
			return 0, corrupt("too many Huffman weights")
		}
		e := tab[s1]
		w[n] = e.sym
		n++
		s1 = (uint32(e.next) + br.read(uint(e.nbBits))) & mask
		if br.over() {
			w[n] = tab[s2].sym
			n++
			break
		}
		s1, s2 = s2, s1
	}
	return n, nil
}

// buildWeightTable builds the FSE table of norm in t, 1<<log states.
func buildWeightTable(t []weightEntry, norm []int16, log uint) {
	var symbols [512]uint8
	fseSpread(&symbols, norm, log)
	var next [256]uint16
	for s, c := range norm {
		next[s] = uint16(max(c, 1))
	}
	for u := range t {
		s := symbols[u]
		ns := next[s]
		next[s] = ns + 1
		nb := log + 1 - uint(bits.Len16(ns))
		t[u] = weightEntry{sym: s, nbBits: uint8(nb), next: uint16(int(ns)<<nb - len(t))}
	}
}

// backBits reads a backward bit stream (RFC 8878 4.1): the stream is a
// number whose most significant byte is the last, topped by a 1 bit, and
// it is read from the top down. val holds the 8 bytes at in[pos:pos+8]
// (for a stream shorter than 8 bytes, the stream's bytes at the top and
// zeros below), and the next bit is bit 63-used of val. At pos 0 the
// stream's last bit is bit 64-lim: lim is 64, or 8*len(in) when shorter.
type backBits struct {
	in   []byte
	pos  int
	val  uint64
	used uint
	lim  uint
}

func (b *backBits) init(in []byte) error {
	if len(in) == 0 || in[len(in)-1] == 0 {
		return corrupt("bit stream without its end mark")
	}
	b.in = in
	b.used = 9 - uint(bits.Len8(in[len(in)-1]))
	b.lim = 64
	if len(in) >= 8 {
		b.pos = len(in) - 8
		b.val = binary.LittleEndian.Uint64(in[b.pos:])
		return nil
	}
	b.pos = 0
	b.val = 0
	for _, c := range in {
		b.val = b.val>>8 | uint64(c)<<56
	}
	b.lim = uint(len(in)) * 8
	return nil
}

// read returns the next n <= 32 bits, zeros past the stream's start.
func (b *backBits) read(n uint) uint32 {
	if n == 0 {
		return 0
	}
	var v uint32
	if b.pos == 0 && b.used+n > b.lim {
		// Past the stream's start, read what libzstd reads there: its
		// container holds the stream's bytes at the bottom and
		// BIT_lookBits shifts it right by 64-consumed-n modulo 64, so
		// the bits come back from the container's top. A weights
		// stream too short for its two states then gives libzstd's
		// states, and so its weights or its refusal.
		c := b.val >> (64 - b.lim)
		consumed := b.used + 64 - b.lim
		v = uint32(c >> ((64 - consumed - n) & 63) & (1<<n - 1))
	} else {
		v = uint32(b.val << b.used >> (64 - n))
	}
	b.used += n
	b.reload()
	return v
}

// reload moves the window down by the whole bytes read, as far as the
// stream's start; while pos > 0 at most 7 bits of val are then read.
func (b *backBits) reload() {
	if b.pos == 0 {
		return
	}
	step := int(b.used >> 3)
	if step > b.pos {
		step = b.pos
	}
	b.pos -= step
	b.used -= uint(step) * 8
	b.val = binary.LittleEndian.Uint64(b.in[b.pos:])
}

// over reports that more bits were read than the stream holds.
func (b *backBits) over() bool { return b.pos == 0 && b.used > b.lim }

// done reports that exactly every bit of the stream was read.
func (b *backBits) done() bool { return b.pos == 0 && b.used == b.lim }

// decode1 decodes the single stream src into exactly len(dst) symbols.
func (t *huffTable) decode1(dst, src []byte) error {
	var br backBits
	if err := br.init(src); err != nil {
		return fmt.Errorf("%w: no end mark", ErrHuffmanEnd)
	}
	return t.stream(dst, &br)
}

// stream decodes len(dst) symbols from br and checks that they took the
// whole stream.
func (t *huffTable) stream(dst []byte, br *backBits) error {
	dt := &t.dt
	shift := 64 - t.maxBits
	o := 0
	// While the window is inside the stream, at most 8 bits of it have
	// been read, which leaves room for 5 codes of up to 11 bits.
	for t.maxBits <= fastBits && br.pos > 0 && o+5 <= len(dst) {
		val, used := br.val, br.used
		d := dst[o : o+5 : o+5]
		e := dt[val<<used>>shift&(1<<huffMaxBits-1)]
		d[0] = byte(e >> 8)
		used += uint(e & 0xff)
		e = dt[val<<used>>shift&(1<<huffMaxBits-1)]
		d[1] = byte(e >> 8)
		used += uint(e & 0xff)
		e = dt[val<<used>>shift&(1<<huffMaxBits-1)]
		d[2] = byte(e >> 8)
		used += uint(e & 0xff)
		e = dt[val<<used>>shift&(1<<huffMaxBits-1)]
		d[3] = byte(e >> 8)
		used += uint(e & 0xff)
		e = dt[val<<used>>shift&(1<<huffMaxBits-1)]
		d[4] = byte(e >> 8)
		br.used = used + uint(e&0xff)
		o += 5
		br.reload()
	}
	for ; o < len(dst); o++ {
		if br.used > 64 {
			return fmt.Errorf("%w: the stream ends before its %d symbols", ErrHuffmanEnd, len(dst))
		}
		e := dt[br.val<<br.used>>shift&(1<<huffMaxBits-1)]
		dst[o] = byte(e >> 8)
		br.used += uint(e & 0xff)
		br.reload()
	}
	if !br.done() {
		return fmt.Errorf("%w: the stream goes on after its %d symbols", ErrHuffmanEnd, len(dst))
	}
	return nil
}

// decode4 decodes the four streams of src (after their 6-byte jump
// table) into exactly len(dst) symbols, a quarter (rounded up) from each
// of the first three and the rest from the fourth.
func (t *huffTable) decode4(dst, src []byte) error {
	if len(src) < 10 {
		return corrupt("4-stream Huffman literals of %d bytes", len(src))
	}
	l1 := int(binary.LittleEndian.Uint16(src))
	l2 := int(binary.LittleEndian.Uint16(src[2:]))
	l3 := int(binary.LittleEndian.Uint16(src[4:]))
	in := src[6:]
	if l1+l2+l3 >= len(in) {
		return corrupt("Huffman jump table past its section")
	}
	seg := (len(dst) + 3) / 4
	if 3*seg > len(dst) {
		return corrupt("%d literals in 4 Huffman streams", len(dst))
	}
	var br [4]backBits
	ends := [4]int{l1, l1 + l2, l1 + l2 + l3, len(in)}
	from := 0
	for k := range br {
		if err := br[k].init(in[from:ends[k]]); err != nil {
			return fmt.Errorf("%w: no end mark", ErrHuffmanEnd)
		}
		from = ends[k]
	}
	// Each stream's next symbol goes to dst[o[k]], up to end[k].
	o := [4]int{0, seg, 2 * seg, 3 * seg}
	end := [4]int{seg, 2 * seg, 3 * seg, len(dst)}
	switch {
	case t.maxBits > fastBits:
	case useTriples(t, len(dst)):
		if !t.tripleValid {
			t.buildTriples()
		}
		t.triples4Asm(dst, &o, &end, &br)
	case usePairs(len(dst), len(src)):
		if !t.pairValid {
			t.buildPairs()
		}
		if useHuffAsm {
			t.pairs4Asm(dst, &o, &end, &br)
		}
		t.pairs4(dst, &o, &end, &br)
	default:
		n := 0
		if useHuffAsm {
			n = t.decode4Asm(dst, seg, &br)
		}
		n = t.singles4(dst, seg, n, &br)
		for k := range o {
			o[k] += n
		}
	}
	for k := range br {
		if err := t.stream(dst[o[k]:end[k]], &br[k]); err != nil {
			return err
		}
	}
	return nil
}

// usePairs says whether a 4-stream section of csize bytes decoding to n
// symbols is decoded through the double-symbol table: its codes must be
// short enough on average for pairs to be common, and the symbols many
// enough to repay building the table. From 8 Ki symbols they do, since
// buildPairs fills runs: c-blosc2's frames at clevel 3, whose literals
// are 12 to 17 Ki half-byte codes under a new tree each, spent a fifth
// less on their literals with pairs than with single symbols below 16 Ki.
// Only the assembly loop makes pairs
// pay: the portable pairs loop, one stream at a time, is slower than the
// portable single-symbol loop, and only finishes what the assembly loop
// leaves.
func usePairs(n, csize int) bool {
	switch huffPairs {
	case pairsNever:
		return false
	case pairsAlways:
		return true
	}
	return useHuffAsm && n >= 8<<10 && csize*16 < n*pairQ
}

// useTriples says whether a 4-stream section of n symbols is decoded
// through the triple-symbol table, with the assembly loop: its tree's
// codes must be at most 4 bits, and the tree must have come before, so
// that the table (4096 entries, longer to build than a frame of c-blosc2
// takes to decode) is built once for the planes that share it.
func useTriples(t *huffTable, n int) bool {
	switch huffPairs {
	case pairsNever, pairsAlways:
		return false
	case pairsTriples:
		return useHuffAsm && t.maxBits <= 4
	}
	return useHuffAsm && t.maxBits <= 4 && n >= 8<<10 && (t.seen || t.tripleValid)
}

// huffPairs lets tests choose the loops: pairsAuto, the default, decides
// by usePairs's rule.
var huffPairs = pairsAuto

const (
	pairsAuto = iota
	pairsNever
	pairsAlways
	pairsTriples // triples wherever the codes allow, else single symbols
)

// pairQ is the largest section size, in sixteenths of its symbols count,
// that is decoded through pairs.
const pairQ = 11

// singles4 decodes the four streams in step from symbol o of each, dst
// split at seg, 5 codes each per reload (see stream), while each stream's
// window is inside it, and returns the symbols decoded from each.
func (t *huffTable) singles4(dst []byte, seg, o int, br *[4]backBits) int {
	dt := &t.dt
	shift := 64 - t.maxBits
	d0, d1, d2, d3 := dst[:seg], dst[seg:2*seg], dst[2*seg:3*seg], dst[3*seg:]
	for o+5 <= len(d3) && br[0].pos > 0 && br[1].pos > 0 && br[2].pos > 0 && br[3].pos > 0 {
		v0, u0 := br[0].val, br[0].used
		v1, u1 := br[1].val, br[1].used
		v2, u2 := br[2].val, br[2].used
		v3, u3 := br[3].val, br[3].used
		o0 := d0[o : o+5 : o+5]
		o1 := d1[o : o+5 : o+5]
		o2 := d2[o : o+5 : o+5]
		o3 := d3[o : o+5 : o+5]
		for i := range 5 {
			e0 := dt[v0<<u0>>shift&(1<<huffMaxBits-1)]
			e1 := dt[v1<<u1>>shift&(1<<huffMaxBits-1)]
			e2 := dt[v2<<u2>>shift&(1<<huffMaxBits-1)]
			e3 := dt[v3<<u3>>shift&(1<<huffMaxBits-1)]
			o0[i] = byte(e0 >> 8)
			o1[i] = byte(e1 >> 8)
			o2[i] = byte(e2 >> 8)
			o3[i] = byte(e3 >> 8)
			u0 += uint(e0 & 0xff)
			u1 += uint(e1 & 0xff)
			u2 += uint(e2 & 0xff)
			u3 += uint(e3 & 0xff)
		}
		br[0].used, br[1].used, br[2].used, br[3].used = u0, u1, u2, u3
		br[0].reload()
		br[1].reload()
		br[2].reload()
		br[3].reload()
		o += 5
	}
	return o
}

// pairs4 decodes the four streams through the double-symbol table, 5
// lookups each per reload, while each stream's window is inside it and
// its output has room for 10 symbols, each lookup writing 2 bytes: the
// second, when it decoded one symbol, is overwritten by the next. It
// advances o and leaves br where the single-symbol loop goes on: the
// codes read are the same, two at a time.
func (t *huffTable) pairs4(dst []byte, o, end *[4]int, br *[4]backBits) {
	pt := &t.pairs
	for k := range br {
		b := &br[k]
		p := o[k]
		for b.pos > 0 && p+10 <= end[k] {
			v, u := b.val, b.used
			d := dst[p : p+10 : p+10]
			q := 0
			for range 5 {
				e := pt[v<<u>>(64-pairBits)]
				d[q] = byte(e >> 8)
				d[q+1] = byte(e >> 16)
				q += int(e >> 24)
				u += uint(e & 0xff)
			}
			p += q
			b.used = u
			b.reload()
		}
		o[k] = p
	}
}

// fseWksp is libzstd's FSE_DECOMPRESS_WKSP_SIZE_U32 for a table of log
// bits and nsym symbols.
func fseWksp(log uint, nsym int) int {
	build := (2*nsym + 1<<log + 8 + 3) / 4
	return 1 + 1<<log + 1 + build + 256/2 + 1
}
