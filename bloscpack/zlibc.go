package bloscpack

import (
	"encoding/binary"
	"hash/adler32"
)

// zlibC compresses a small document exactly as C zlib's compress2 does at
// levels 4 to 9 (the reference compresses its metadata with Python's
// zlib.compress, level 6 by default), so that files with compressed
// metadata can be byte-identical to the reference's. It models zlib's
// deflate_slow (lazy matching on hash chains, with the level's good, lazy,
// nice and chain limits) and its choice of block type. It returns ok =
// false where that choice is a dynamic-Huffman block (larger documents),
// which it does not write, and for other levels; the caller then falls
// back to compress/zlib, whose bytes differ but decode the same.
func zlibC(data []byte, level int) (out []byte, ok bool) {
	const (
		minMatch  = 3
		maxMatch  = 258
		wSize     = 1 << 15
		hashBits  = 15
		hashMask  = 1<<hashBits - 1
		hashShift = (hashBits + minMatch - 1) / minMatch
		tooFar    = 4096
	)
	// zlib's configuration_table for the levels that use deflate_slow.
	var goodMatch, lazyMatch, niceMatch, maxChain int
	flg := byte(0x5e)
	switch level {
	case 4:
		goodMatch, lazyMatch, niceMatch, maxChain = 4, 4, 16, 16
	case 5:
		goodMatch, lazyMatch, niceMatch, maxChain = 8, 16, 32, 32
	case 6:
		goodMatch, lazyMatch, niceMatch, maxChain, flg = 8, 16, 128, 128, 0x9c
	case 7:
		goodMatch, lazyMatch, niceMatch, maxChain, flg = 8, 32, 128, 256, 0xda
	case 8:
		goodMatch, lazyMatch, niceMatch, maxChain, flg = 32, 128, 258, 1024, 0xda
	case 9:
		goodMatch, lazyMatch, niceMatch, maxChain, flg = 32, 258, 258, 4096, 0xda
	default:
		return nil, false
	}
	n := len(data)
	// One block of fewer than lit_bufsize-1 symbols, all in the window:
	// no flush before the end, no window slide.
	if n > 8000 {
		return nil, false
	}
	win := make([]byte, n+maxMatch+8) // zlib zeroes what follows the data
	copy(win, data)
	head := make([]uint32, 1<<hashBits)
	prev := make([]uint32, wSize)
	var insH uint32
	update := func(c byte) { insH = (insH<<hashShift ^ uint32(c)) & hashMask }
	insert := func(s int) uint32 {
		update(win[s+minMatch-1])
		h := head[insH]
		prev[s&(wSize-1)] = h
		head[insH] = uint32(s)
		return h
	}
	if n >= minMatch {
		insH = uint32(win[0])
		update(win[1])
	}

	type sym struct{ dist, lc int } // dist 0: literal lc
	var syms []sym
	var lfreq [286 + 2]int
	var dfreq [30 + 2]int
	lfreq[256] = 1
	tallyLit := func(c byte) { syms = append(syms, sym{0, int(c)}); lfreq[c]++ }
	tallyDist := func(dist, lc int) {
		syms = append(syms, sym{dist, lc})
		lfreq[lengthCode(lc)+257]++
		dfreq[distCode(dist-1)]++
	}

	strstart, lookahead := 0, n
	matchLength, prevLength := minMatch-1, minMatch-1
	matchStart, prevMatch := 0, 0
	matchAvailable := false
	longest := func(cur uint32) int {
		chain := maxChain
		best := prevLength
		nice := niceMatch
		limit := 0
		if strstart > wSize-maxMatch-minMatch-1 {
			limit = strstart - (wSize - maxMatch - minMatch - 1)
		}
		if prevLength >= goodMatch {
			chain >>= 2
		}
		if nice > lookahead {
			nice = lookahead
		}
		s := strstart
		for {
			m := int(cur)
			if win[m+best] == win[s+best] && win[m+best-1] == win[s+best-1] && win[m] == win[s] && win[m+1] == win[s+1] {
				// Bytes 2 agree by the hash; compare from 3 on.
				l := 3
				for l < maxMatch && win[s+l] == win[m+l] {
					l++
				}
				if l > best {
					matchStart, best = m, l
					if l >= nice {
						break
					}
				}
			}
			cur = prev[cur&(wSize-1)]
			chain--
			if int(cur) <= limit || chain == 0 {
				break
			}
		}
		if best <= lookahead {
			return best
		}
		return lookahead
	}
	for lookahead > 0 {
		var hashHead uint32
		if lookahead >= minMatch {
			hashHead = insert(strstart)
		}
		prevLength, prevMatch = matchLength, matchStart
		matchLength = minMatch - 1
		if hashHead != 0 && prevLength < lazyMatch && strstart-int(hashHead) <= wSize-maxMatch-minMatch-1 {
			matchLength = longest(hashHead)
			if matchLength <= 5 && matchLength == minMatch && strstart-matchStart > tooFar {
				matchLength = minMatch - 1
			}
		}
		switch {
		case prevLength >= minMatch && matchLength <= prevLength:
			maxInsert := strstart + lookahead - minMatch
			tallyDist(strstart-1-prevMatch, prevLength-minMatch)
			lookahead -= prevLength - 1
			for k := prevLength - 2; k > 0; k-- {
				strstart++
				if strstart <= maxInsert {
					insert(strstart)
				}
			}
			matchAvailable = false
			matchLength = minMatch - 1
			strstart++
		case matchAvailable:
			tallyLit(win[strstart-1])
			strstart++
			lookahead--
		default:
			matchAvailable = true
			strstart++
			lookahead--
		}
	}
	if matchAvailable {
		tallyLit(win[strstart-1])
	}

	// zlib's _tr_flush_block: the dynamic block's exact size decides.
	optLen, staticLen := 0, 0
	lmax := buildTree(lfreq[:286], staticLitLen, lExtra, 257, 15, &optLen, &staticLen)
	dmax := buildTree(dfreq[:30], staticDistLen, dExtra, 0, 15, &optLen, &staticLen)
	var blfreq [19]int
	scanTree(lmax.lens, lmax.maxCode, &blfreq)
	scanTree(dmax.lens, dmax.maxCode, &blfreq)
	bl := buildTree(blfreq[:], nil, blExtra, 0, 7, &optLen, nil)
	maxBlindex := 18
	for ; maxBlindex >= 3; maxBlindex-- {
		if bl.lens[blOrder[maxBlindex]] != 0 {
			break
		}
	}
	optLen += 3*(maxBlindex+1) + 5 + 5 + 4
	optLenb := (optLen + 3 + 7) >> 3
	staticLenb := (staticLen + 3 + 7) >> 3
	if staticLenb <= optLenb {
		optLenb = staticLenb
	}
	var bw bitWriter
	bw.out = []byte{0x78, flg}
	switch {
	case n+4 <= optLenb:
		bw.bits(1, 3) // stored, last
		bw.windup()
		bw.out = binary.LittleEndian.AppendUint16(bw.out, uint16(n))
		bw.out = binary.LittleEndian.AppendUint16(bw.out, ^uint16(n))
		bw.out = append(bw.out, data...)
	case staticLenb == optLenb:
		bw.bits(3, 3) // fixed Huffman, last
		for _, s := range syms {
			if s.dist == 0 {
				bw.code(staticLit(s.lc))
				continue
			}
			c := lengthCode(s.lc)
			bw.code(staticLit(c + 257))
			if e := lExtra[c]; e > 0 {
				bw.bits(uint32(s.lc-lengthBase[c]), e)
			}
			d := distCode(s.dist - 1)
			bw.code(reverse(uint32(d), 5), 5)
			if e := dExtra[d]; e > 0 {
				bw.bits(uint32(s.dist-1-distBase[d]), e)
			}
		}
		bw.code(staticLit(256))
		bw.windup()
	default:
		return nil, false
	}
	return binary.BigEndian.AppendUint32(bw.out, adler32.Checksum(data)), true
}

var (
	lExtra     = []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	lengthBase = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255}
	dExtra     = []int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	distBase   = []int{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576}
	blExtra    = []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7}
	blOrder    = []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

// lengthCode maps match length - 3 to its code (0..28); 258 has its own.
func lengthCode(lc int) int {
	if lc == 255 {
		return 28
	}
	c := 0
	for c+1 < 28 && lengthBase[c+1] <= lc {
		c++
	}
	return c
}

// distCode maps distance - 1 to its code.
func distCode(d int) int {
	c := 0
	for c+1 < 30 && distBase[c+1] <= d {
		c++
	}
	return c
}

func staticLitLen(n int) int {
	switch {
	case n < 144:
		return 8
	case n < 256:
		return 9
	case n < 280:
		return 7
	}
	return 8
}

func staticDistLen(int) int { return 5 }

// staticLit returns the fixed-Huffman code of a literal/length symbol,
// bit-reversed for LSB-first output, and its length.
func staticLit(n int) (uint32, int) {
	var code, l int
	switch {
	case n < 144:
		code, l = 0x30+n, 8
	case n < 256:
		code, l = 0x190+n-144, 9
	case n < 280:
		code, l = n-256, 7
	default:
		code, l = 0xc0+n-280, 8
	}
	return reverse(uint32(code), l), l
}

func reverse(c uint32, l int) uint32 {
	var r uint32
	for i := 0; i < l; i++ {
		r = r<<1 | c&1
		c >>= 1
	}
	return r
}

type bitWriter struct {
	out  []byte
	acc  uint64
	nacc int
}

func (w *bitWriter) bits(v uint32, n int) {
	w.acc |= uint64(v) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) code(c uint32, n int) { w.bits(c, n) }

func (w *bitWriter) windup() {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	w.acc, w.nacc = 0, 0
}

type treeResult struct {
	lens    []int
	maxCode int
}

// buildTree is zlib's build_tree and gen_bitlen, for the code lengths and
// the bits they cost (added to *optLen, and the static tree's cost to
// *staticLen): the same heap, tie-breaks on depth and length limiting.
func buildTree(freqIn []int, stree func(int) int, extra []int, base, maxLength int, optLen, staticLen *int) treeResult {
	elems := len(freqIn)
	const heapSize = 2*286 + 1
	nodes := 2*elems + 1
	freq := make([]int, nodes+1)
	copy(freq, freqIn)
	dad := make([]int, nodes+1)
	blen := make([]int, nodes+2)
	depth := make([]int, nodes+1)
	heap := make([]int, heapSize)
	heapLen, heapMax := 0, heapSize
	maxCode := -1
	for i := 0; i < elems; i++ {
		if freq[i] != 0 {
			heapLen++
			heap[heapLen] = i
			maxCode = i
			depth[i] = 0
		}
	}
	for heapLen < 2 {
		node := 0
		if maxCode < 2 {
			maxCode++
			node = maxCode
		}
		heapLen++
		heap[heapLen] = node
		freq[node] = 1
		depth[node] = 0
		*optLen--
		if stree != nil {
			*staticLen -= stree(node)
		}
	}
	smaller := func(a, b int) bool {
		return freq[a] < freq[b] || (freq[a] == freq[b] && depth[a] <= depth[b])
	}
	down := func(k int) {
		v := heap[k]
		j := k << 1
		for j <= heapLen {
			if j < heapLen && smaller(heap[j+1], heap[j]) {
				j++
			}
			if smaller(v, heap[j]) {
				break
			}
			heap[k] = heap[j]
			k = j
			j <<= 1
		}
		heap[k] = v
	}
	for k := heapLen / 2; k >= 1; k-- {
		down(k)
	}
	node := elems
	for {
		nn := heap[1]
		heap[1] = heap[heapLen]
		heapLen--
		down(1)
		m := heap[1]
		heapMax--
		heap[heapMax] = nn
		heapMax--
		heap[heapMax] = m
		freq[node] = freq[nn] + freq[m]
		depth[node] = max(depth[nn], depth[m]) + 1
		dad[nn], dad[m] = node, node
		heap[1] = node
		node++
		down(1)
		if heapLen < 2 {
			break
		}
	}
	heapMax--
	heap[heapMax] = heap[1]

	// gen_bitlen
	var blCount [16]int
	blen[heap[heapMax]] = 0
	overflow := 0
	h := heapMax + 1
	for ; h < heapSize; h++ {
		n := heap[h]
		bits := blen[dad[n]] + 1
		if bits > maxLength {
			bits = maxLength
			overflow++
		}
		blen[n] = bits
		if n > maxCode {
			continue
		}
		blCount[bits]++
		xbits := 0
		if n >= base && n-base < len(extra) {
			xbits = extra[n-base]
		}
		*optLen += freq[n] * (bits + xbits)
		if stree != nil {
			*staticLen += freq[n] * (stree(n) + xbits)
		}
	}
	if overflow > 0 {
		for overflow > 0 {
			bits := maxLength - 1
			for blCount[bits] == 0 {
				bits--
			}
			blCount[bits]--
			blCount[bits+1] += 2
			blCount[maxLength]--
			overflow -= 2
		}
		h = heapSize
		for bits := maxLength; bits != 0; bits-- {
			n := blCount[bits]
			for n != 0 {
				h--
				m := heap[h]
				if m > maxCode {
					continue
				}
				if blen[m] != bits {
					*optLen += (bits - blen[m]) * freq[m]
					blen[m] = bits
				}
				n--
			}
		}
	}
	lens := make([]int, elems+1)
	for i := 0; i <= maxCode; i++ {
		if freqIn[i] != 0 || freq[i] != 0 {
			lens[i] = blen[i]
		}
	}
	return treeResult{lens: lens, maxCode: maxCode}
}

// scanTree is zlib's scan_tree: the code-length alphabet's frequencies.
func scanTree(lens []int, maxCode int, blfreq *[19]int) {
	prevlen, nextlen := -1, lens[0]
	count, maxCount, minCount := 0, 7, 4
	if nextlen == 0 {
		maxCount, minCount = 138, 3
	}
	get := func(i int) int {
		if i == maxCode+1 {
			return 0xffff // zlib's guard
		}
		return lens[i]
	}
	for n := 0; n <= maxCode; n++ {
		curlen := nextlen
		nextlen = get(n + 1)
		count++
		if count < maxCount && curlen == nextlen {
			continue
		}
		switch {
		case count < minCount:
			blfreq[curlen] += count
		case curlen != 0:
			if curlen != prevlen {
				blfreq[curlen]++
			}
			blfreq[16]++
		case count <= 10:
			blfreq[17]++
		default:
			blfreq[18]++
		}
		count, prevlen = 0, curlen
		switch {
		case nextlen == 0:
			maxCount, minCount = 138, 3
		case curlen == nextlen:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}
