package zstdenc

import "math/bits"

// Hash chains of 16-bit heads and links for histories of at most 64
// KiB: the byte planes Blosc hands zstd at clevels 3-5 (32 and 64 KiB).
// A head or link is a position plus one (0: none), so both tables are
// half the size of uint32 ones (for a 32 KiB plane at level 5, 128 KiB of
// heads and 64 KiB of links rather than 256 and 128), and more of the
// search's dependent reads hit the L1 cache. The heads are cleared for
// every frame (a memclr of 128-256 KiB, a few microseconds; the uint32
// heads need none, being biased by base); the links need no clearing, a
// link being read only from a position entered in this frame. The search
// is hcSearch's, step for step: the same bytes.

// chain16Max is the longest history (dictionary and source) the 16-bit
// chains take: positions entered are at most 8 before its end, so a
// position plus one fits.
const chain16Max = 1 << 16

// useChain16 reports whether the lazy strategies walk the 16-bit chains
// for a history of n bytes.
func (e *Encoder) useChain16(n int) bool {
	return !e.noChain16 && !e.rows && e.p.strat >= stratGreedy && e.p.strat <= stratLazy2 &&
		n <= chain16Max
}

// chain16Reset sizes the heads (2^hashLog) and links (2^chainLog) for
// the frame. The heads are all 0 between frames (chain16Done).
func (e *Encoder) chain16Reset() {
	n := 1 << e.p.clog
	if cap(e.chain16) < n {
		e.chain16 = make([]uint16, n)
	}
	e.chain16 = e.chain16[:n]
	nh := 1 << e.p.hlog
	if cap(e.heads16) < nh {
		e.heads16 = make([]uint16, nh)
	}
	e.heads16 = e.heads16[:nh]
	e.skips16 = e.skips16[:0]
}

// chain16Done clears the heads after a frame over buf. A frame that
// entered few positions (long matches skip their insides: a plane of
// one repeated byte enters about 130) has its heads cleared one by one,
// each entered position's hash again; otherwise the whole table is,
// which costs 128-256 KiB of stores: on a 32 KiB plane of such data
// that was as long as the frame itself (arange_i64 at level 5: 0.61x).
func (e *Encoder) chain16Done(buf []byte) {
	heads := e.heads16
	end := min(e.nextUpdate, len(buf)-7)
	entered := end
	for k := 0; k < len(e.skips16); k += 2 {
		entered -= int(e.skips16[k+1] - e.skips16[k])
	}
	if entered*32 > len(heads) {
		clear(heads)
		return
	}
	hh := newHasher(min(max(e.p.minMatch, 4), 6), e.p.hlog)
	i := 0
	for k := 0; k <= len(e.skips16); k += 2 {
		stop := end
		if k < len(e.skips16) {
			stop = int(e.skips16[k])
		}
		for ; i < stop; i++ {
			heads[hh.hash(load64(buf, i))] = 0
		}
		if k < len(e.skips16) {
			i = int(e.skips16[k+1])
		}
	}
}

// hcSearch16 is hcSearch over the 16-bit links.
func (e *Encoder) hcSearch16(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	head, chain := e.heads16, e.chain16
	hh := newHasher(mls, e.p.hlog)
	mask := len(chain) - 1
	i := e.nextUpdate
	if ip-i > rowSkipThreshold {
		// The inside of a long match, as in hcSearch; chain16Done
		// needs to know what was skipped.
		for stop := i + rowSkipStart; i < stop; i++ {
			h := hh.hash(load64(buf, i))
			chain[i&mask] = head[h]
			head[h] = uint16(i + 1)
		}
		e.skips16 = append(e.skips16, int32(i), int32(ip-rowSkipEnd))
		i = ip - rowSkipEnd
	}
	for ; i < ip; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = head[h]
		head[h] = uint16(i + 1)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
	m := int(head[hh.hash(load64(buf, ip))]) - 1

	minChain := ip - len(chain)
	best, off := over, 0
	for tries := 1 << e.p.slog; tries > 0 && m >= 0; tries-- {
		next := chain[m&mask]
		if load32(buf, m+best-3) == load32(buf, ip+best-3) {
			n := 0
			if d := load64(buf, ip) ^ load64(buf, m); d != 0 {
				n = bits.TrailingZeros64(d) >> 3
			} else {
				n = matchLen(buf, ip, m, end)
			}
			if n > best {
				best, off = n, ip-m
				if ip+n == end {
					break
				}
			}
		}
		if m <= minChain {
			break
		}
		m = int(next) - 1
	}
	if off == 0 {
		return 0, 0
	}
	return best, off
}

// chain16Skip enters the first rowSkipStart positions from i, the
// start of a long match's inside, and returns where the entries resume
// (rowSkipEnd before ip), as hcSearch does; chain16Done needs to know
// what was skipped.
func (e *Encoder) chain16Skip(buf []byte, i, ip int) int {
	head, chain := e.heads16, e.chain16
	hh := newHasher(min(max(e.p.minMatch, 4), 6), e.p.hlog)
	mask := len(chain) - 1
	for stop := i + rowSkipStart; i < stop; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = head[h]
		head[h] = uint16(i + 1)
	}
	e.skips16 = append(e.skips16, int32(i), int32(ip-rowSkipEnd))
	return ip - rowSkipEnd
}

// greedy16 is lazy at depth 0 (libzstd's greedy) over the 16-bit chains
// with hcSearch16 written inline: the same steps, so the same bytes, but
// no call a position. Go keeps no register across a call, so lazy's two
// calls a search (search, then hcSearch16) spilled and reloaded the
// loop's state at every search; on literal-heavy planes (sensor_f32's
// noisy bytes, searched at most positions) that was about a fifth of the
// instructions. On amd64 chain16ScanAsm runs the positions that find
// nothing.
func (e *Encoder) greedy16(buf []byte, start, end int) {
	mls := min(max(e.p.minMatch, 4), 6)
	hh := newHasher(mls, e.p.hlog)
	// Every index masked by its table's size (a power of two, the
	// tables never empty): a hash is below 2^hlog, the heads' size, so
	// the mask changes nothing, but the compiler then drops the bounds
	// checks and keeps a pointer and a mask a table, fewer values to
	// spill in this long loop.
	head, chain := e.heads16, e.chain16
	_, _ = head[0], chain[0]
	hmask, mask := len(head)-1, len(chain)-1
	chainLen := len(chain)
	maxTries := 1 << e.p.slog
	ilimit := end - 8
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	nextUpdate := max(e.nextUpdate, 1)
	rep1, rep2 := int(e.mrep[0]), int(e.mrep[1])
	scan := useRowAsm && ilimit > 0 && end <= len(buf)
	for ip < ilimit {
		ml, off, st := 0, rep1, ip+1
		if ip+1 >= rep1 && load32(buf, ip+1) == load32(buf, ip+1-rep1) {
			// A repeat at ip+1 is taken without a search, as lazy
			// does at depth 0.
			ml = 4 + matchLen(buf, ip+5, ip+5-rep1, end)
		} else if scan && e.roomFor(anchor, end) {
			// This position and those after it that find nothing,
			// and the matches they find, in assembly (the inside of
			// a long match skipped here first, as below).
			if ip-nextUpdate > rowSkipThreshold {
				nextUpdate = e.chain16Skip(buf, nextUpdate, ip)
			}
			var n int
			ip, anchor, rep1, rep2, n, off, st, _, nextUpdate = chain16ScanAsm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, rep2, maxTries, &head[0], &chain[0], hmask, mask, hh.mul, uint64(hh.shift), nextUpdate, 0, &e.lits, &e.seqs)
			if off == 0 {
				// At ilimit, or at a position with a repeat at
				// ip+1: the loop takes it.
				continue
			}
			// A match whose literals run too close to the end of
			// buf to be copied 16 bytes at a time: emitted here.
			ml = n
			for st > anchor && st-off > 0 && buf[st-1] == buf[st-off-1] {
				st--
				ml++
			}
			rep2, rep1 = rep1, off
		} else {
			// hcSearch16 from over = 3.
			i := nextUpdate
			if ip-i > rowSkipThreshold {
				i = e.chain16Skip(buf, i, ip)
			}
			for ; i < ip; i++ {
				h := hh.hash(load64(buf, i))
				chain[i&mask] = head[int(h)&hmask]
				head[int(h)&hmask] = uint16(i + 1)
			}
			nextUpdate = max(nextUpdate, ip)
			m := int(head[int(hh.hash(load64(buf, ip)))&hmask]) - 1
			minChain := ip - chainLen
			best := 3
			off = 0
			for tries := maxTries; tries > 0 && m >= 0; tries-- {
				next := chain[m&mask]
				if load32(buf, m+best-3) == load32(buf, ip+best-3) {
					n := 0
					if d := load64(buf, ip) ^ load64(buf, m); d != 0 {
						n = bits.TrailingZeros64(d) >> 3
					} else {
						n = matchLen(buf, ip, m, end)
					}
					if n > best {
						best, off = n, ip-m
						if ip+n == end {
							break
						}
					}
				}
				if m <= minChain {
					break
				}
				m = int(next) - 1
			}
			if off == 0 {
				ip += (ip-anchor)>>searchStrength + 1
				continue
			}
			ml, st = best, ip
			for st > anchor && st-off > 0 && buf[st-1] == buf[st-off-1] {
				st--
				ml++
			}
			rep2, rep1 = rep1, off
		}
		e.emit(buf, anchor, st, uint32(off), ml)
		ip = st + ml
		anchor = ip
		for ip <= ilimit && ip >= rep2 && load32(buf, ip) == load32(buf, ip-rep2) {
			n := 4 + matchLen(buf, ip+4, ip+4-rep2, end)
			rep1, rep2 = rep2, rep1
			e.emit(buf, ip, ip, uint32(rep1), n)
			ip += n
			anchor = ip
		}
	}
	e.nextUpdate = nextUpdate
	e.mrep = [2]uint32{uint32(rep1), uint32(rep2)}
	e.lits = append(e.lits, buf[anchor:end]...)
}

// loadDict16 enters a dictionary's positions into the 16-bit chains, as
// loadDict does into the uint32 ones.
func (e *Encoder) loadDict16(d []byte) {
	mls := min(max(e.p.minMatch, 4), 6)
	head, chain := e.heads16, e.chain16
	mask := len(chain) - 1
	i := 0
	for ; i+8 <= len(d); i++ {
		h := hashN(load64(d, i), mls, e.p.hlog)
		chain[i&mask] = head[h]
		head[h] = uint16(i + 1)
	}
	e.nextUpdate = i
}

// lazy16 is lazy at depth 1 or 2 (libzstd's lazy and lazy2) over the
// 16-bit chains with the first search of a position, hcSearch16 from
// the repeat's length, written inline as in greedy16: the same steps, so
// the same bytes. On literal-heavy planes nearly every position is
// searched once and finds nothing, and lazy's two calls a search (search,
// then hcSearch16) spilled and reloaded its state each time; the lazy
// steps at ip+1 and ip+2, taken only after a match, call hcSearch16.
// On amd64 chain16ScanAsm runs both, the positions that find nothing and
// the steps after a match, in assembly: Go kept the loop's state on the
// stack around the steps' calls, and on noisy planes the steps were
// half the time.
func (e *Encoder) lazy16(buf []byte, start, end int, depth int) {
	mls := min(max(e.p.minMatch, 4), 6)
	hh := newHasher(mls, e.p.hlog)
	head, chain := e.heads16, e.chain16
	_, _ = head[0], chain[0]
	hmask, mask := len(head)-1, len(chain)-1
	chainLen := len(chain)
	maxTries := 1 << e.p.slog
	ilimit := end - 8
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	nextUpdate := max(e.nextUpdate, 1)
	rep1, rep2 := int(e.mrep[0]), int(e.mrep[1])
	scan := useRowAsm && ilimit > 0 && end <= len(buf)
	for ip < ilimit {
		ml, off, isRep := 0, 0, true
		st := ip + 1
		found := false
		if ip+1 >= rep1 && load32(buf, ip+1) == load32(buf, ip+1-rep1) {
			ml = 4 + matchLen(buf, ip+5, ip+5-rep1, end)
			off = rep1
		} else if scan && e.roomFor(anchor, end) {
			// This position, those after it that find nothing, the
			// lazy steps after a match and the matches they leave,
			// in assembly (the inside of a long match skipped here
			// first, as below).
			if ip-nextUpdate > rowSkipThreshold {
				nextUpdate = e.chain16Skip(buf, nextUpdate, ip)
			}
			var n, o, s, r int
			ip, anchor, rep1, rep2, n, o, s, r, nextUpdate = chain16ScanAsm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, rep2, maxTries, &head[0], &chain[0], hmask, mask, hh.mul, uint64(hh.shift), nextUpdate, depth, &e.lits, &e.seqs)
			if o == 0 {
				// At ilimit, or at a position with a repeat at
				// ip+1: the loop takes it.
				continue
			}
			// A match whose literals run too close to the end of
			// buf to be copied 16 bytes at a time: emitted here.
			ml, off, isRep, st, found = n, o, r != 0, s, true
		}
		if !found {
			// hcSearch16 from over = max(3, ml).
			i := nextUpdate
			if ip-i > rowSkipThreshold {
				i = e.chain16Skip(buf, i, ip)
			}
			if ip-i <= chain16InsertInline {
				for ; i < ip; i++ {
					h := hh.hash(load64(buf, i))
					chain[i&mask] = head[int(h)&hmask]
					head[int(h)&hmask] = uint16(i + 1)
				}
			} else {
				// A long stretch (the step between searches
				// grown on data without matches): in a loop of
				// its own, whose values stay in registers.
				e.chain16Insert(buf, i, ip)
			}
			nextUpdate = max(nextUpdate, ip)
			m := int(head[int(hh.hash(load64(buf, ip)))&hmask]) - 1
			minChain := ip - chainLen
			best, boff := max(3, ml), 0
			for tries := maxTries; tries > 0 && m >= 0; tries-- {
				next := chain[m&mask]
				if load32(buf, m+best-3) == load32(buf, ip+best-3) {
					n := 0
					if d := load64(buf, ip) ^ load64(buf, m); d != 0 {
						n = bits.TrailingZeros64(d) >> 3
					} else {
						n = matchLen(buf, ip, m, end)
					}
					if n > best {
						best, boff = n, ip-m
						if ip+n == end {
							break
						}
					}
				}
				if m <= minChain {
					break
				}
				m = int(next) - 1
			}
			if boff != 0 {
				ml, off, isRep, st = best, boff, false, ip
			}
			if ml < 4 {
				ip += (ip-anchor)>>searchStrength + 1
				continue
			}
			e.nextUpdate = nextUpdate
			for ip < ilimit {
				ip++
				if (!isRep) && ip >= rep1 && load32(buf, ip) == load32(buf, ip-rep1) {
					n := 4 + matchLen(buf, ip+4, ip+4-rep1, end)
					if n*3 > ml*3-offCost(off, isRep)+1 {
						ml, off, isRep, st = n, rep1, true, ip
					}
				}
				if n, o := e.hcSearch16(buf, ip, end, mls, lazyOver(ml, off, isRep, 4, ip, end)); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+4 {
					ml, off, isRep, st = n, o, false, ip
					continue
				}
				if depth == 2 && ip < ilimit {
					ip++
					if (!isRep) && ip >= rep1 && load32(buf, ip) == load32(buf, ip-rep1) {
						n := 4 + matchLen(buf, ip+4, ip+4-rep1, end)
						if n*4 > ml*4-offCost(off, isRep)+1 {
							ml, off, isRep, st = n, rep1, true, ip
						}
					}
					if n, o := e.hcSearch16(buf, ip, end, mls, lazyOver(ml, off, isRep, 7, ip, end)); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+7 {
						ml, off, isRep, st = n, o, false, ip
						continue
					}
				}
				break
			}
			nextUpdate = e.nextUpdate
		}
		if !isRep {
			for st > anchor && st-off > 0 && buf[st-1] == buf[st-off-1] {
				st--
				ml++
			}
			rep2, rep1 = rep1, off
		}
		e.emit(buf, anchor, st, uint32(off), ml)
		ip = st + ml
		anchor = ip
		for ip <= ilimit && ip >= rep2 && load32(buf, ip) == load32(buf, ip-rep2) {
			n := 4 + matchLen(buf, ip+4, ip+4-rep2, end)
			rep1, rep2 = rep2, rep1
			e.emit(buf, ip, ip, uint32(rep1), n)
			ip += n
			anchor = ip
		}
	}
	e.nextUpdate = nextUpdate
	e.mrep = [2]uint32{uint32(rep1), uint32(rep2)}
	e.lits = append(e.lits, buf[anchor:end]...)
}

// chain16InsertInline is the most positions lazy16 enters in its own
// loop before a search; more go through chain16Insert. In its long loop
// the tables' pointers, masks and hasher live on the stack, reloaded at
// every insert, which on data without matches (where the step between
// searches grows, every position still entered) made levels 7 and 9
// 0.73 times as fast as lazy calling hcSearch16; a call costs more than
// the few inserts after a short match. (The same in greedy16 made level 5
// 4-8% slower on the byte planes of every dataset: the loop's registers
// change with it.)
const chain16InsertInline = 16

// chain16Insert enters the positions from i up to ip in the 16-bit
// chains.
func (e *Encoder) chain16Insert(buf []byte, i, ip int) {
	head, chain := e.heads16, e.chain16
	hh := newHasher(min(max(e.p.minMatch, 4), 6), e.p.hlog)
	_, _ = head[0], chain[0]
	hmask, mask := len(head)-1, len(chain)-1
	for ; i < ip; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = head[int(h)&hmask]
		head[int(h)&hmask] = uint16(i + 1)
	}
}

// roomFor reports whether e.lits and e.seqs have room for what
// chain16ScanAsm may append from anchor to end without growing them: the
// literals and 16 bytes of slack, and a sequence per 4 bytes (a match is
// at least 4 long). The block's reset sizes them so that this holds.
func (e *Encoder) roomFor(anchor, end int) bool {
	return cap(e.lits)-len(e.lits) >= end-anchor+16 && cap(e.seqs)-len(e.seqs) > (end-anchor)/4+1
}
