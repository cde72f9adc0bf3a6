package zstdenc

import (
	"encoding/binary"
	"math/bits"
)

// hcSearch is libzstd's hash chain search: it enters the positions from
// e.nextUpdate up to ip in the hash chains, then looks at up to
// 1<<searchLog earlier positions with ip's hash for the longest match of
// at least 4 bytes, longer than over (which the caller would not take).
// It returns the length (0 if none) and the offset.
// (One function: the call and the spills of a separate insert cost as
// much as a few links.)
//
// Every position goes in but the insides of long matches: from 1.5.5
// libzstd enters only the searched positions after 2 KiB without a
// match, which is faster on noise but cost 12% of the ratio on a
// shuffled timestamp series, whose matches start after a long unmatched
// stretch. The insides of matches longer than 384 are skipped as libzstd
// 1.5.4's rows skip them (what it searches on these sizes): on the byte
// planes of Blosc clevels 3-5 that is 1.3-1.8x the speed on
// long-matching data (linspace_f64, runs), the ratio still within 1% of
// libzstd's (linspace_f64 at clevel 3 from 1.025 to 1.002 of it, as the
// chains lose what the skipped positions found). The stand-in for the
// tree strategies keeps every position.
func (e *Encoder) hcSearch(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	head, chain := e.hashT, e.hashL
	hh := newHasher(mls, e.p.hlog)
	mask := len(chain) - 1
	base := e.base
	i := e.nextUpdate
	if ip-i > rowSkipThreshold && e.strategy <= stratLazy2 {
		// The inside of a long match: its first and last positions go
		// in, as the rows do, which keeps the matches that start or end
		// near it and spares a long stretch of inserts.
		for stop := i + rowSkipStart; i < stop; i++ {
			h := hh.hash(load64(buf, i))
			chain[i&mask] = head[h]
			head[h] = base + uint32(i)
		}
		i = ip - rowSkipEnd
	}
	for ; i < ip; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = head[h]
		head[h] = base + uint32(i)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
	m := int(int32(head[hh.hash(load64(buf, ip))] - base))

	minChain := ip - len(chain)
	// The walk starts at the length to beat (over, 3 to end-ip-1): a
	// candidate is then rejected by its 4 bytes at that length, before a
	// full compare. The longest match over it is the one a walk from 3
	// finds (the first candidate to reach the longest length), so the
	// choices are those of libzstd's search.
	best, off := over, 0
	for tries := 1 << e.p.slog; tries > 0 && m >= 0; tries-- {
		// The next link is read before this candidate is compared: the
		// load then starts ahead of the compare's branch, whose
		// mispredictions would otherwise discard it (the walk is bound
		// by these dependent loads).
		next := chain[m&mask]
		// The 4 bytes ending where a longer match would end first: most
		// candidates fail there (m >= 0 and best >= 3, so the offset is
		// in the buffer).
		if load32(buf, m+best-3) == load32(buf, ip+best-3) {
			// The first 8 bytes inline, matchLen only past them: most
			// candidates that pass the 4 bytes fail within the first
			// 8, and the call's spills and reloads cost more than that
			// compare (ip+8 is at most end).
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
		m = int(int32(next - base))
	}
	if off == 0 {
		return 0, 0
	}
	return best, off
}

// search is the lazy strategies' finder: rows, hash chains or, for
// btlazy2, the binary tree. A match of at most over bytes (3 to
// end-ip-1) would not be taken: the hash chains and rows skip those
// sooner (the tree ignores over).
func (e *Encoder) search(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	if e.strategy == stratBtlazy2 {
		return e.btSearch(buf, ip, end)
	}
	if e.rows {
		if e.rowLg == 6 {
			return e.rowSearch64(buf, ip, end, mls, over)
		}
		return e.rowSearch(buf, ip, end, mls, over)
	}
	if e.c16 {
		return e.hcSearch16(buf, ip, end, mls, over)
	}
	return e.hcSearch(buf, ip, end, mls, over)
}

// lazyOver is the longest match the lazy step would not take over the
// match of ml at off (rep: a repeat): gain is the step's margin, 4 one
// position on, 7 two; a new offset costs at least 2 (offCost of an
// offset of 1).
// The result is bounded to search's range: 3 to end-ip-1, past which no
// match can be longer (its 4 bytes would end past end-1).
func lazyOver(ml, off int, rep bool, gain, ip, end int) int {
	return max(3, min((ml*4-offCost(off, rep)+gain+2)>>2, end-ip-1))
}

// offCost is the offset's code as libzstd weighs it in lazy matching:
// the bits of the offset plus 3, none for a repeat.
func offCost(off int, rep bool) int {
	if rep {
		return 0
	}
	return int(highbit(uint32(off + 3)))
}

// lazy is libzstd's greedy (depth 0), lazy (1) and lazy2 (2) strategies
// over hash chains: after a match is found, the next one or two
// positions are searched too and a longer or closer match there wins.
func (e *Encoder) lazy(buf []byte, start, end int, depth int) {
	mls := min(max(e.p.minMatch, 4), 6)
	ilimit := end - 8
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	if e.nextUpdate < 1 {
		e.nextUpdate = 1
	}
	rep1, rep2 := int(e.mrep[0]), int(e.mrep[1])
	// Over rows in assembly, the positions that find nothing are
	// searched and passed in rowScan64Asm's own loop (rowScan32Asm's,
	// rowScan16Asm's), which returns at the match its lazy steps leave,
	// at a repeat at ip+1 (this loop then takes the position as it
	// would), or at ilimit: the same steps, so the same bytes.
	scan := useRowAsm && ilimit > 0 && e.rowsAsmOK(buf, end)
	// Over the uint32 chains, chain32ScanAsm does the same and emits the
	// matches as it goes (chain16ScanAsm's loop, for sources of 64 KiB to
	// 256 KiB: libzstd's levels 5-9 on Blosc1's unsplit 256 KiB blocks).
	chains := useRowAsm && ilimit > 0 && e.chains32AsmOK(buf, end)
	var hh hasher
	if chains {
		hh = newHasher(mls, e.p.hlog)
	}
	for ip < ilimit {
		ml, off, isRep := 0, 0, true
		st := ip + 1
		found := false
		if ip+1 >= rep1 && load32(buf, ip+1) == load32(buf, ip+1-rep1) {
			ml = 4 + matchLen(buf, ip+5, ip+5-rep1, end)
			off = rep1
		} else if chains && e.roomFor(anchor, end) {
			if ip-e.nextUpdate > rowSkipThreshold {
				e.nextUpdate = e.chainSkip(buf, e.nextUpdate, ip, mls)
			}
			var n, o, s, r int
			ip, anchor, rep1, rep2, n, o, s, r, e.nextUpdate = chain32ScanAsm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, rep2, 1<<e.p.slog, &e.hashT[0], &e.hashL[0], len(e.hashT)-1, len(e.hashL)-1, hh.mul, uint64(hh.shift), e.nextUpdate, depth, &e.lits, &e.seqs, e.base)
			if o == 0 {
				// At ilimit, or at a position with a repeat at
				// ip+1: the loop takes it.
				continue
			}
			// A match whose literals run too close to the end of
			// buf to be copied 16 bytes at a time: emitted here.
			ml, off, isRep, st, found = n, o, r != 0, s, true
		} else if scan {
			var n, o, s, r int
			ip, n, o, s, r, e.nextUpdate = e.rowScanAsm(buf, ip, end, ilimit, anchor, rep1, 0, depth)
			if o == 0 {
				// At ilimit, or at a position with a repeat at
				// ip+1: the loop takes it.
				continue
			}
			// The match the lazy steps leave.
			ml, off, isRep, st, found = n, o, r != 0, s, true
		}
		if found || !(depth == 0 && ml > 0) {
			if !found { // else rowScanAsm searched ip
				if n, o := e.search(buf, ip, end, mls, max(3, ml)); n > ml {
					ml, off, isRep, st = n, o, false, ip
				}
			}
			if ml < 4 {
				ip += (ip-anchor)>>searchStrength + 1
				continue
			}
			for !found && depth >= 1 && ip < ilimit {
				ip++
				if (!isRep) && ip >= rep1 && load32(buf, ip) == load32(buf, ip-rep1) {
					n := 4 + matchLen(buf, ip+4, ip+4-rep1, end)
					if n*3 > ml*3-offCost(off, isRep)+1 {
						ml, off, isRep, st = n, rep1, true, ip
					}
				}
				if n, o := e.search(buf, ip, end, mls, lazyOver(ml, off, isRep, 4, ip, end)); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+4 {
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
					if n, o := e.search(buf, ip, end, mls, lazyOver(ml, off, isRep, 7, ip, end)); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+7 {
						ml, off, isRep, st = n, o, false, ip
						continue
					}
				}
				break
			}
			if !isRep {
				for st > anchor && st-off > 0 && buf[st-1] == buf[st-off-1] {
					st--
					ml++
				}
				rep2, rep1 = rep1, off
			}
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
	e.mrep = [2]uint32{uint32(rep1), uint32(rep2)}
	e.lits = append(e.lits, buf[anchor:end]...)
}

// chains32AsmOK reports whether chain32ScanAsm may walk the uint32
// chains in buf up to end: greedy to lazy2 over them (not rows, not the
// 16-bit chains, not btlazy2's tree in the same tables), the tables
// 2^hashLog and 2^chainLog long, as hcSearch's indexes assume.
func (e *Encoder) chains32AsmOK(buf []byte, end int) bool {
	return !e.rows && !e.c16 && e.strategy >= stratGreedy && e.strategy <= stratLazy2 && end <= len(buf) &&
		len(e.hashT) == 1<<e.p.hlog && len(e.hashL) == 1<<e.p.clog && len(e.hashL) > 0
}

// chainSkip enters the first rowSkipStart positions from i, the start of
// a long match's inside, in the uint32 chains and returns where the
// entries resume (rowSkipEnd before ip), as hcSearch does.
func (e *Encoder) chainSkip(buf []byte, i, ip int, mls uint8) int {
	head, chain := e.hashT, e.hashL
	hh := newHasher(mls, e.p.hlog)
	mask := len(chain) - 1
	for stop := i + rowSkipStart; i < stop; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = head[h]
		head[h] = e.base + uint32(i)
	}
	return ip - rowSkipEnd
}

// Row-based match finding, libzstd's for greedy, lazy and lazy2 when the
// window is over 16 KiB (ZSTD_RowFindBestMatch, 1.5.4): the hash table
// is cut into rows of 16, 32 or 64 positions (2^rowLog, rowLog the
// search log bounded to 4..6), each a ring with its newest entry at its
// head, and each entry carries an 8-bit tag, more bits of its hash. A
// search looks only at the row's entries whose tag matches, newest
// first, at most 2^min(searchLog, rowLog) of them.
const (
	rowAhead   = 8 // the rows are prefetched this many positions ahead
	rowTagBits = 8
	// Inserting the positions inside a long match is cut short: the
	// first rowSkipStart after the match's start and the last
	// rowSkipEnd before its end, when over rowSkipThreshold are due.
	rowSkipThreshold = 384
	rowSkipStart     = 96
	rowSkipEnd       = 32
)

// useRows reports whether the lazy strategies search rows: greedy to
// lazy2 over sources (with the dictionary) of more than 256 KiB. libzstd
// searches rows from 16 KiB on a machine with 128-bit vectors
// (ZSTD_resolveRowMatchFinderMode); here, without vector tag compares or
// prefetching, rows are 15-25% slower than the hash chains on the 32 and
// 64 KiB byte planes of Blosc clevels 3-5, for the same ratio, but on
// 512 KiB blocks (clevel 6) they are faster on most data and find what
// libzstd finds (linspace_f64: 0.94 of libzstd's ratio with chains, 1.00
// with rows).
// Up to 256 KiB the chains stay: as fast, and on some data they find more
// than libzstd's rows (linspace_f64 at levels 4-5: 1.13-1.16 of its
// ratio).
func (e *Encoder) useRows() bool {
	from := uint8(rowsMinLog)
	if e.rowsFrom != 0 {
		from = e.rowsFrom
	}
	return e.p.strat >= stratGreedy && e.p.strat <= stratLazy2 && e.p.wlog >= from
}

// rowsMinLog is the smallest window log searched by rows: sources over
// 256 KiB.
const rowsMinLog = 19

// rowLog is the log of the row size: the search log bounded to 4..6.
func (e *Encoder) rowLog() uint8 { return min(max(e.p.slog, 4), 6) }

// rowInsert enters position i, whose hash (row and tag) is h, at its
// row's head.
func (e *Encoder) rowInsert(h uint32, i int, rlog uint8) {
	row := h >> rowTagBits
	mask := uint32(1)<<rlog - 1
	head := (uint32(e.rowHeads[row]) - 1) & mask
	e.rowHeads[row] = uint8(head)
	k := row<<rlog | head
	e.rowTags[k] = uint8(h)
	e.hashT[k] = e.base + uint32(i)
}

// rowUpdate enters the positions from e.nextUpdate up to ip, all of them
// when a dictionary is loaded (skip false), otherwise only the first and
// last of a long stretch, as libzstd does.
func (e *Encoder) rowUpdate(buf []byte, ip int, mls, rlog uint8, skip bool) {
	i := e.nextUpdate
	hh := newHasher(mls, e.p.hlog-rlog+rowTagBits) // a position's row (high bits) and tag (low 8 bits)
	if skip && ip-i > rowSkipThreshold {
		for end := i + rowSkipStart; i < end; i++ {
			e.rowInsert(hh.hash(load64(buf, i)), i, rlog)
		}
		i = ip - rowSkipEnd
	}
	for ; i < ip; i++ {
		e.rowInsert(hh.hash(load64(buf, i)), i, rlog)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
}

// tagMatchesSWAR returns the bits of the n (16, 32 or 64) tags equal to
// tag, bit j for tags[j]. Eight tags at a time: a byte of x is zero where
// the tag matches; the zero bytes' high bits, gathered into 8 bits.
func tagMatchesSWAR(tags []byte, tag uint8, n int) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	splat := uint64(tag) * lo
	var m uint64
	for k := n - 8; k >= 0; k -= 8 {
		x := binary.LittleEndian.Uint64(tags[k:]) ^ splat
		// High bit of each byte set where the byte is not zero.
		nz := (((x | hi) - lo) | x) & hi
		z := ^nz & hi
		m = m<<8 | (z>>7)*0x0102040810204080>>56
	}
	return m
}

// rowSearch is hcSearch's counterpart over rows: the longest match of at
// least 4 bytes (longer than over) among the tag-matching entries of
// ip's row, newest first; then ip goes into the row.
func (e *Encoder) rowSearch(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	if useRowAsm && ip+8 <= end && e.rowsAsmOK(buf, end) {
		// The same steps in assembly (the positions waiting go in
		// first, as rowUpdate enters them).
		_, best, off, _, _, next := e.rowScanAsm(buf, ip, end, 0, 0, 0, over, 0)
		e.nextUpdate = next
		return best, off
	}
	// mls is the frame's (lazy's), for which rowLg and rowHH were set.
	rlog := e.rowLg
	if e.nextUpdate < ip {
		// Only after a match or a skip: lazy2's searches at ip+1 and
		// ip+2 find the row up to date, and the call (not inlined, a
		// loop) cost more than the check.
		e.rowUpdate(buf, ip, mls, rlog, true)
	}
	h := e.rowHH.hash(load64(buf, ip))
	row := h >> rowTagBits
	n := 1 << rlog
	head := uint(e.rowHeads[row]) & uint(n-1)
	first := int(row) << rlog
	tags := e.rowTags[first : first+n]
	entries := e.hashT[first : first+n]
	m := tagMatches(tags, uint8(h), n)
	if n < 64 {
		// Rotate right by head within n bits: bit j is then the entry
		// j places after the head, the (j+1)th newest.
		m = (m>>head | m<<(uint(n)-head)) & (1<<uint(n) - 1)
	} else {
		m = bits.RotateLeft64(m, -int(head))
	}
	base := e.base
	// From the length to beat, as in hcSearch.
	best, off := over, 0
	for tries := 1 << min(e.p.slog, rlog); m != 0 && tries > 0; tries-- {
		pos := (head + uint(bits.TrailingZeros64(m))) & uint(n-1)
		c := int(int32(entries[pos] - base))
		if c < 0 {
			break // from an earlier frame: the rest are older
		}
		m &= m - 1
		if load32(buf, c+best-3) == load32(buf, ip+best-3) {
			if l := matchLen(buf, ip, c, end); l > best {
				best, off = l, ip-c
				if ip+l == end {
					break
				}
			}
		}
	}
	// Then ip goes into the row (its slot may be one just visited).
	e.rowInsert(h, ip, rlog)
	e.nextUpdate = ip + 1
	if useRowAsm && ip+rowAhead+8 <= len(buf) {
		// Ask for the row the search rowAhead positions on will read
		// (its tags and its newest entries), as libzstd prefetches it:
		// the tables are megabytes, the row is on its way by then.
		// (Reading it instead, which Go can do without assembly, made
		// this 2-15% slower: a load that misses holds up the ones
		// after it, a prefetch does not.)
		r := e.rowHH.hash(load64(buf, ip+rowAhead)) >> rowTagBits
		k := int(r) << rlog
		hd := int(e.rowHeads[r]) & (n - 1)
		prefetchRow(&e.rowTags[k], &e.hashT[k+hd])
	}
	if off == 0 {
		return 0, 0
	}
	return best, off
}

// rowsAsmOK reports whether rowScanAsm may search the rows in buf up to
// end: rows of 16, 32 or 64 whose search visits up to a row's worth of
// candidates (search log at least the row log: the assembly has no
// limit on tries), and the tables' sizes the hasher's (a row below
// len(e.rowHeads)), as the Go code's bounds checks would otherwise
// prove.
func (e *Encoder) rowsAsmOK(buf []byte, end int) bool {
	return e.rows && e.rowLg >= 4 && e.rowLg <= 6 && e.p.slog >= e.rowLg && e.strategy != stratBtlazy2 && end <= len(buf) &&
		len(e.rowTags) == len(e.hashT) && len(e.rowHeads)<<e.rowLg == len(e.hashT)
}

// rowScanAsm calls the row scan in assembly for the frame's row size
// (rowScan64Asm's arguments, the tables and hasher from e). Direct
// calls: through a function value the compiler would not know the
// assembly keeps no pointer, and buf would escape.
func (e *Encoder) rowScanAsm(buf []byte, ip, end, ilimit, anchor, rep1, over, depth int) (rip, best, off, st, rep, nextOut int) {
	switch e.rowLg {
	case 4:
		return rowScan16Asm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, over, &e.rowTags[0], &e.rowHeads[0], &e.hashT[0], e.rowHH.mul, uint64(e.rowHH.shift), e.base, e.nextUpdate, depth)
	case 5:
		return rowScan32Asm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, over, &e.rowTags[0], &e.rowHeads[0], &e.hashT[0], e.rowHH.mul, uint64(e.rowHH.shift), e.base, e.nextUpdate, depth)
	}
	return rowScan64Asm(&buf[0], len(buf), ip, end, ilimit, anchor, rep1, over, &e.rowTags[0], &e.rowHeads[0], &e.hashT[0], e.rowHH.mul, uint64(e.rowHH.shift), e.base, e.nextUpdate, depth)
}

// rowSearch64 is rowSearch for rows of 64 (search logs of 6 and up:
// libzstd's levels 10-12 over 256 KiB, among them clevel 6's level 11),
// the same steps and so the same bytes. With the row size a constant
// the compiler drops the general rotation and the masks' arithmetic,
// the limit on tries goes (2^min(searchLog, 6) is 64, as many as a row
// has entries), and the tag compare and the prefetch of the row
// rowAhead on are one assembly call: on clevel 6's 512 KiB blocks the
// search's fixed cost, not its candidates, was most of its
// instructions.
func (e *Encoder) rowSearch64(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	const rlog, n = 6, 64
	if useRowAsm && ip+8 <= end && e.rowsAsmOK(buf, end) {
		// The positions waiting go in first, as rowUpdate enters
		// them.
		_, best, off, _, _, next := e.rowScanAsm(buf, ip, end, 0, 0, 0, over, 0)
		e.nextUpdate = next
		return best, off
	}
	if e.nextUpdate < ip {
		e.rowUpdate(buf, ip, mls, rlog, true)
	}
	hh := e.rowHH
	h := hh.hash(load64(buf, ip))
	row := h >> rowTagBits
	head := uint(e.rowHeads[row]) & (n - 1)
	first := int(row) << rlog
	tags := e.rowTags[first : first+n]
	entries := (*[n]uint32)(e.hashT[first : first+n])
	var m uint64
	if useRowAsm && ip+rowAhead+8 <= len(buf) {
		// The prefetch rowSearch issues after the insert, issued
		// first here (the ahead row's head may be this row's, one
		// entry off after the insert: a hint either way).
		r := hh.hash(load64(buf, ip+rowAhead)) >> rowTagBits
		k := int(r) << rlog
		hd := int(e.rowHeads[r]) & (n - 1)
		m = tagMatches64AndPrefetch(tags, uint8(h), &e.rowTags[k], &e.hashT[k+hd])
	} else {
		m = tagMatches(tags, uint8(h), n)
	}
	// Bit j is then the entry j places after the head.
	m = bits.RotateLeft64(m, -int(head))
	base := e.base
	best, off := over, 0
	for ; m != 0; m &= m - 1 {
		c := int(int32(entries[(head+uint(bits.TrailingZeros64(m)))&(n-1)] - base))
		if c < 0 {
			break // from an earlier frame: the rest are older
		}
		if load32(buf, c+best-3) == load32(buf, ip+best-3) {
			if l := matchLen(buf, ip, c, end); l > best {
				best, off = l, ip-c
				if ip+l == end {
					break
				}
			}
		}
	}
	e.rowInsert(h, ip, rlog)
	e.nextUpdate = ip + 1
	if off == 0 {
		return 0, 0
	}
	return best, off
}
