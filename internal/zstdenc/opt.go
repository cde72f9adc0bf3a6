package zstdenc

// The optimal parser, libzstd 1.5.4's btopt, btultra and btultra2
// (ZSTD_compressBlock_opt_generic): from each position it prices every
// way to reach the positions ahead (a literal, or any match the tree
// offers at a position already reached), with prices from statistics of
// the symbols the block has coded so far, and keeps the cheapest path.
// When a match is longer than the target length, or the window of
// optNum positions is full, the cheapest path so far is stored.

// Prices are in 1/256 of a bit.
const (
	bitCost  = 256
	maxPrice = 1 << 30
	// libzstd prices a frame whose first block has at most this many
	// bytes with fixed guesses (ZSTD_PREDEF_THRESHOLD). Its parser, as
	// this one, stops 8 bytes before a block's end, so it never asks
	// for those prices: here there are none. btultra2's first pass
	// skips such a block too.
	predefThreshold = 8
	// A literal counts this much in the literal statistics, which so
	// follow the data faster.
	litFreqAdd = 2
)

// optNode is one position of the parser's window: the cheapest way
// found to reach it, ending with mlen bytes of a match (off its offset
// code) after litlen literals, or (mlen 0) with a literal; its price;
// and the repeat offsets after it.
type optNode struct {
	price        int
	off          uint32
	mlen, litlen uint32
	rep          [3]uint32
}

// optState is the parser's scratch and statistics, kept in the Encoder
// so that a warm encoder does not allocate.
type optState struct {
	nodes   []optNode
	matches []match
	h3      []uint32
	h3log   uint8
	th      treeHasher // the tree's hash
	touched uint32     // what the early reads of head entries read (unused)

	litFreq                         [256]uint32
	llFreq                          [llMaxSym + 1]uint32
	mlFreq                          [mlMaxSym + 1]uint32
	ofFreq                          [ofMaxSym + 1]uint32
	litSum, llSum, mlSum, ofSum     uint32
	litBase, llBase, mlBase, ofBase int // prices of the sums
	// Each length and offset code's price less its sum's price (the
	// base, added where they are used): a stored sequence changes the
	// sums, so all bases, but only its own codes' entries.
	// (64 and 32 entries, indexed by a masked code: no bounds checks.)
	llCodePrice [64]int
	mlCodePrice [64]int
	ofCodePrice [32]int
	level       int // 0 btopt, 2 btultra and btultra2
}

// treeReset prepares the tree strategies' state for a frame: the
// parser's arrays, the 3-byte hash table (cleared whenever reset cleared
// the others, which it marks by setting base to 1, whatever the level),
// the statistics.
func (e *Encoder) treeReset() {
	o := &e.opt
	o.llSum = 0 // no statistics yet: the first block sets them
	if e.base == 1 {
		// reset cleared the other tables and starts the biased
		// positions over: entries of this one could pass for new ones.
		clear(o.h3[:cap(o.h3)])
	}
	o.th = newTreeHasher(min(max(e.p.minMatch, 4), 6), e.p.hlog)
	if e.strategy < stratBtopt {
		return
	}
	o.level = 2
	if e.strategy == stratBtopt {
		o.level = 0
	}
	if len(o.nodes) == 0 {
		o.nodes = make([]optNode, optNum+1)
		o.matches = make([]match, optNum+1)
	}
	o.h3log = 0
	if e.p.minMatch == 3 {
		o.h3log = min(hash3Log, e.p.wlog)
		n := 1 << o.h3log
		if cap(o.h3) < n {
			o.h3 = make([]uint32, 1<<hash3Log)
		}
		o.h3 = o.h3[:n]
	}
}

// weight is the price of a symbol seen stat times: its bits' share
// against a total priced the same way. btopt counts whole bits,
// btultra interpolates fractions (ZSTD_bitWeight, ZSTD_fracWeight).
func (o *optState) weight(stat uint32) int {
	s := stat + 1
	hb := highbit(s)
	if o.level == 0 {
		return int(hb) * bitCost
	}
	return int(hb)*bitCost + int((s<<8)>>hb)
}

// setBasePrices prices the sums (ZSTD_setBasePrices).
func (o *optState) setBasePrices() {
	o.litBase = o.weight(o.litSum)
	o.llBase = o.weight(o.llSum)
	o.mlBase = o.weight(o.mlSum)
	o.ofBase = o.weight(o.ofSum)
}

// setAllPrices prices the sums and every length and offset code (libzstd
// prices the codes at each use, the same numbers).
func (o *optState) setAllPrices() {
	o.setBasePrices()
	for c := range llMaxSym + 1 {
		o.setLLPrice(c)
	}
	for c := range mlMaxSym + 1 {
		o.setMLPrice(c)
	}
	for c := range ofMaxSym + 1 {
		o.setOfPrice(c)
	}
}

func (o *optState) setLLPrice(c int) {
	o.llCodePrice[c] = int(llBits[c])*bitCost - o.weight(o.llFreq[c])
}

func (o *optState) setMLPrice(c int) {
	o.mlCodePrice[c] = int(mlBits[c])*bitCost - o.weight(o.mlFreq[c])
}

func (o *optState) setOfPrice(c int) {
	p := c*bitCost - o.weight(o.ofFreq[c])
	if o.level < 2 && c >= 20 {
		// btopt: far offsets are slow to decode.
		p += (c - 19) * 2 * bitCost
	}
	// Fewer sequences decode faster: a match costs a fifth of a bit
	// more.
	o.ofCodePrice[c] = p + bitCost/5
}

// downscale divides the counts by 2^shift, keeping each at least 1
// (base1) or at least 1 where it was not 0, and returns their sum.
func downscale(t []uint32, shift uint, base1 bool) uint32 {
	sum := uint32(0)
	for i, c := range t {
		b := uint32(1)
		if !base1 && c == 0 {
			b = 0
		}
		t[i] = b + c>>shift
		sum += t[i]
	}
	return sum
}

// scaleStats keeps the counts' sum near 2^logTarget.
func scaleStats(t []uint32, logTarget uint) uint32 {
	sum := uint32(0)
	for _, c := range t {
		sum += c
	}
	f := sum >> logTarget
	if f <= 1 {
		return sum
	}
	return downscale(t, highbit(f), true)
}

var (
	baseLLFreqs = [llMaxSym + 1]uint32{4, 2, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1}
	baseOFFreqs = [ofMaxSym + 1]uint32{6, 2, 1, 1, 2, 3, 4, 4,
		4, 3, 2, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1}
)

// rescale sets the statistics for a block (ZSTD_rescaleFreqs): on the
// frame's first block the literals' from the block itself and fixed
// guesses for the sequence codes; later the previous blocks' scaled
// down.
func (o *optState) rescale(src []byte) {
	if o.llSum == 0 {
		o.litFreq = [256]uint32{}
		for _, b := range src {
			o.litFreq[b]++
		}
		o.litSum = downscale(o.litFreq[:], 8, false)
		o.llFreq = baseLLFreqs
		o.llSum = 0
		for _, c := range o.llFreq {
			o.llSum += c
		}
		for i := range o.mlFreq {
			o.mlFreq[i] = 1
		}
		o.mlSum = mlMaxSym + 1
		o.ofFreq = baseOFFreqs
		o.ofSum = 0
		for _, c := range o.ofFreq {
			o.ofSum += c
		}
	} else {
		o.litSum = scaleStats(o.litFreq[:], 12)
		o.llSum = scaleStats(o.llFreq[:], 11)
		o.mlSum = scaleStats(o.mlFreq[:], 11)
		o.ofSum = scaleStats(o.ofFreq[:], 11)
	}
	o.setAllPrices()
}

// litPrice is the price of one literal byte.
func (o *optState) litPrice(b byte) int {
	w := min(o.weight(o.litFreq[b]), o.litBase-bitCost)
	return o.litBase - w
}

// llPrice is the price of a literal length's code and extra bits (a
// whole block of literals one bit more than one byte fewer).
func (o *optState) llPrice(ll uint32) int {
	p := o.llBase + o.llCodePrice[llCode(min(ll, maxBlockSize-1))&63]
	if ll >= maxBlockSize {
		p += bitCost
	}
	return p
}

// offPrice is the price of a match's offset code and extra bits, and
// mlPrice that of its length: together libzstd's ZSTD_getMatchPrice.
func (o *optState) offPrice(offBase uint32) int {
	return o.ofBase + o.ofCodePrice[highbit(offBase)&31]
}

func (o *optState) mlPrice(ml uint32) int {
	return o.mlBase + o.mlCodePrice[mlCode(ml-3)&63]
}

// update counts a stored sequence in the statistics.
func (o *optState) update(lits []byte, offBase, ml uint32) {
	for _, b := range lits {
		o.litFreq[b] += litFreqAdd
	}
	o.litSum += uint32(len(lits)) * litFreqAdd
	llc := int(llCode(uint32(len(lits))))
	o.llFreq[llc]++
	o.llSum++
	o.setLLPrice(llc)
	oc := int(highbit(offBase))
	o.ofFreq[oc]++
	o.ofSum++
	o.setOfPrice(oc)
	mlc := int(mlCode(ml - 3))
	o.mlFreq[mlc]++
	o.mlSum++
	o.setMLPrice(mlc)
}

// newRep is the repeat offsets after a sequence with offset code offBase
// (ll0: no literals before it), as the decoder updates them.
func newRep(r [3]uint32, offBase uint32, ll0 bool) [3]uint32 {
	if offBase > 3 {
		return [3]uint32{offBase - 3, r[0], r[1]}
	}
	rc := offBase - 1
	if ll0 {
		rc++
	}
	if rc == 0 {
		return r
	}
	cur := r[0] - 1
	if rc < 3 {
		cur = r[rc]
	}
	if rc >= 2 {
		return [3]uint32{cur, r[0], r[1]}
	}
	return [3]uint32{cur, r[0], r[2]}
}

// plainOffset is the distance an offset code stands for.
func plainOffset(r [3]uint32, offBase uint32, ll0 bool) uint32 {
	if offBase > 3 {
		return offBase - 3
	}
	rc := offBase - 1
	if ll0 {
		rc++
	}
	if rc == 3 {
		return r[0] - 1
	}
	return r[rc]
}

// optimal parses buf[start:end] into sequences with the optimal parser.
// btultra2 first parses the frame's first block once only to learn its
// statistics, then forgets what it entered in the tables.
func (e *Encoder) optimal(buf []byte, start, end int) {
	if e.strategy == stratBtultra2 && e.opt.llSum == 0 && start == 0 && end > predefThreshold {
		rep := e.rep
		e.optimalPass(buf, start, end, &rep)
		e.seqs = e.seqs[:0]
		e.lits = e.lits[:0]
		// Every entry so far becomes older than the frame.
		e.base += uint32(end) + 1
		e.nextUpdate = 0
	}
	rep := e.rep
	e.optimalPass(buf, start, end, &rep)
}

func (e *Encoder) optimalPass(buf []byte, start, end int, rep *[3]uint32) {
	o := &e.opt
	mls := min(max(e.p.minMatch, 3), 6)
	minMatch := uint32(4)
	if mls == 3 {
		minMatch = 3
	}
	sufficient := uint32(min(int(e.p.target), optNum-1))
	ilimit := end - 8
	next3 := e.nextUpdate
	nodes := (*[optNum + 1]optNode)(o.nodes)
	matches := o.matches
	o.rescale(buf[start:end])
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	for ip < ilimit {
		var cur, lastPos int
		var last optNode
		litlen := uint32(ip - anchor)
		ll0 := 0
		if litlen == 0 {
			ll0 = 1
		}
		nm := e.allMatches(buf, &next3, ip, end, rep, ll0, mls)
		if nm == 0 {
			ip++
			continue
		}
		nodes[0] = optNode{litlen: litlen, rep: *rep, price: o.llPrice(litlen)}
		if mx := matches[nm-1]; mx.len > sufficient {
			// Long enough: take it now.
			last = optNode{litlen: litlen, mlen: mx.len, off: mx.off}
			cur = 0
			goto store
		}
		{
			litsPrice := nodes[0].price + o.llPrice(0)
			p := uint32(1)
			for ; p < minMatch; p++ {
				nodes[p].price = maxPrice
			}
			for _, m := range matches[:nm] {
				offP := litsPrice + o.offPrice(m.off)
				for ; p <= m.len; p++ {
					nodes[p] = optNode{price: offP + o.mlPrice(p), off: m.off, mlen: p, litlen: litlen}
				}
			}
			lastPos = int(p - 1)
		}
		for cur = 1; cur <= lastPos; cur++ {
			inr := ip + cur
			nc := &nodes[cur]
			prev := &nodes[cur-1]
			{
				ll := uint32(1)
				if prev.mlen == 0 {
					ll = prev.litlen + 1
				}
				price := prev.price + o.litPrice(buf[inr-1]) + o.llPrice(ll) - o.llPrice(ll-1)
				if price <= nc.price {
					nc.mlen, nc.off, nc.litlen, nc.price = 0, 0, ll, price
				}
			}
			if nc.mlen != 0 {
				nc.rep = newRep(nodes[cur-int(nc.mlen)].rep, nc.off, nc.litlen == 0)
			} else {
				nc.rep = prev.rep
			}
			if inr > ilimit {
				continue
			}
			if cur == lastPos {
				break
			}
			if o.level == 0 && nodes[cur+1].price <= nc.price+bitCost/2 {
				continue // unpromising; libzstd skips it at btopt
			}
			ll0 := 0
			litlen := nc.litlen
			if nc.mlen != 0 {
				ll0, litlen = 1, 0
			}
			basePrice := nc.price + o.llPrice(0)
			nm := e.allMatches(buf, &next3, inr, end, &nc.rep, ll0, mls)
			if nm == 0 {
				continue
			}
			if mx := matches[nm-1]; mx.len > sufficient || cur+int(mx.len) >= optNum {
				last = optNode{mlen: mx.len, off: mx.off, litlen: litlen}
				if nc.mlen == 0 {
					cur -= int(nc.litlen)
				}
				cur = max(cur, 0)
				goto store
			}
			for k, m := range matches[:nm] {
				startML := minMatch
				if k > 0 {
					startML = matches[k-1].len + 1
				}
				offP := basePrice + o.offPrice(m.off) + o.mlBase
				for ml := m.len; ml >= startML; ml-- {
					// p is below optNum (the match ends before the
					// window's end, or was stored above): the mask
					// spares the bounds check.
					p := (cur + int(ml)) & (optNum - 1)
					price := offP + o.mlCodePrice[mlCode(ml-3)&63]
					if p > lastPos || price < nodes[p].price {
						for lastPos < p {
							lastPos++
							nodes[lastPos].price = maxPrice
						}
						nodes[p].mlen, nodes[p].off, nodes[p].litlen, nodes[p].price = ml, m.off, litlen, price
					} else if o.level == 0 {
						break
					}
				}
			}
		}
		last = nodes[lastPos]
		cur = max(lastPos-int(last.litlen+last.mlen), 0)

	store:
		{
			before := *rep
			if last.mlen != 0 {
				*rep = newRep(nodes[cur].rep, last.off, last.litlen == 0)
			} else {
				*rep = nodes[cur].rep
			}
			storeEnd := cur + 1
			storeStart := storeEnd
			nodes[storeEnd] = last
			for seqPos := cur; seqPos > 0; {
				back := int(nodes[seqPos].litlen + nodes[seqPos].mlen)
				storeStart--
				nodes[storeStart] = nodes[seqPos]
				seqPos = max(seqPos-back, 0)
			}
			r := before
			for sp := storeStart; sp <= storeEnd; sp++ {
				n := nodes[sp]
				if n.mlen == 0 {
					ip = anchor + int(n.litlen)
					continue
				}
				ll0 := n.litlen == 0
				lits := buf[anchor : anchor+int(n.litlen)]
				o.update(lits, n.off, n.mlen)
				st := anchor + int(n.litlen)
				e.emit(buf, anchor, st, plainOffset(r, n.off, ll0), int(n.mlen))
				r = newRep(r, n.off, ll0)
				anchor = st + int(n.mlen)
				ip = anchor
			}
			o.setBasePrices()
		}
	}
	e.lits = append(e.lits, buf[anchor:end]...)
}
