package zstdenc

import (
	"encoding/binary"
	"math"
)

// seq is one sequence: ll literals, then ml bytes copied from offset
// back. seqCodes sets ofx to the offset code's extra bits; the sequence
// bit stream takes the lengths' extra bits as their low bits (BZHI in
// assembly), which left seqCodes two loads and two stores a sequence
// fewer than storing them back.
type seq struct {
	ll, ml uint32
	offset uint32
	ofx    uint32 // the offset code's extra bits, set by seqCodes
}

// Block types (RFC 8878 3.1.1.2).
const (
	blockRaw = iota
	blockRLE
	blockCompressed
)

// minGain is how much smaller than its input a block or literals section
// must get to be kept compressed (libzstd's ZSTD_minGain): 1/64 of it,
// 1/128 at btultra, 1/256 at btultra2.
func minGain(n, strat int) int {
	if strat >= stratBtultra {
		return n>>(strat-1) + 2
	}
	return n>>6 + 2
}

// seqCodes turns each sequence's offset into its code as the decoder
// will read it, following the decoder's three repeat offsets (RFC 8878
// 3.1.2.5): a repeat costs fewer bits, whatever the match finder knew.
// In the same pass it sets the three codes of each sequence, counts
// them, and leaves in the sequence the offset code's extra bits.
func (e *Encoder) seqCodes() {
	r := e.rep
	n := len(e.seqs)
	sq := e.seqs[:n]
	lc, oc, mc := e.llCodes[:n], e.ofCodes[:n], e.mlCodes[:n]
	e.counts = [3][64]uint32{}
	if haveSeqBitsAsm && n > 0 {
		// The same pass in assembly (seqasm_amd64.s), the three offsets
		// in registers.
		seqCodesAsm(&sq[0], n, &lc[0], &oc[0], &mc[0], &e.counts, &r, &seqCodeTabs, 0)
		e.nextRep = r
		return
	}
	cl, co, cm := &e.counts[0], &e.counts[1], &e.counts[2]
	for i := range sq {
		s := &sq[i]
		o := s.offset
		var ob uint32
		if s.ll > 0 {
			switch o {
			case r[0]:
				ob = 1
			case r[1]:
				ob = 2
				r[0], r[1] = o, r[0]
			case r[2]:
				ob = 3
				r[0], r[1], r[2] = o, r[0], r[1]
			default:
				ob = o + 3
				r[0], r[1], r[2] = o, r[0], r[1]
			}
		} else {
			switch {
			case o == r[1]:
				ob = 1
				r[0], r[1] = o, r[0]
			case o == r[2]:
				ob = 2
				r[0], r[1], r[2] = o, r[0], r[1]
			case o == r[0]-1:
				ob = 3
				r[0], r[1], r[2] = o, r[0], r[1]
			default:
				ob = o + 3
				r[0], r[1], r[2] = o, r[0], r[1]
			}
		}
		l, m, of := llCode(s.ll), mlCode(s.ml-3), uint8(highbit(ob))
		lc[i], mc[i], oc[i] = l, m, of
		s.ofx = ob ^ 1<<(of&31)
		cl[l&63]++
		co[of&63]++
		cm[m&63]++
	}
	e.nextRep = r
}

// writeLiterals writes the literals section of e.lits (or e.litsSrc) into
// dst and returns its size, or -1 when the block is to be stored raw
// (see rawAt). A new Huffman table it describes is left in
// e.hufNext with e.hufNextIsNew set, for block to keep if the block is
// stored compressed.
func (e *Encoder) writeLiterals(dst []byte) int {
	lits := e.lits
	if e.litsSrc != nil {
		lits = e.litsSrc
	}
	n := len(lits)
	e.hufNextIsNew = false
	// Too few literals to pay for a table, fewer the stronger the level.
	if n < 8<<min(9-e.strategy, 3) {
		return e.rawLits(dst, lits)
	}
	// The literals of a block with few matches are likely noise: a look
	// at its ends decides before counting it all, as libzstd does from
	// 40 KiB on. Here from 16 KiB on: a Blosc byte plane is 32 KiB at
	// clevels 1-3, and its full count was most of a noise plane's time.
	suspect := len(e.seqs) == 0 || n/len(e.seqs) >= 20
	if suspect && n >= 4096*4 {
		var c [256]uint32
		a := largestCount(&c, lits[:4096])
		b := largestCount(&c, lits[n-4096:])
		if a+b <= (2*4096)>>7+4 {
			return e.rawLits(dst, lits)
		}
	}
	count := &e.litCount
	countBytes(count, lits)
	maxSym := 255
	for count[maxSym] == 0 {
		maxSym--
	}
	largest := uint32(0)
	for _, c := range count[:maxSym+1] {
		largest = max(largest, c)
	}
	if int(largest) == n {
		return rleLiterals(dst, lits)
	}
	if int(largest) <= n>>7+4 {
		return e.rawLits(dst, lits)
	}
	if !e.hufValid && int(largest) < n>>5 && entropyMisses(count, maxSym, n, n-minGain(n, e.strategy)-1) {
		// Near-flat counts whose entropy alone (no prefix code does
		// better; a new table's description is at least a byte) misses
		// the minimum gain: the table would be built, described and
		// estimated only to store the literals raw below. A noisy
		// plane's mantissa bytes; libzstd builds the table.
		return e.rawLits(dst, lits)
	}
	lh := 3
	if n >= 1<<10 {
		lh++
	}
	if n >= 16<<10 {
		lh++
	}
	four := n >= 256
	oldOK := false
	oldSize := 0
	if e.hufValid {
		oldSize, oldOK = e.huf.estimate(count, maxSym)
	}
	table := &e.huf
	mode := modeRepeat
	hs := 0
	if !(oldOK && e.strategy < stratLazy && n <= 1024) {
		limit := uint8(optimalTableLog(huffMaxLog, n, maxSym, 1))
		e.hb.build(&e.hufNext, count, maxSym, limit)
		hs = e.writeHuffTable(dst[lh:], &e.hufNext)
		newSize, _ := e.hufNext.estimate(count, maxSym)
		switch {
		case oldOK && (oldSize <= hs+newSize || hs+12 >= n):
		case hs == 0 || hs+12 >= n:
			return e.rawLits(dst, lits)
		default:
			table = &e.hufNext
			mode = modeFSE
			oldSize = newSize
		}
	}
	if mode == modeRepeat {
		hs = 0
		if lh == 3 {
			four = false
		}
	}
	// oldSize is now the chosen table's estimate, the whole bytes of its
	// codes' bits: the streams take at least that (and their last bits,
	// closing bits and jump table), so when it and the description reach
	// what a kept section must save, the streams would be written only to
	// be dropped below. libzstd writes them; a noisy plane's literals
	// (32 KiB, a few symbols more frequent than the count's quick test
	// lets through) cost as much to code as to search.
	if hs+oldSize >= n-minGain(n, e.strategy) {
		return e.rawLits(dst, lits)
	}
	cn := huffStreams(dst[lh+hs:], lits, table, four)
	cn += hs
	if cn == hs || cn >= n-minGain(n, e.strategy) {
		return e.rawLits(dst, lits)
	}
	if mode == modeFSE {
		e.hufNextIsNew = true
	}
	hType := uint32(2)
	if mode == modeRepeat {
		hType = 3
	}
	switch lh {
	case 3:
		sf := uint32(0)
		if four {
			sf = 1
		}
		v := hType | sf<<2 | uint32(n)<<4 | uint32(cn)<<14
		dst[0], dst[1], dst[2] = byte(v), byte(v>>8), byte(v>>16)
	case 4:
		v := hType | 2<<2 | uint32(n)<<4 | uint32(cn)<<18
		binary.LittleEndian.PutUint32(dst, v)
	default:
		v := hType | 3<<2 | uint32(n)<<4 | uint32(cn)<<22
		binary.LittleEndian.PutUint32(dst, v)
		dst[4] = byte(cn >> 10)
	}
	return lh + cn
}

// countBytes sets c to the histogram of b, counting into four tables so
// that runs of one byte do not wait on their own increments.
func countBytes(c *[256]uint32, b []byte) {
	var t [4][256]uint32
	if haveHistAsm && len(b) >= 16 {
		// Sixteen bytes a turn from two 8-byte loads in assembly
		// (libzstd's HIST_count reads 4-byte words too): Go's loop
		// takes a load and its own steps a byte.
		n := len(b) &^ 15
		histAsm(&t, &b[0], n)
		b = b[n:]
	}
	for len(b) >= 4 {
		q := b[:4]
		t[0][q[0]]++
		t[1][q[1]]++
		t[2][q[2]]++
		t[3][q[3]]++
		b = b[4:]
	}
	for _, x := range b {
		t[0][x]++
	}
	for i := range c {
		c[i] = t[0][i] + t[1][i] + t[2][i] + t[3][i]
	}
}

func largestCount(c *[256]uint32, b []byte) uint32 {
	*c = [256]uint32{}
	for _, x := range b {
		c[x]++
	}
	m := uint32(0)
	for _, v := range c {
		m = max(m, v)
	}
	return m
}

func litHeader(dst []byte, typ uint32, n int) int {
	switch {
	case n <= 31:
		dst[0] = byte(typ | uint32(n)<<3)
		return 1
	case n <= 4095:
		binary.LittleEndian.PutUint16(dst, uint16(typ|1<<2|uint32(n)<<4))
		return 2
	default:
		v := typ | 3<<2 | uint32(n)<<4
		dst[0], dst[1], dst[2] = byte(v), byte(v>>8), byte(v>>16)
		return 3
	}
}

// rawLits stores lits raw, or returns -1 without copying them when the
// block cannot then be kept compressed (see rawAt): its literals section
// alone, and the sequences count's byte, reach the size of a raw block.
func (e *Encoder) rawLits(dst, lits []byte) int {
	if e.rawAt > 0 && len(lits)+litHeaderLen(len(lits))+1 >= e.rawAt {
		return -1
	}
	return rawLiterals(dst, lits)
}

func litHeaderLen(n int) int {
	switch {
	case n <= 31:
		return 1
	case n <= 4095:
		return 2
	default:
		return 3
	}
}

func rawLiterals(dst, lits []byte) int {
	h := litHeader(dst, 0, len(lits))
	return h + copy(dst[h:], lits)
}

func rleLiterals(dst, lits []byte) int {
	h := litHeader(dst, 1, len(lits))
	dst[h] = lits[0]
	return h + 1
}

// compressBlock writes the body of a compressed block for the sequences
// and literals found into e.blk and returns its size, or 0 when the block
// should be stored raw.
func (e *Encoder) compressBlock() int {
	dst := e.blk
	pos := e.writeLiterals(dst)
	if pos < 0 {
		return 0 // stored raw whatever the sequences
	}
	nbSeq := len(e.seqs)
	switch {
	case nbSeq < 128:
		dst[pos] = byte(nbSeq)
		pos++
	case nbSeq < 0x7F00:
		dst[pos] = byte(nbSeq>>8 | 0x80)
		dst[pos+1] = byte(nbSeq)
		pos += 2
	default:
		dst[pos] = 0xFF
		binary.LittleEndian.PutUint16(dst[pos+1:], uint16(nbSeq-0x7F00))
		pos += 3
	}
	if nbSeq == 0 {
		// No sequences section: the decoder keeps its tables and
		// offsets, and block keeps e.fse.
		e.nextRep = e.rep
		return pos
	}
	e.llCodes = e.llCodes[:nbSeq]
	e.ofCodes = e.ofCodes[:nbSeq]
	e.mlCodes = e.mlCodes[:nbSeq]
	e.seqCodes()
	modesAt := pos
	pos++
	lastNC := 0
	var modes [3]int
	var tabs [3]*fseCTable
	f := &e.fse
	for k, kind := range [3]*seqKind{&llKind, &ofKind, &mlKind} {
		codes := e.llCodes
		switch k {
		case 1:
			codes = e.ofCodes
		case 2:
			codes = e.mlCodes
		}
		c := f.cur[k] & 1
		m, n, t := e.chooseTable(kind, codes, &e.counts[k], &f.t[k][c], f.valid[k], &f.t[k][c^1], dst[pos:])
		modes[k], tabs[k] = m, t
		pos += n
		if m == modeFSE {
			lastNC = n
		}
	}
	e.fseModes = modes
	dst[modesAt] = byte(modes[0]<<6 | modes[1]<<4 | modes[2]<<2)
	bs := e.encodeSequences(dst[pos:], tabs[0], tabs[1], tabs[2])
	if lastNC != 0 && lastNC+bs < 4 {
		// Decoders before zstd 1.4.0 misread a table description and
		// bit stream this short; libzstd stores such a block raw.
		return 0
	}
	return pos + bs
}

// entropyMisses says whether n symbols of count need need bytes or more
// whatever their prefix code: whether their Shannon entropy, n*log2(n)
// less the sum of c*log2(c) bits, reaches need bytes, less two for the
// float sums' rounding. The entropy is at most log2 of the number of
// symbols present, which answers most counts with one logarithm; the
// rest take one a symbol.
func entropyMisses(count *[256]uint32, maxSym, n, need int) bool {
	present := 0
	for _, c := range count[:maxSym+1] {
		if c != 0 {
			present++
		}
	}
	if float64(n)*math.Log2(float64(present))/8 < float64(need+2) {
		return false
	}
	sum := 0.0
	for _, c := range count[:maxSym+1] {
		if c > 1 {
			f := float64(c)
			sum += f * math.Log2(f)
		}
	}
	bits := float64(n)*math.Log2(float64(n)) - sum
	return int(bits/8)-2 >= need
}
