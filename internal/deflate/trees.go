package deflate

import "github.com/goblosc/blosc/internal/le"

// The deflate alphabets and zlib's trees.c: Huffman trees built with a
// heap whose ties go to the shallower subtree, lengths limited as
// gen_bitlen limits them, and the block type chosen from the lengths.

const (
	literals  = 256
	endBlock  = 256
	lCodes    = literals + 1 + 29
	dCodes    = 30
	blCodes   = 19
	heapSize  = 2*lCodes + 1
	maxBits   = 15
	maxBLBits = 7
	rep3to6   = 16
	repz3to10 = 17
	repz11to  = 18
)

var (
	extraLBits  = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	extraDBits  = [dCodes]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	extraBLBits = [blCodes]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7}
	blOrder     = [blCodes]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

	lengthCode [256]uint8 // match length - 3 -> length code (0..28)
	baseLength [29]uint16
	distCodes  [512]uint8 // distance - 1 -> code, for <256 and then >>7
	baseDist   [dCodes]uint16

	staticLLen  [lCodes + 2]uint8
	staticLCode [lCodes + 2]uint16
	staticDCode [dCodes]uint16
)

func init() {
	length := 0
	for code := 0; code < 28; code++ {
		baseLength[code] = uint16(length)
		for n := 0; n < 1<<extraLBits[code]; n++ {
			lengthCode[length] = uint8(code)
			length++
		}
	}
	// Length 258 has two encodings; zlib takes code 285, the shorter.
	lengthCode[length-1] = 28
	baseLength[28] = 255
	dist := 0
	for code := 0; code < 16; code++ {
		baseDist[code] = uint16(dist)
		for n := 0; n < 1<<extraDBits[code]; n++ {
			distCodes[dist] = uint8(code)
			dist++
		}
	}
	dist >>= 7
	for code := 16; code < dCodes; code++ {
		baseDist[code] = uint16(dist << 7)
		for n := 0; n < 1<<(extraDBits[code]-7); n++ {
			distCodes[256+dist] = uint8(code)
			dist++
		}
	}
	var count [maxBits + 1]int
	for n := range staticLLen {
		switch {
		case n < 144:
			staticLLen[n] = 8
		case n < 256:
			staticLLen[n] = 9
		case n < 280:
			staticLLen[n] = 7
		default:
			staticLLen[n] = 8
		}
		count[staticLLen[n]]++
	}
	var lens [lCodes + 2]uint16
	for n := range lens {
		lens[n] = uint16(staticLLen[n])
	}
	genCodes(staticLCode[:], lens[:], len(lens)-1, &count)
	for n := range staticDCode {
		staticDCode[n] = reverse(uint16(n), 5)
	}
}

// distCode is d_code: the code of distance-1.
func distCode(d int) int {
	if d < 256 {
		return int(distCodes[d])
	}
	return int(distCodes[256+d>>7])
}

func reverse(code uint16, n int) uint16 {
	var r uint16
	for ; n > 0; n-- {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

// genCodes is gen_codes: canonical codes from lengths, bit-reversed for
// an LSB-first writer.
func genCodes(code, length []uint16, maxCode int, count *[maxBits + 1]int) {
	var next [maxBits + 1]uint16
	c := 0
	for b := 1; b <= maxBits; b++ {
		c = (c + count[b-1]) << 1
		next[b] = uint16(c)
	}
	for n := 0; n <= maxCode; n++ {
		l := int(length[n])
		if l == 0 {
			continue
		}
		code[n] = reverse(next[l], l)
		next[l]++
	}
}

// trees holds one block's frequencies and the trees built from them.
// Arrays hold leaves then internal nodes, as zlib's ct_data arrays do.
type trees struct {
	lfreq [heapSize]uint32
	llen  [heapSize]uint16
	lcode [heapSize]uint16
	ldad  [heapSize]uint16
	dfreq [2*dCodes + 1]uint32
	dlen  [2*dCodes + 1]uint16
	dcode [2*dCodes + 1]uint16
	ddad  [2*dCodes + 1]uint16
	bfreq [2*blCodes + 1]uint32
	blen  [2*blCodes + 1]uint16
	bcode [2*blCodes + 1]uint16
	bdad  [2*blCodes + 1]uint16

	lmax, dmax int

	heap            [heapSize]int
	depth           [heapSize]uint8
	heapLen         int
	heapMax         int
	count           [maxBits + 1]int
	optLen, statLen int
}

// treeDesc names one tree's arrays and its static_tree_desc.
type treeDesc struct {
	freq      []uint32
	length    []uint16
	code      []uint16
	dad       []uint16
	staticLen []uint8 // nil for the bit-length tree
	extra     []uint8
	base      int
	elems     int
	maxLength int
}

// initBlock is init_block: empty frequencies but the end-of-block code.
func (t *trees) initBlock() {
	clear(t.lfreq[:lCodes])
	clear(t.dfreq[:dCodes])
	clear(t.bfreq[:blCodes])
	t.lfreq[endBlock] = 1
	t.optLen, t.statLen = 0, 0
}

func (t *trees) smaller(f []uint32, n, m int) bool {
	return f[n] < f[m] || (f[n] == f[m] && t.depth[n] <= t.depth[m])
}

func (t *trees) downHeap(f []uint32, k int) {
	v := t.heap[k]
	j := k << 1
	for j <= t.heapLen {
		if j < t.heapLen && t.smaller(f, t.heap[j+1], t.heap[j]) {
			j++
		}
		if t.smaller(f, v, t.heap[j]) {
			break
		}
		t.heap[k] = t.heap[j]
		k = j
		j <<= 1
	}
	t.heap[k] = v
}

// buildTree is build_tree: it returns the largest code with a nonzero
// frequency and adds the tree's cost to optLen and statLen.
func (t *trees) buildTree(d *treeDesc) int {
	f := d.freq
	t.heapLen, t.heapMax = 0, heapSize
	maxCode := -1
	for n := 0; n < d.elems; n++ {
		if f[n] != 0 {
			t.heapLen++
			t.heap[t.heapLen] = n
			maxCode = n
			t.depth[n] = 0
		} else {
			d.length[n] = 0
		}
	}
	// At least two codes, so that a lone symbol still costs one bit.
	for t.heapLen < 2 {
		node := 0
		if maxCode < 2 {
			maxCode++
			node = maxCode
		}
		t.heapLen++
		t.heap[t.heapLen] = node
		f[node] = 1
		t.depth[node] = 0
		t.optLen--
		if d.staticLen != nil {
			t.statLen -= int(d.staticLen[node])
		}
	}
	for n := t.heapLen / 2; n >= 1; n-- {
		t.downHeap(f, n)
	}
	node := d.elems
	for {
		n := t.heap[1]
		t.heap[1] = t.heap[t.heapLen]
		t.heapLen--
		t.downHeap(f, 1)
		m := t.heap[1]
		t.heapMax--
		t.heap[t.heapMax] = n
		t.heapMax--
		t.heap[t.heapMax] = m
		f[node] = f[n] + f[m]
		t.depth[node] = max(t.depth[n], t.depth[m]) + 1
		d.dad[n], d.dad[m] = uint16(node), uint16(node)
		t.heap[1] = node
		node++
		t.downHeap(f, 1)
		if t.heapLen < 2 {
			break
		}
	}
	t.heapMax--
	t.heap[t.heapMax] = t.heap[1]
	t.genBitlen(d, maxCode)
	genCodes(d.code, d.length, maxCode, &t.count)
	return maxCode
}

// genBitlen is gen_bitlen: lengths from depths, then zlib's repair when
// some exceed maxLength, then the lengths' cost.
func (t *trees) genBitlen(d *treeDesc, maxCode int) {
	f, length := d.freq, d.length
	clear(t.count[:])
	overflow := 0
	length[t.heap[t.heapMax]] = 0
	for h := t.heapMax + 1; h < heapSize; h++ {
		n := t.heap[h]
		b := int(length[d.dad[n]]) + 1
		if b > d.maxLength {
			b = d.maxLength
			overflow++
		}
		length[n] = uint16(b)
		if n > maxCode {
			continue
		}
		t.count[b]++
		xbits := 0
		if n >= d.base {
			xbits = int(d.extra[n-d.base])
		}
		t.optLen += int(f[n]) * (b + xbits)
		if d.staticLen != nil {
			t.statLen += int(f[n]) * (int(d.staticLen[n]) + xbits)
		}
	}
	if overflow == 0 {
		return
	}
	for overflow > 0 {
		b := d.maxLength - 1
		for t.count[b] == 0 {
			b--
		}
		t.count[b]--
		t.count[b+1] += 2
		t.count[d.maxLength]--
		overflow -= 2
	}
	h := heapSize
	for b := d.maxLength; b != 0; b-- {
		n := t.count[b]
		for n != 0 {
			h--
			m := t.heap[h]
			if m > maxCode {
				continue
			}
			if int(length[m]) != b {
				t.optLen += (b - int(length[m])) * int(f[m])
				length[m] = uint16(b)
			}
			n--
		}
	}
}

// scanTree is scan_tree: count the code-length codes one tree's lengths
// will be sent with.
func (t *trees) scanTree(length []uint16, maxCode int) {
	prevLen, count := -1, 0
	nextLen := int(length[0])
	maxCount, minCount := 7, 4
	if nextLen == 0 {
		maxCount, minCount = 138, 3
	}
	length[maxCode+1] = 0xffff // guard
	for n := 0; n <= maxCode; n++ {
		curLen := nextLen
		nextLen = int(length[n+1])
		count++
		if count < maxCount && curLen == nextLen {
			continue
		} else if count < minCount {
			t.bfreq[curLen] += uint32(count)
		} else if curLen != 0 {
			if curLen != prevLen {
				t.bfreq[curLen]++
			}
			t.bfreq[rep3to6]++
		} else if count <= 10 {
			t.bfreq[repz3to10]++
		} else {
			t.bfreq[repz11to]++
		}
		count, prevLen = 0, curLen
		switch {
		case nextLen == 0:
			maxCount, minCount = 138, 3
		case curLen == nextLen:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}

func (t *trees) descs() (l, d, b treeDesc) {
	l = treeDesc{t.lfreq[:], t.llen[:], t.lcode[:], t.ldad[:], staticLLen[:], extraLBits[:], literals + 1, lCodes, maxBits}
	d = treeDesc{t.dfreq[:], t.dlen[:], t.dcode[:], t.ddad[:], staticDLen[:], extraDBits[:], 0, dCodes, maxBits}
	b = treeDesc{t.bfreq[:], t.blen[:], t.bcode[:], t.bdad[:], nil, extraBLBits[:], 0, blCodes, maxBLBits}
	return
}

var staticDLen = [dCodes]uint8{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}

// flushTrees is _tr_flush_block for a block of storedLen input bytes
// (stored holds them when haveStored), then init_block.
func (e *Encoder) flushTrees(stored []byte, haveStored bool, storedLen int, last bool) {
	t := &e.trees
	ld, dd, bd := t.descs()
	t.lmax = t.buildTree(&ld)
	t.dmax = t.buildTree(&dd)
	t.scanTree(t.llen[:], t.lmax)
	t.scanTree(t.dlen[:], t.dmax)
	t.buildTree(&bd)
	maxBLIndex := blCodes - 1
	for ; maxBLIndex >= 3; maxBLIndex-- {
		if t.blen[blOrder[maxBLIndex]] != 0 {
			break
		}
	}
	t.optLen += 3*(maxBLIndex+1) + 5 + 5 + 4
	optLenb := (t.optLen + 3 + 7) >> 3
	staticLenb := (t.statLen + 3 + 7) >> 3
	if staticLenb <= optLenb {
		optLenb = staticLenb
	}
	lastBit := uint64(0)
	if last {
		lastBit = 1
	}
	w := &e.out
	switch {
	case storedLen+4 <= optLenb && haveStored:
		if !w.room(storedLen + 4) {
			break
		}
		w.putBits(lastBit, 3)
		w.alignByte()
		w.putByteAligned(byte(storedLen), byte(storedLen>>8), ^byte(storedLen), ^byte(storedLen>>8))
		w.n += copy(w.buf[w.n:], stored)
	case staticLenb == optLenb:
		if !w.room(staticLenb - 1) {
			break
		}
		w.putBits(2+lastBit, 3)
		e.compressBlock(staticLCode[:], staticLLen[:], staticDCode[:], staticDLen[:])
	default:
		if !w.room(optLenb - 1) {
			break
		}
		w.putBits(4+lastBit, 3)
		e.sendAllTrees(t.lmax+1, t.dmax+1, maxBLIndex+1)
		var ll [lCodes + 2]uint8
		for i := range ll {
			ll[i] = uint8(t.llen[i])
		}
		var dl [dCodes]uint8
		for i := range dl {
			dl[i] = uint8(t.dlen[i])
		}
		e.compressBlock(t.lcode[:], ll[:], t.dcode[:], dl[:])
	}
	t.initBlock()
	e.nsym = 0
	if last && !w.fail {
		w.alignByte()
	}
}

func (e *Encoder) sendAllTrees(lcodes, dcodes, blcodes int) {
	w := &e.out
	t := &e.trees
	w.putBits(uint64(lcodes-257), 5)
	w.putBits(uint64(dcodes-1), 5)
	w.putBits(uint64(blcodes-4), 4)
	for r := 0; r < blcodes; r++ {
		w.putBits(uint64(t.blen[blOrder[r]]), 3)
	}
	e.sendTree(t.llen[:], lcodes-1)
	e.sendTree(t.dlen[:], dcodes-1)
}

// sendTree is send_tree; scanTree left the guard after maxCode.
func (e *Encoder) sendTree(length []uint16, maxCode int) {
	w := &e.out
	t := &e.trees
	send := func(c int) { w.putBits(uint64(t.bcode[c]), uint(t.blen[c])) }
	prevLen, count := -1, 0
	nextLen := int(length[0])
	maxCount, minCount := 7, 4
	if nextLen == 0 {
		maxCount, minCount = 138, 3
	}
	for n := 0; n <= maxCode; n++ {
		curLen := nextLen
		nextLen = int(length[n+1])
		count++
		if count < maxCount && curLen == nextLen {
			continue
		} else if count < minCount {
			for ; count != 0; count-- {
				send(curLen)
			}
		} else if curLen != 0 {
			if curLen != prevLen {
				send(curLen)
				count--
			}
			send(rep3to6)
			w.putBits(uint64(count-3), 2)
		} else if count <= 10 {
			send(repz3to10)
			w.putBits(uint64(count-3), 3)
		} else {
			send(repz11to)
			w.putBits(uint64(count-11), 7)
		}
		count, prevLen = 0, curLen
		switch {
		case nextLen == 0:
			maxCount, minCount = 138, 3
		case curLen == nextLen:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}

// compressBlock is compress_block: the buffered symbols, then the end of
// the block.
func (e *Encoder) compressBlock(lcode []uint16, llen []uint8, dcode []uint16, dlen []uint8) {
	w := &e.out
	lcode, llen = lcode[:lCodes], llen[:lCodes]
	dcode, dlen = dcode[:dCodes], dlen[:dCodes]
	for _, s := range e.syms[:e.nsym] {
		lc := int(s & 0xff)
		dist := int(s >> 8)
		if dist == 0 {
			w.putBits(uint64(lcode[lc]), uint(llen[lc]))
			continue
		}
		code := int(lengthCode[lc])
		v := uint64(lcode[code+literals+1])
		nb := uint(llen[code+literals+1])
		if x := extraLBits[code]; x != 0 {
			v |= uint64(lc-int(baseLength[code])) << nb
			nb += uint(x)
		}
		dist--
		dc := distCode(dist)
		v |= uint64(dcode[dc]) << nb
		nb += uint(dlen[dc])
		if x := extraDBits[dc]; x != 0 {
			v |= uint64(dist-int(baseDist[dc])) << nb
			nb += uint(x)
		}
		w.putBits(v, nb)
	}
	w.putBits(uint64(lcode[endBlock]), uint(llen[endBlock]))
}

// bitWriter writes bits LSB first into a fixed buffer and sets fail
// instead of writing past its end.
type bitWriter struct {
	buf   []byte
	n     int
	acc   uint64
	nbits uint
	fail  bool
}

// room fails the writer when fewer than n bytes are left: every block's
// size is known before it is written, so a stream that cannot fit stops
// before its block is encoded. n must not exceed what the block needs.
func (w *bitWriter) room(n int) bool {
	if w.fail || len(w.buf)-w.n < n {
		w.fail = true
		return false
	}
	return true
}

// putBits appends the low nb bits of v; nb is at most 48. Fewer than 16
// bits are pending between calls, so the sum fits the accumulator.
func (w *bitWriter) putBits(v uint64, nb uint) {
	w.acc |= v << w.nbits
	w.nbits += nb
	if w.nbits >= 16 {
		w.spill()
	}
}

func (w *bitWriter) spill() {
	for w.nbits >= 8 {
		if w.n+8 <= len(w.buf) {
			le.Store64(w.buf, w.n, w.acc)
			k := w.nbits >> 3
			w.n += int(k)
			w.acc >>= k * 8
			w.nbits -= k * 8
			return
		}
		if w.n >= len(w.buf) {
			w.fail = true
			w.acc, w.nbits = 0, 0
			return
		}
		w.buf[w.n] = byte(w.acc)
		w.n++
		w.acc >>= 8
		w.nbits -= 8
	}
}

// alignByte writes the pending bits and pads to a byte boundary with
// zeros (bi_windup).
func (w *bitWriter) alignByte() {
	w.nbits = (w.nbits + 7) &^ 7
	w.spill()
}

func (w *bitWriter) putByteAligned(b ...byte) {
	for _, c := range b {
		if w.n >= len(w.buf) {
			w.fail = true
			return
		}
		w.buf[w.n] = c
		w.n++
	}
}
