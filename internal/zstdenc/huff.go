package zstdenc

import (
	"encoding/binary"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

const (
	huffMaxLog      = 11 // the longest literal code libzstd writes
	huffWeightsLog  = 6  // the accuracy of the FSE-coded weights
	maxHuffSymbols  = 256
	huffDirectLimit = 128 // weights written as nibbles at most
)

// huffCTable is a canonical Huffman code for literals.
type huffCTable struct {
	// bits holds each symbol's code length up to maxSym, 0 for a symbol
	// without a code (what estimate checks before the table codes a
	// block's literals); past maxSym nothing is read.
	bits [maxHuffSymbols]uint8
	// ce holds each symbol's code, then (from maxHuffSymbols on) its
	// length, both 64-bit: the stream loops in assembly shift a code
	// from memory into place and add a length from memory, one
	// instruction each, where one packed entry took two more to split.
	// Only the symbols with a code are written: the streams code no
	// other (a table's own block's literals, or a later block's that
	// estimate found every symbol of in bits).
	ce     [2 * maxHuffSymbols]uint64
	maxSym int
	log    uint8 // the longest code
}

// estimate is the size in bytes of count coded with t, or false if t
// has no code for a symbol count holds.
func (t *huffCTable) estimate(count *[256]uint32, maxSym int) (int, bool) {
	if maxSym > t.maxSym {
		return 0, false
	}
	n := 0
	for s := 0; s <= maxSym; s++ {
		if count[s] != 0 {
			if t.bits[s] == 0 {
				return 0, false
			}
			n += int(count[s]) * int(t.bits[s])
		}
	}
	return n >> 3, true
}

type huffNode struct {
	count  uint32
	sym    uint16
	parent uint16
}

// huffBuilder holds the scratch of building a code.
type huffBuilder struct {
	nodes [2 * maxHuffSymbols]huffNode
	depth [2 * maxHuffSymbols]uint8
	lim   [maxHuffSymbols]uint32
	keys  [maxHuffSymbols]uint32
	n     int // the leaves in keys
}

// build makes t a Huffman code of count (at least two symbols present)
// no longer than limit bits. When the optimal code is too deep, counts are
// raised to a floor that doubles until it fits, which keeps the code
// complete and costs little: only skewed blocks with many rare symbols
// reach the limit.
func (b *huffBuilder) build(t *huffCTable, count *[256]uint32, maxSym int, limit uint8) {
	copy(b.lim[:maxSym+1], count[:maxSym+1])
	floor := uint32(1)
	for d := b.lengths(t, maxSym); d > limit; d = b.raise(t, floor) {
		floor *= 2
	}
	t.maxSym = maxSym
	// Canonical codes as zstd decoders rebuild them from the weights:
	// the longest codes first from zero, symbols in order within a length.
	// Code lengths are at most huffMaxLog (< 16): the masks only drop
	// the bounds checks.
	var nPer [16]uint16
	var valPer [16]uint16
	for s := 0; s <= maxSym; s++ {
		nPer[t.bits[s]&15]++
	}
	v := uint16(0)
	for n := int(t.log); n > 0; n-- {
		valPer[n] = v
		v += nPer[n]
		v >>= 1
	}
	for s := 0; s <= maxSym; s++ {
		if nb := t.bits[s]; nb != 0 {
			t.ce[s] = uint64(valPer[nb&15])
			t.ce[maxHuffSymbols+s] = uint64(nb)
			valPer[nb&15]++
		}
	}
}

// lengths sets t.bits to an optimal code of b.lim and returns its depth.
// The leaves' counts and symbols are read from the sorted keys; nodes
// below n hold the leaves' parents only. Node indices stay below
// 2*maxHuffSymbols, which the masks tell the compiler (no bounds checks).
func (b *huffBuilder) lengths(t *huffCTable, maxSym int) uint8 {
	n := 0
	for s := 0; s <= maxSym; s++ {
		t.bits[s] = 0
		if b.lim[s] != 0 {
			b.nodes[n&(2*maxHuffSymbols-1)] = huffNode{count: b.lim[s], sym: uint16(s)}
			n++
		}
	}
	t.log = 0
	b.n = n
	if n < 2 {
		return 0
	}
	// Sort by count then symbol: both fit one uint32 key (a block has at
	// most 2^17 literals), which sorts without a comparison function.
	sortLeaves(b.keys[:n], b.nodes[:n])
	return b.tree(t)
}

// raise sets t.bits to an optimal code of the counts lengths last sorted
// with those below floor raised to it, and returns its depth: the keys
// up to floor, a prefix of the sorted ones, all become floor's and go in
// order of symbol (a bitmap of them read in order), the rest keep their
// order. What lengths would do with the raised counts, without building
// the leaves and sorting them again: skewed literals (sparse_f64's) reach
// the 11-bit limit in most blocks and raise the floor once or more.
func (b *huffBuilder) raise(t *huffCTable, floor uint32) uint8 {
	keys := b.keys[:b.n]
	var occ [maxHuffSymbols / 64]uint64
	m := 0
	for m < len(keys) && keys[m]>>8 <= floor {
		s := keys[m] & 0xFF
		occ[s>>6] |= 1 << (s & 63)
		m++
	}
	j := 0
	for w, x := range occ {
		for x != 0 {
			keys[j&(maxHuffSymbols-1)] = floor<<8 | uint32(w<<6|bits.TrailingZeros64(x))
			x &= x - 1
			j++
		}
	}
	return b.tree(t)
}

// tree sets t.bits to the code lengths of the Huffman tree of the n
// sorted keys (count<<8|sym, n at least 2) and returns the depth.
func (b *huffBuilder) tree(t *huffCTable) uint8 {
	n := b.n
	keys := b.keys[:n]
	nodes := &b.nodes
	const mask = 2*maxHuffSymbols - 1
	// Two queues: the sorted leaves, and the internal nodes, made in
	// order of weight.
	li, ii, next := 0, n, n
	pick := func() (int, uint32) {
		if li < n {
			c := keys[li] >> 8
			if ii >= next || c <= nodes[ii&mask].count {
				li++
				return li - 1, c
			}
		}
		ii++
		return ii - 1, nodes[(ii-1)&mask].count
	}
	for next < 2*n-1 {
		x, cx := pick()
		y, cy := pick()
		nodes[next&mask] = huffNode{count: cx + cy}
		nodes[x&mask].parent = uint16(next)
		nodes[y&mask].parent = uint16(next)
		next++
	}
	depth := &b.depth
	root := 2*n - 2
	depth[root&mask] = 0
	for i := root - 1; i >= n; i-- {
		depth[i&mask] = depth[nodes[i&mask].parent&mask] + 1
	}
	maxDepth := uint8(0)
	for i, k := range keys {
		d := depth[nodes[i&mask].parent&mask] + 1
		t.bits[k&0xFF] = d
		maxDepth = max(maxDepth, d)
	}
	t.log = maxDepth
	return maxDepth
}

// sortLeaves sets keys to the leaves' count<<8|sym in ascending order
// (the keys are distinct, so the order is the one any sort gives). The
// leaves come in order of symbol: placed by a bucket of their count,
// stably, they are in order but within the buckets of counts 512 and
// up, each a 32nd of a power of two wide, which an insertion pass then
// sorts with few moves. Counts below 512 have a bucket each, as
// libzstd's HUF_sort gives its small counts: the literals of a noisy
// plane of 32-64 KiB have about equal counts, 128-256 a symbol, which
// coarser buckets left for the insertion pass to sort by thousands of
// moves. A comparison sort of 256 keys cost a few times more still.
func sortLeaves(keys []uint32, leaves []huffNode) {
	const buckets = 512 + 23*32
	var start [buckets]uint16
	// occ marks the buckets in use: the offsets are summed over those
	// alone, at most one a leaf. Summed over every bucket between the
	// smallest and largest count (600 on text's counts, one of 1 to
	// 5,000), with each step waiting on the store before it, this was
	// half of the build's time.
	var occ [(buckets + 63) / 64]uint64
	bucket := func(c uint32) int {
		if c < 512 {
			return int(c)
		}
		l := bits.Len32(c)
		return 512 + (l-10)*32 + int(c>>(l-6)&31)
	}
	for i := range leaves {
		k := bucket(leaves[i].count)
		start[k]++
		occ[k>>6] |= 1 << (k & 63)
	}
	// Each bucket in use gets its first place in keys.
	sum := uint16(0)
	for w, m := range occ {
		for m != 0 {
			k := w<<6 | bits.TrailingZeros64(m)
			m &= m - 1
			c := start[k]
			start[k] = sum
			sum += c
		}
	}
	for i := range leaves {
		c := leaves[i].count
		k := &start[bucket(c)]
		keys[*k&0xFF] = c<<8 | uint32(leaves[i].sym)
		*k++
	}
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// writeTable writes the table description of t (RFC 8878 4.2.1) into
// dst and returns its size, or 0 if t cannot be described.
func (e *Encoder) writeHuffTable(dst []byte, t *huffCTable) int {
	var w [maxHuffSymbols]uint8
	var cnt [16]uint32
	maxW := 0
	for s := 0; s < t.maxSym; s++ {
		if t.bits[s] != 0 {
			w[s] = t.log + 1 - t.bits[s]
		} else {
			w[s] = 0
		}
		cnt[w[s]]++
		maxW = max(maxW, int(w[s]))
	}
	nw := t.maxSym
	if n := e.fseWeights(dst[1:], w[:nw], &cnt, maxW); n > 1 && n < nw/2 {
		dst[0] = byte(n)
		return n + 1
	}
	if nw > huffDirectLimit {
		return 0
	}
	dst[0] = byte(127 + nw)
	w[nw] = 0
	for i := 0; i < nw; i += 2 {
		dst[1+i/2] = w[i]<<4 | w[i+1]
	}
	return 1 + (nw+1)/2
}

// fseWeights FSE-codes the weights with two interleaved states as every
// zstd decoder expects, returning 0 when that does not pay.
func (e *Encoder) fseWeights(dst []byte, w []uint8, cnt *[16]uint32, maxW int) int {
	n := len(w)
	if n <= 2 {
		return 0
	}
	largest := uint32(0)
	for _, c := range cnt[:maxW+1] {
		largest = max(largest, c)
	}
	if int(largest) == n || largest == 1 {
		return 0
	}
	log := optimalTableLog(huffWeightsLog, n, maxW, 2)
	var norm [16]int16
	normalizeCount(norm[:], log, cnt[:], n, maxW, false)
	hs := writeNCount(e.ncountBuf[:], norm[:], maxW, log)
	t := &e.wtTable
	t.build(norm[:maxW+1], uint8(log))
	var bw bitWriter
	bw.reset(e.wtBuf[:])
	var s1, s2 fseState
	// Symbol i goes through state 1 when i is even: the decoder starts
	// with state 1 on the first weight.
	st := func(i int) *fseState {
		if i&1 == 0 {
			return &s1
		}
		return &s2
	}
	st(n-1).init(t, w[n-1])
	st(n-2).init(t, w[n-2])
	for i := n - 3; i >= 0; i-- {
		st(i).encode(&bw, w[i])
		if i&3 == 0 {
			bw.flush()
		}
	}
	s2.flush(&bw)
	s1.flush(&bw)
	bs := bw.close()
	if hs+bs+1 > len(dst) {
		return 0
	}
	copy(dst, e.ncountBuf[:hs])
	copy(dst[hs:], e.wtBuf[:bs])
	return hs + bs
}

// huffStream codes src with t into dst (room for len(src)*11/8+16) as one
// stream and returns its size. Symbols go in backwards, so the decoder
// reading from the end meets the first one first.
func huffStream(dst []byte, src []byte, t *huffCTable) int {
	if n := len(src); haveSeqBitsAsm && n > 0 && len(dst) >= 2*n+8 {
		pos, acc, nb := huffStreamAsm(&dst[0], &src[0], n, &t.ce)
		return huffClose(dst, pos, acc, uint(nb))
	}
	return huffStreamFrom(dst, src, t, 0, 0, 0)
}

// huffStreamFrom codes src into a stream whose first pos bytes are in
// dst with nb (at most 7) more bits in acc, then closes it, and returns
// its size.
func huffStreamFrom(dst []byte, src []byte, t *huffCTable, pos int, acc uint64, nb uint) int {
	ce := &t.ce
	flush := func() {
		le.Store64(dst, pos, acc)
		k := nb >> 3
		pos += int(k)
		acc >>= (k << 3) & 63
		nb &= 7
	}
	put := func(s byte) {
		acc |= ce[s] << (nb & 63)
		nb += uint(ce[maxHuffSymbols+int(s)])
	}
	// As many codes go in between flushes as the 57 bits a flush leaves
	// free hold: 7 of at most 8 bits, 5 of at most 11 (the longest). The
	// stream is the same whatever the grouping; fewer flushes cost less.
	i := len(src)
	if t.log <= 8 {
		for i%7 != 0 {
			i--
			put(src[i])
		}
		flush()
		for ; i >= 7; i -= 7 {
			q := src[i-7 : i]
			put(q[6])
			put(q[5])
			put(q[4])
			put(q[3])
			put(q[2])
			put(q[1])
			put(q[0])
			flush()
		}
	} else {
		for i%5 != 0 {
			i--
			put(src[i])
		}
		flush()
		for ; i >= 5; i -= 5 {
			q := src[i-5 : i]
			put(q[4])
			put(q[3])
			put(q[2])
			put(q[1])
			put(q[0])
			flush()
		}
	}
	return huffClose(dst, pos, acc, nb)
}

// huffClose ends a stream of pos bytes and nb (at most 7) bits in acc
// with its closing bit and returns its size.
func huffClose(dst []byte, pos int, acc uint64, nb uint) int {
	acc |= 1 << (nb & 63)
	nb++
	le.Store64(dst, pos, acc)
	return pos + int(nb+7)>>3
}

// huffPair is what huffPairAsm leaves of its two streams: the bytes
// written, and the bits (at most 7) still in each accumulator.
type huffPair struct {
	posA, posB int
	accA, accB uint64
	nbA, nbB   uint64
}

// huffStreams codes src with t as one stream or four behind a jump table
// and returns the size, or 0 if four streams cannot be written.
func huffStreams(dst []byte, src []byte, t *huffCTable, four bool) int {
	if !four {
		return huffStream(dst, src, t)
	}
	if len(src) < 12 {
		return 0
	}
	seg := (len(src) + 3) / 4
	if haveSeqBitsAsm && len(dst) >= 6+4*(2*seg+8) {
		return huffStreamsPaired(dst, src, t, seg)
	}
	pos := 6
	for k := 0; k < 4; k++ {
		part := src[min(k*seg, len(src)):min((k+1)*seg, len(src))]
		n := huffStream(dst[pos:], part, t)
		if k < 3 {
			if n > 0xFFFF {
				return 0
			}
			binary.LittleEndian.PutUint16(dst[2*k:], uint16(n))
		}
		pos += n
	}
	return pos
}

// huffStreamsPaired writes huffStreams' four streams two at a time
// (huffPairAsm): the second of a pair goes 2*seg+8 bytes past the first,
// then moves down behind it. Parts are seg long but the last, which is
// up to 3 shorter (src has at least 12 bytes): its pair runs over the
// shorter length, and the first part's first few literals, which go in
// last, are coded after.
func huffStreamsPaired(dst []byte, src []byte, t *huffCTable, seg int) int {
	pos := 6
	gap := 2*seg + 8
	for k := 0; k < 4; k += 2 {
		a := src[k*seg : (k+1)*seg]
		b := src[(k+1)*seg : min((k+2)*seg, len(src))]
		d := len(a) - len(b)
		var st huffPair
		huffPairAsm(&dst[pos], &dst[pos+gap], &a[d], &b[0], len(b), &t.ce, &st)
		na := huffStreamFrom(dst[pos:], a[:d], t, st.posA, st.accA, uint(st.nbA))
		nb := huffClose(dst[pos+gap:], st.posB, st.accB, uint(st.nbB))
		if na > 0xFFFF || (k == 0 && nb > 0xFFFF) {
			return 0
		}
		binary.LittleEndian.PutUint16(dst[2*k:], uint16(na))
		if k == 0 {
			binary.LittleEndian.PutUint16(dst[2:], uint16(nb))
		}
		copy(dst[pos+na:], dst[pos+gap:pos+gap+nb])
		pos += na + nb
	}
	return pos
}
