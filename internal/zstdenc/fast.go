package zstdenc

// searchStrength sets how quickly the finders skip ahead through data
// without matches: one more byte of step per 256 bytes since the last
// match (libzstd's kSearchStrength).
const searchStrength = 8

// fast is libzstd's fast strategy: one hash table of minMatch-byte
// prefixes, the first repeat offset tried ahead of the hashed positions,
// no second choice. Like libzstd's loop it looks at two neighbouring
// positions per turn, their hashes computed a turn ahead, and steps
// further between pairs the longer it finds nothing.
func (e *Encoder) fast(buf []byte, start, end int) {
	hlog, mls := e.p.hlog, min(max(e.p.minMatch, 4), 8)
	table := e.hashT
	hh := newHasher(mls, hlog)
	if e.fastAsm(buf, table, hh, start, end) {
		return
	}
	base := e.base
	ilimit := end - 8
	anchor, ip0 := start, start
	if ip0 == 0 {
		ip0 = 1
	}
	rep1, rep2 := int(e.mrep[0]), int(e.mrep[1])
	const stepIncr = 1 << (searchStrength - 1)
	for {
		step := 2
		nextStep := ip0 + stepIncr
		ip2 := ip0 + step
		if ip2+1 >= ilimit {
			break
		}
		// A turn looks at ip0 and ip0+1, with ip2 and ip2+1 hashed ahead;
		// ip1 and ip3 of libzstd's loop are kept as those sums, which
		// leaves the compiler fewer values to keep in registers.
		h0 := hh.hash(load64(buf, ip0))
		h1 := hh.hash(load64(buf, ip0+1))
		cand := int(int32(table[h0] - base))
		var m, ml, cur int
		found := false
		for {
			cur = ip0
			table[h0] = base + uint32(ip0)
			u2 := load64(buf, ip2)
			if ip2 > rep1 && uint32(u2) == load32(buf, ip2-rep1) {
				table[h1] = base + uint32(ip0+1)
				ip0 = ip2
				m = ip0 - rep1
				ml = 4
				if buf[ip0-1] == buf[m-1] {
					ip0--
					m--
					ml++
				}
				found = true
				break
			}
			if cand >= 0 && load32(buf, ip0) == load32(buf, cand) {
				table[h1] = base + uint32(ip0+1)
				m, ml = cand, 4
				rep2, rep1 = rep1, ip0-cand
				break
			}
			cand = int(int32(table[h1] - base))
			h0 = h1
			h1 = hh.hash(u2)
			// The second position: ip0 and ip2 one on (libzstd's ip1 is
			// now ip2-1).
			ip0++
			ip2++
			cur = ip0
			table[h0] = base + uint32(ip0)
			if cand >= 0 && load32(buf, ip0) == load32(buf, cand) {
				if step <= 4 {
					table[h1] = base + uint32(ip2-1)
				}
				m, ml = cand, 4
				rep2, rep1 = rep1, ip0-cand
				break
			}
			cand = int(int32(table[h1] - base))
			h0 = h1
			h1 = hh.hash(load64(buf, ip2))
			ip0 = ip2 - 1
			ip2 = ip0 + step
			if ip2 >= nextStep {
				step++
				nextStep += stepIncr
			}
			if ip2+1 >= ilimit {
				break
			}
		}
		if ml == 0 {
			break
		}
		if !found {
			for ip0 > anchor && m > 0 && buf[ip0-1] == buf[m-1] {
				ip0--
				m--
				ml++
			}
		}
		ml += matchLen(buf, ip0+ml, m+ml, end)
		e.emit(buf, anchor, ip0, uint32(ip0-m), ml)
		ip0 += ml
		anchor = ip0
		if ip0 <= ilimit {
			table[hh.hash(load64(buf, cur+2))] = base + uint32(cur+2)
			table[hh.hash(load64(buf, ip0-2))] = base + uint32(ip0-2)
			for ip0 <= ilimit && ip0 >= rep2 && load32(buf, ip0) == load32(buf, ip0-rep2) {
				n := 4 + matchLen(buf, ip0+4, ip0+4-rep2, end)
				rep1, rep2 = rep2, rep1
				table[hh.hash(load64(buf, ip0))] = base + uint32(ip0)
				e.emit(buf, ip0, ip0, uint32(rep1), n)
				ip0 += n
				anchor = ip0
			}
		}
	}
	e.mrep = [2]uint32{uint32(rep1), uint32(rep2)}
	e.lastLits(buf, start, anchor, end)
}

// dfast is libzstd's double fast strategy: a table of 8-byte prefixes
// for long matches and one of minMatch-byte prefixes, with a long match
// one byte ahead preferred to a short one here.
func (e *Encoder) dfast(buf []byte, start, end int) {
	hlogL, hlogS, mls := e.p.hlog, e.p.clog, min(max(e.p.minMatch, 4), 8)
	long, short := e.hashT, e.hashL
	hL, hS := newHasher(8, hlogL), newHasher(mls, hlogS)
	if e.dfastAsm(buf, long, short, hL, hS, start, end) {
		return
	}
	base := e.base
	ilimit := end - 8
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	rep1, rep2 := e.mrep[0], e.mrep[1]
	for ip < ilimit {
		cur := ip
		u := load64(buf, ip)
		hl := hL.hash(u)
		hs := hS.hash(u)
		candL := int(int32(long[hl] - base))
		candS := int(int32(short[hs] - base))
		long[hl] = base + uint32(ip)
		short[hs] = base + uint32(ip)
		var ml int
		var m int
		switch {
		case ip+1 >= int(rep1) && uint32(u>>8) == load32(buf, ip+1-int(rep1)):
			ml = 4 + matchLen(buf, ip+5, ip+5-int(rep1), end)
			ip++
			e.emit(buf, anchor, ip, rep1, ml)
			goto stored
		case candL >= 0 && load64(buf, candL) == u:
			m = candL
			ml = 8 + matchLen(buf, ip+8, m+8, end)
		case candS >= 0 && load32(buf, candS) == uint32(u):
			u1 := load64(buf, ip+1)
			hl1 := hL.hash(u1)
			candL1 := int(int32(long[hl1] - base))
			long[hl1] = base + uint32(ip+1)
			if candL1 >= 0 && load64(buf, candL1) == u1 {
				ip++
				m = candL1
				ml = 8 + matchLen(buf, ip+8, m+8, end)
			} else {
				m = candS
				ml = 4 + matchLen(buf, ip+4, m+4, end)
			}
		default:
			ip += (ip-anchor)>>searchStrength + 1
			continue
		}
		for ip > anchor && m > 0 && buf[ip-1] == buf[m-1] {
			ip--
			m--
			ml++
		}
		rep2, rep1 = rep1, uint32(ip-m)
		e.emit(buf, anchor, ip, rep1, ml)
	stored:
		ip += ml
		anchor = ip
		if ip > ilimit {
			break
		}
		{
			i := cur + 2
			long[hL.hash(load64(buf, i))] = base + uint32(i)
			long[hL.hash(load64(buf, ip-2))] = base + uint32(ip-2)
			short[hS.hash(load64(buf, i))] = base + uint32(i)
			short[hS.hash(load64(buf, ip-1))] = base + uint32(ip-1)
		}
		for ip <= ilimit && ip >= int(rep2) && load32(buf, ip) == load32(buf, ip-int(rep2)) {
			ml := 4 + matchLen(buf, ip+4, ip+4-int(rep2), end)
			rep1, rep2 = rep2, rep1
			u := load64(buf, ip)
			long[hL.hash(u)] = base + uint32(ip)
			short[hS.hash(u)] = base + uint32(ip)
			e.emit(buf, ip, ip, rep1, ml)
			ip += ml
			anchor = ip
		}
	}
	e.mrep = [2]uint32{rep1, rep2}
	e.lastLits(buf, start, anchor, end)
}

// lastLits adds the literals after the block's last match, buf[anchor:end],
// to e.lits; a block without a match is left in place (e.litsSrc), the
// copy of all of it being the one cost of a block of noise besides its
// histogram and the raw block written.
func (e *Encoder) lastLits(buf []byte, start, anchor, end int) {
	if anchor == start && len(e.seqs) == 0 && len(e.lits) == 0 {
		e.litsSrc = buf[start:end]
		return
	}
	e.lits = append(e.lits, buf[anchor:end]...)
}

// loadDict enters every position of the dictionary in the hash tables,
// so the first bytes of the source find matches in it.
func (e *Encoder) loadDict(d []byte) {
	mls := min(max(e.p.minMatch, 4), 8)
	if e.rows {
		e.rowUpdate(d, max(len(d)-7, 0), min(mls, 6), e.rowLog(), false)
		return
	}
	if e.strategy >= stratBtlazy2 {
		// The tree strategies sort the dictionary into the tree
		// (ZSTD_updateTree).
		if len(d) >= 8 {
			e.btUpdateTree(d, len(d)-8, len(d))
		}
		return
	}
	if e.strategy >= stratGreedy {
		mls = min(mls, 6)
		head, chain := e.hashT, e.hashL
		mask := len(chain) - 1
		i := 0
		for ; i+8 <= len(d); i++ {
			h := hashN(load64(d, i), mls, e.p.hlog)
			chain[i&mask] = head[h]
			head[h] = e.base + uint32(i)
		}
		e.nextUpdate = i
		return
	}
	for i := 0; i+8 <= len(d); i++ {
		u := load64(d, i)
		if e.strategy == stratFast {
			e.hashT[hashN(u, mls, e.p.hlog)] = e.base + uint32(i)
			continue
		}
		e.hashT[hashN(u, 8, e.p.hlog)] = e.base + uint32(i)
		e.hashL[hashN(u, mls, e.p.clog)] = e.base + uint32(i)
	}
}
