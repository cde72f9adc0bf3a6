package zstdenc

import "math/bits"

// Hash chains of 16-bit links for histories of at most 64 KiB: the byte
// planes Blosc hands zstd at clevels 3-5 (32 and 64 KiB). A link is the
// previous position with the same hash plus one (0: none), so the chain
// table is half the size of uint32 links (64 KiB for a 32 KiB plane, 128
// KiB for 64 KiB), and more of the walk's dependent reads hit the L1
// cache. The heads stay uint32 positions biased by base, so that nothing
// is cleared between frames; a link is taken from a head only when the
// head is this frame's. The search is hcSearch's, step for step: the
// same bytes.

// chain16Max is the longest history (dictionary and source) the 16-bit
// links take: positions entered are at most 8 before its end, so a
// position plus one fits.
const chain16Max = 1 << 16

// useChain16 reports whether the lazy strategies walk 16-bit links for
// a history of n bytes: with search logs of 5 and up (level 9, clevel
// 5's planes), whose walks are long enough for the L1 hits to pay for
// the dearer insert (a link is clamped to 0 when its head is from an
// earlier frame). At levels 5 and 7 the inserts weigh more and the
// uint32 links were as fast or faster (0.90-1.01).
func (e *Encoder) useChain16(n int) bool {
	return !e.noChain16 && !e.rows && e.p.strat >= stratGreedy && e.p.strat <= stratLazy2 &&
		e.p.slog >= 5 && n <= chain16Max
}

// chain16Reset sizes the links for the frame (2^chainLog of them; they
// need no clearing: a link is read only from a position entered in this
// frame).
func (e *Encoder) chain16Reset() {
	n := 1 << e.p.clog
	if cap(e.chain16) < n {
		e.chain16 = make([]uint16, n)
	}
	e.chain16 = e.chain16[:n]
}

// link16 is the link to store for a head h: its position plus one, or 0
// if it is from an earlier frame.
func link16(h, base uint32) uint16 {
	return uint16(max(int32(h-base), -1) + 1)
}

// hcSearch16 is hcSearch over the 16-bit links.
func (e *Encoder) hcSearch16(buf []byte, ip, end int, mls uint8, over int) (int, int) {
	head, chain := e.hashT, e.chain16
	hh := newHasher(mls, e.p.hlog)
	mask := len(chain) - 1
	base := e.base
	i := e.nextUpdate
	if ip-i > rowSkipThreshold {
		// The inside of a long match, as in hcSearch.
		for stop := i + rowSkipStart; i < stop; i++ {
			h := hh.hash(load64(buf, i))
			chain[i&mask] = link16(head[h], base)
			head[h] = base + uint32(i)
		}
		i = ip - rowSkipEnd
	}
	for ; i < ip; i++ {
		h := hh.hash(load64(buf, i))
		chain[i&mask] = link16(head[h], base)
		head[h] = base + uint32(i)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
	m := int(int32(head[hh.hash(load64(buf, ip))] - base))

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

// loadDict16 enters a dictionary's positions into the heads and 16-bit
// links, as loadDict does into the uint32 ones.
func (e *Encoder) loadDict16(d []byte) {
	mls := min(max(e.p.minMatch, 4), 6)
	head, chain := e.hashT, e.chain16
	mask := len(chain) - 1
	i := 0
	for ; i+8 <= len(d); i++ {
		h := hashN(load64(d, i), mls, e.p.hlog)
		chain[i&mask] = link16(head[h], e.base)
		head[h] = e.base + uint32(i)
	}
	e.nextUpdate = i
}
