package zstdenc

import (
	"math/bits"
	"unsafe"
)

// Binary-tree match finding, libzstd 1.5.4's for btlazy2 (a tree sorted
// lazily, ZSTD_DUBT_findBestMatch) and for the optimal parser (a tree
// sorted as positions go in, ZSTD_insertBt1 and
// ZSTD_insertBtAndGetAllMatches).
//
// The tree lives in the chain table (e.hashL, 2^chainLog entries): two
// per position, for the last 2^(chainLog-1) positions, the position's
// smaller and larger subtrees. The suffixes starting at the positions of
// one hash are kept sorted, so a search walks from the newest one down
// the side where ip's suffix belongs, each step knowing a common prefix
// of at least the smaller of the two bounds' common lengths. Entries are
// biased positions as in the hash tables: one below e.base (0 among
// them) is no position.

// btUnsorted marks a position entered in the tree's chain but not yet
// sorted into the tree (btlazy2). No biased position reaches it.
const btUnsorted = ^uint32(0)

// treeHasher is libzstd's hash of the low mls bytes of a word for the
// tree (ZSTD_hashPtr), each length with its own prime, as one multiply
// and shift: the low mls bytes shifted to the top and multiplied are the
// word multiplied by the prime shifted as far. Which positions share a
// tree changes what the tree finds on data with many near-equal strings
// (a shuffled float series lost 2% of libzstd's ratio with another
// hash). libzstd's ZSTD_hashPtr has no 3-byte case: at a minimum match
// of 3 the tree hashes 4 bytes (3-byte matches come from the 3-byte
// table), and so does this.
type treeHasher struct {
	mul   uint64
	shift uint8
}

func newTreeHasher(mls, hbits uint8) treeHasher {
	var mul uint64
	switch mls {
	case 5:
		mul = prime5 << 24
	case 6:
		mul = prime6 << 16
	default:
		mul = prime4 << 32
	}
	return treeHasher{mul, (64 - hbits) & 63}
}

func (t treeHasher) hash(u uint64) int { return int((u * t.mul) >> (t.shift & 63)) }

const (
	prime4 = 2654435761
	prime5 = 889523592379
	prime6 = 227718039650203
)

// btMask is the mask of the tree's position slots.
func (e *Encoder) btMask() int { return len(e.hashL)/2 - 1 }

// int32Pos turns a table entry into a position of buf, negative for none.
// The tree loops keep base in a local: they store into the tables, after
// which e.base would be loaded again.
func int32Pos(base, v uint32) int { return int(int32(v - base)) }

// dubtUpdate enters the positions from e.nextUpdate up to ip as libzstd's
// btlazy2 does (ZSTD_updateDUBT): chained to the previous position of
// their hash and marked unsorted; a later search sorts them in. Each
// position's head entry is a cache miss on large tables: the fewer
// instructions a turn, the more turns (and misses) the processor
// overlaps, so the hash is worked out once and the accesses unchecked.
// On amd64 the loop is dubtUpdateAsm, which also prefetches the head
// entry of the position 32 on (Go has no prefetch): on noise, where the
// lazy loop's steps leave long stretches to enter, 1.05-1.10 of the Go
// loop's speed at levels 13 and 15.
func (e *Encoder) dubtUpdate(buf []byte, ip int) {
	from := e.nextUpdate
	if from >= ip {
		return
	}
	// Set before the loop, which so keeps no pointer to e.
	e.nextUpdate = ip
	base := e.base
	head, bt := e.hashT, e.hashL
	bmask := e.btMask()
	th := e.opt.th
	v := base + uint32(from)
	if useBtAsm {
		dubtUpdateAsm(unsafe.SliceData(head), unsafe.SliceData(bt), unsafe.SliceData(buf), from, ip, len(buf)-8, v, bmask, th.mul, th.shift)
		return
	}
	mark := uint64(btUnsorted) << 32
	for i := from; i < ip; i++ {
		h := th.hash(load64(buf, i))
		// The chain link and the unsorted mark, one store.
		pairSet(bt, 2*(i&bmask), uint64(tabAt(head, h))|mark)
		tabSet(head, h, v)
		v++
	}
}

// dubtSort sorts position cur, whose first slot chains to the next older
// candidate (already sorted), into the tree, comparing at most nb
// candidates and none at or below btLow (ZSTD_insertDUBT1).
func (e *Encoder) dubtSort(buf []byte, cur, end, nb, btLow int) {
	base := e.base
	bt := e.hashL
	bmask := e.btMask()
	k := 2 * (cur & bmask)
	smaller, larger := k, k+1 // the slots to fill; -1 once past the tree
	m := int32Pos(base, tabAt(bt, k))
	// The common prefixes with the smaller and larger bounds, as where
	// they end after cur (fewer values to keep than lengths here).
	es, el := cur, cur
	for ; nb > 0 && m > 0; nb-- {
		nk := 2 * (m & bmask)
		// Both children are read before the compare (one cache line):
		// the load then starts ahead of the branch.
		lo, hi := tabAt(bt, nk), tabAt(bt, nk+1)
		// Extend the common prefix a word at a time, inline (a call
		// would make the compiler keep the walk's values on the stack).
		// Two words a turn: past the bounds' common prefixes a sort
		// still often meets long equal stretches.
		d := cur - m
		a := min(es, el)
		for {
			if a+16 > end {
				for a+8 <= end && load64(buf, a) == load64(buf, a-d) {
					a += 8
				}
				for a < end && byteAt(buf, a) == byteAt(buf, a-d) {
					a++
				}
				break
			}
			if x := load64(buf, a) ^ load64(buf, a-d); x != 0 {
				a += bits.TrailingZeros64(x) >> 3
				break
			}
			if x := load64(buf, a+8) ^ load64(buf, a+8-d); x != 0 {
				a += 8 + bits.TrailingZeros64(x)>>3
				break
			}
			a += 16
		}
		if a == end {
			// Equal up to the end: its side is unknown, and a guess
			// could break the order. Drop the rest.
			break
		}
		if byteAt(buf, a-d) < byteAt(buf, a) {
			tabSet(bt, smaller, base+uint32(m))
			es = a
			if m <= btLow {
				smaller = -1
				break
			}
			smaller = nk + 1
			m = int32Pos(base, hi)
		} else {
			tabSet(bt, larger, base+uint32(m))
			el = a
			if m <= btLow {
				larger = -1
				break
			}
			larger = nk
			m = int32Pos(base, lo)
		}
	}
	if smaller >= 0 {
		tabSet(bt, smaller, 0)
	}
	if larger >= 0 {
		tabSet(bt, larger, 0)
	}
}

// btSearch is btlazy2's finder (ZSTD_BtFindBestMatch): the unsorted
// positions of ip's hash are sorted into the tree, newest last, then ip
// goes in, and on the way down the longest match is kept, a longer one
// only if its extra length pays for its larger offset (4 units a byte
// against the offset code's bits). It returns the length (possibly under
// 4) and offset, or 0 inside the stretch a long match covered.
func (e *Encoder) btSearch(buf []byte, ip, end int) (int, int) {
	base := e.base
	if ip < e.nextUpdate {
		return 0, 0
	}
	e.dubtUpdate(buf, ip)
	head, bt := e.hashT, e.hashL
	bmask := e.btMask()
	h := e.opt.th.hash(load64(buf, ip))
	btLow := max(ip-bmask, 0)
	nbCompares := 1 << e.p.slog
	nbCand := nbCompares

	// Walk the unsorted candidates, newest first, turning their marks into
	// a chain back to the newest.
	m := int32Pos(base, tabAt(head, h))
	prev := uint32(0)
	for m > btLow && tabAt(bt, 2*(m&bmask)+1) == btUnsorted && nbCand > 1 {
		k := 2 * (m & bmask)
		tabSet(bt, k+1, prev)
		prev = base + uint32(m)
		m = int32Pos(base, tabAt(bt, k))
		nbCand--
	}
	if m > btLow && tabAt(bt, 2*(m&bmask)+1) == btUnsorted {
		// Past the budget: libzstd drops the oldest unsorted candidate
		// rather than sort it.
		k := 2 * (m & bmask)
		tabSet(bt, k, 0)
		tabSet(bt, k+1, 0)
	}
	if useBtAsm {
		// The sort (where there are candidates) and the search in one
		// assembly call, made at every search. A call per search used
		// to cost runs (many short searches) more than it saved; since
		// the assembly walks ask for each node's children ahead, the
		// searches without candidates gain more (sparse_f64,
		// sensor_f64) and runs is no slower.
		m = int32Pos(base, tabAt(head, h))
		tabSet(head, h, base+uint32(ip))
		best, bestOff, matchEnd := dubtFindAsm(unsafe.SliceData(bt), unsafe.SliceData(buf), end, btLow, base, bmask, prev, nbCand, ip, m, nbCompares, unsafe.SliceData(head), e.opt.th.mul, e.opt.th.shift)
		e.nextUpdate = matchEnd - 8
		return best, bestOff
	}
	// Sort them in, oldest first.
	for prev != 0 {
		c := int32Pos(base, prev)
		next := tabAt(bt, 2*(c&bmask)+1)
		e.dubtSort(buf, c, end, nbCand, btLow)
		prev = next
		nbCand++
	}

	// Insert ip, keeping the best match met on the way.
	k := 2 * (ip & bmask)
	smaller, larger := k, k+1
	var cs, cl int
	matchEnd := ip + 9
	best, bestOff := 0, 0
	m = int32Pos(base, tabAt(head, h))
	tabSet(head, h, base+uint32(ip))
	for ; nbCompares > 0 && m > 0; nbCompares-- {
		nk := 2 * (m & bmask)
		lo, hi := tabAt(bt, nk), tabAt(bt, nk+1)
		l := min(cs, cl)
		// Extend the common prefix two words a turn, inline (a call
		// would make the compiler keep the walk's values on the stack).
		for a := ip + l; ; a += 16 {
			if a+16 > end {
				for a+8 <= end && load64(buf, a) == load64(buf, a+m-ip) {
					a += 8
				}
				for a < end && byteAt(buf, a) == byteAt(buf, a+m-ip) {
					a++
				}
				l = a - ip
				break
			}
			if d := load64(buf, a) ^ load64(buf, a+m-ip); d != 0 {
				l = a - ip + bits.TrailingZeros64(d)>>3
				break
			}
			if d := load64(buf, a+8) ^ load64(buf, a+8+m-ip); d != 0 {
				l = a + 8 - ip + bits.TrailingZeros64(d)>>3
				break
			}
		}
		if l > best {
			matchEnd = max(matchEnd, m+l)
			// The first match is taken whatever its offset (libzstd
			// starts from an offset code no match reaches); a longer one
			// if it pays for its offset. The best's offset code is
			// worked out here rather than kept: one value fewer in the
			// walk.
			if best == 0 || 4*(l-best) > int(highbit(uint32(ip-m+1)))-int(highbit(uint32(bestOff+3))) {
				best, bestOff = l, ip-m
			}
		}
		if ip+l == end {
			break
		}
		if byteAt(buf, m+l) < byteAt(buf, ip+l) {
			tabSet(bt, smaller, base+uint32(m))
			cs = l
			if m <= btLow {
				smaller = -1
				break
			}
			smaller = nk + 1
			m = int32Pos(base, hi)
		} else {
			tabSet(bt, larger, base+uint32(m))
			cl = l
			if m <= btLow {
				larger = -1
				break
			}
			larger = nk
			m = int32Pos(base, lo)
		}
	}
	if smaller >= 0 {
		tabSet(bt, smaller, 0)
	}
	if larger >= 0 {
		tabSet(bt, larger, 0)
	}
	// Inside a long repetition every position would find the same
	// match: skip them.
	e.nextUpdate = matchEnd - 8
	return best, bestOff
}

// btInsert sorts position cur into the tree as the optimal parser's
// updates do (ZSTD_insertBt1) and returns how many positions to advance:
// past most of a long repetition it found.
func (e *Encoder) btInsert(buf []byte, cur, end int) int {
	base := e.base
	head, bt := e.hashT, e.hashL
	bmask := e.btMask()
	h := e.opt.th.hash(load64(buf, cur))
	m := int32Pos(base, tabAt(head, h))
	tabSet(head, h, base+uint32(cur))
	btLow := max(cur-bmask, 0)
	k := 2 * (cur & bmask)
	smaller, larger := k, k+1
	var cs, cl int
	matchEnd := cur + 9
	best := 8
	for nb := 1 << e.p.slog; nb > 0 && m >= 0; nb-- {
		nk := 2 * (m & bmask)
		lo, hi := tabAt(bt, nk), tabAt(bt, nk+1)
		l := min(cs, cl)
		// Extend the common prefix two words a turn, inline (a call
		// would make the compiler keep the walk's values on the stack).
		for a := cur + l; ; a += 16 {
			if a+16 > end {
				for a+8 <= end && load64(buf, a) == load64(buf, a+m-cur) {
					a += 8
				}
				for a < end && byteAt(buf, a) == byteAt(buf, a+m-cur) {
					a++
				}
				l = a - cur
				break
			}
			if d := load64(buf, a) ^ load64(buf, a+m-cur); d != 0 {
				l = a - cur + bits.TrailingZeros64(d)>>3
				break
			}
			if d := load64(buf, a+8) ^ load64(buf, a+8+m-cur); d != 0 {
				l = a + 8 - cur + bits.TrailingZeros64(d)>>3
				break
			}
		}
		if l > best {
			best = l
			matchEnd = max(matchEnd, m+l)
		}
		if cur+l == end {
			break
		}
		if byteAt(buf, m+l) < byteAt(buf, cur+l) {
			tabSet(bt, smaller, base+uint32(m))
			cs = l
			if m <= btLow {
				smaller = -1
				break
			}
			smaller = nk + 1
			m = int32Pos(base, hi)
		} else {
			tabSet(bt, larger, base+uint32(m))
			cl = l
			if m <= btLow {
				larger = -1
				break
			}
			larger = nk
			m = int32Pos(base, lo)
		}
	}
	if smaller >= 0 {
		tabSet(bt, smaller, 0)
	}
	if larger >= 0 {
		tabSet(bt, larger, 0)
	}
	n := 0
	if best > 384 {
		n = min(192, best-384)
	}
	return max(n, matchEnd-(cur+8))
}

// btUpdateTree sorts the positions from e.nextUpdate up to ip into the
// tree (ZSTD_updateTree).
func (e *Encoder) btUpdateTree(buf []byte, ip, end int) {
	for i := e.nextUpdate; i < ip; {
		i += e.btInsert(buf, i, end)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
}

// limitUpdate is libzstd's limited update after a very long match
// (ZSTD_buildSeqStore): a block that starts more than 384 positions past
// the last one entered in the tree enters only the last 192 or fewer of
// them. (libzstd does so at every level; the tree strategies' ratio
// depends on it, a shuffled float series by 2%.)
func (e *Encoder) limitUpdate(start int) {
	if start > e.nextUpdate+384 {
		e.nextUpdate = start - min(192, start-e.nextUpdate-384)
	}
}

// match is one candidate of the optimal parser: its offset code (1-3 a
// repeat, else the offset plus 3) and length.
type match struct{ off, len uint32 }

const (
	optNum     = 1 << 12 // the optimal parser's window (ZSTD_OPT_NUM)
	hash3Log   = 17      // most bits of the 3-byte hash (ZSTD_HASHLOG3_MAX)
	prime3     = 506832829
	hash3Reach = 1 << 18 // a 3-byte match farther than this costs more than it saves
)

// hash3 hashes the low 3 bytes of u to hbits bits (1 to 32; the mask
// spares the compiler the code for a shift of 32 or more).
func hash3(u uint32, hbits uint8) int { return int((u << 8) * prime3 >> ((32 - hbits) & 31)) }

// hash3Find enters the positions from *next3 up to ip in the 3-byte hash
// table and returns the newest earlier position with ip's 3-byte hash
// (negative for none). The parser calls it at every position where
// nothing longer was found (all of them on incompressible data): the
// table is read and written unchecked, every hash being below its
// length 2^h3log.
func (e *Encoder) hash3Find(buf []byte, next3 *int, ip int) int {
	base := e.base
	t := e.opt.h3
	hl := e.opt.h3log
	for i := *next3; i < ip; i++ {
		tabSet(t, hash3(load32(buf, i), hl), base+uint32(i))
	}
	*next3 = max(*next3, ip)
	return int32Pos(base, tabAt(t, hash3(load32(buf, ip), hl)))
}

// repHit reports whether the repeat offset roff reaches back into buf
// from ip and the bytes there start as first (the minimum match's bytes
// at ip, masked by mmask).
func repHit(buf []byte, ip, roff int, first, mmask uint32) bool {
	return uint(roff-1) < uint(ip) && load32(buf, ip-roff)&mmask == first
}

// allMatches is ZSTD_btGetAllMatches: the tree updated up to ip, then
// the matches at ip of increasing lengths, each the shortest offset
// found for its length: the repeat offsets first (rep as the parser
// holds them; with ll0, no literals before, they shift by one), a 3-byte
// match if minMatch is 3 and nothing else is found, then the tree's.
// ip goes into the tree on the way. It returns the number of matches in
// e.opt.matches.
func (e *Encoder) allMatches(buf []byte, next3 *int, ip, end int, rep *[3]uint32, ll0 int, mls uint8) int {
	base := e.base
	if ip < e.nextUpdate {
		return 0 // inside a long repetition already entered
	}
	if ip > e.nextUpdate {
		// Most often the parser searches the position after the last
		// one entered: no call then.
		e.btUpdateTree(buf, ip, end)
	}
	o := &e.opt
	matches := o.matches[:]
	minMatch := 4
	if mls == 3 {
		minMatch = 3
	}
	sufficient := min(int(e.p.target), optNum-1)
	best := minMatch - 1
	n := 0
	mmask := ^uint32(0)
	if minMatch == 3 {
		mmask = 0xFFFFFF
	}
	first := load32(buf, ip) & mmask
	// The three repeat offsets' first bytes compared in a row before the
	// loop that measures them: on data that repeats little none matches,
	// and the loop's turns cost more.
	r0, r1, r2 := int(rep[0]), int(rep[1]), int(rep[2])
	if ll0 != 0 {
		r0, r1, r2 = r1, r2, r0-1
	}
	if repHit(buf, ip, r0, first, mmask) || repHit(buf, ip, r1, first, mmask) || repHit(buf, ip, r2, first, mmask) {
		for rc := ll0; rc < 3+ll0; rc++ {
			var roff int
			if rc == 3 {
				roff = int(rep[0]) - 1
			} else {
				roff = int(rep[rc])
			}
			if !repHit(buf, ip, roff, first, mmask) {
				continue
			}
			l := minMatch + matchLen(buf, ip+minMatch, ip+minMatch-roff, end)
			if l > best {
				best = l
				matches[n] = match{uint32(rc - ll0 + 1), uint32(l)}
				n++
				if l > sufficient || ip+l == end {
					return n
				}
			}
		}
	}
	if mls == 3 && best < 3 {
		// The first 3 bytes compared before matchLen is called: on
		// incompressible data the table always offers a candidate,
		// and it rarely matches.
		var m3 int
		if n3 := *next3; n3 == ip-1 {
			// hash3Find's most common call, one position to enter,
			// inline.
			t, hl, base := o.h3, o.h3log, e.base
			tabSet(t, hash3(load32(buf, n3), hl), base+uint32(n3))
			*next3 = ip
			m3 = int32Pos(base, tabAt(t, hash3(first, hl)))
		} else {
			m3 = e.hash3Find(buf, next3, ip)
		}
		if m3 >= 0 && ip-m3 < hash3Reach && (load32(buf, m3)^first)&0xFFFFFF == 0 {
			if l := 3 + matchLen(buf, ip+3, m3+3, end); l >= 3 {
				best = l
				matches[0] = match{uint32(ip - m3 + 3), uint32(l)}
				n = 1
				if l > sufficient || ip+l == end {
					e.nextUpdate = ip + 1
					return 1
				}
			}
		}
	}

	head, bt := e.hashT, e.hashL
	bmask := e.btMask()
	h := e.opt.th.hash(load64(buf, ip))
	m := int32Pos(base, tabAt(head, h))
	tabSet(head, h, base+uint32(ip))
	btLow := max(ip-bmask, 0)
	if useBtAsm {
		// The walk in assembly, which asks for the nodes it may go to
		// next and for later searches' head entries and candidates
		// (the Go walk reads ip+1's entry below). It writes at most
		// one match per length up to optNum+1, so matches has room.
		n, matchEnd := optWalkAsm(unsafe.SliceData(bt), unsafe.SliceData(buf), end, btLow, base, bmask, ip, m, 1<<e.p.slog, best, unsafe.SliceData(matches), n, unsafe.SliceData(head), e.opt.th.mul, e.opt.th.shift)
		e.nextUpdate = matchEnd - 8
		return n
	}
	if ip+9 <= end {
		// The next position's head entry, most often searched next: read
		// now, its cache miss overlaps this walk's (Go has no prefetch).
		e.opt.touched ^= tabAt(head, e.opt.th.hash(load64(buf, ip+1)))
	}
	k := 2 * (ip & bmask)
	smaller, larger := k, k+1
	var cs, cl int
	matchEnd := ip + 9
	for nb := 1 << e.p.slog; nb > 0 && m >= 0; nb-- {
		nk := 2 * (m & bmask)
		lo, hi := tabAt(bt, nk), tabAt(bt, nk+1)
		l := min(cs, cl)
		// Extend the common prefix two words a turn, inline (a call
		// would make the compiler keep the walk's values on the stack).
		for a := ip + l; ; a += 16 {
			if a+16 > end {
				for a+8 <= end && load64(buf, a) == load64(buf, a+m-ip) {
					a += 8
				}
				for a < end && byteAt(buf, a) == byteAt(buf, a+m-ip) {
					a++
				}
				l = a - ip
				break
			}
			if d := load64(buf, a) ^ load64(buf, a+m-ip); d != 0 {
				l = a - ip + bits.TrailingZeros64(d)>>3
				break
			}
			if d := load64(buf, a+8) ^ load64(buf, a+8+m-ip); d != 0 {
				l = a + 8 - ip + bits.TrailingZeros64(d)>>3
				break
			}
		}
		if l > best {
			matchEnd = max(matchEnd, m+l)
			best = l
			matches[n] = match{uint32(ip - m + 3), uint32(l)}
			n++
			if l > optNum || ip+l == end {
				break
			}
		}
		if ip+l == end {
			break
		}
		if byteAt(buf, m+l) < byteAt(buf, ip+l) {
			tabSet(bt, smaller, base+uint32(m))
			cs = l
			if m <= btLow {
				smaller = -1
				break
			}
			smaller = nk + 1
			m = int32Pos(base, hi)
		} else {
			tabSet(bt, larger, base+uint32(m))
			cl = l
			if m <= btLow {
				larger = -1
				break
			}
			larger = nk
			m = int32Pos(base, lo)
		}
	}
	if smaller >= 0 {
		tabSet(bt, smaller, 0)
	}
	if larger >= 0 {
		tabSet(bt, larger, 0)
	}
	e.nextUpdate = matchEnd - 8
	return n
}
