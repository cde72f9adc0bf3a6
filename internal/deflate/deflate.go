// Package deflate writes zlib streams (RFC 1950 around RFC 1951 deflate)
// the way zlib 1.2.13's compress2 writes them at levels 1-9: the same
// matches, the same block boundaries, the same Huffman trees, so the same
// bytes. c-blosc2 compresses each block of a zlib chunk with compress2 at
// the Blosc clevel; this encoder reproduces those streams without cgo.
//
// The parse follows zlib's deflate.c: a 32 KiB window slid through a
// 64 KiB buffer, a 15-bit hash of three bytes with hash chains, zlib's
// configuration table (good, lazy, nice, chain per level), deflate_fast
// at levels 1-3 and the lazy deflate_slow (with the TOO_FAR rule) at
// 4-9. Blocks end when 16383 symbols are buffered, and each is written
// stored, with the fixed codes or with dynamic codes, whichever zlib's
// computed lengths choose (trees.go).
//
// An Encoder is reusable and does not allocate once made; it is not safe
// for concurrent use.
package deflate

import (
	"hash/adler32"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

const (
	wSize        = 1 << 15 // window, zlib's default windowBits 15
	wMask        = wSize - 1
	windowSize   = 2 * wSize
	hashBits     = 15 // memLevel 8 + 7
	hashSize     = 1 << hashBits
	hashMask     = hashSize - 1
	minMatch     = 3
	maxMatch     = 258
	minLookahead = maxMatch + minMatch + 1
	maxDist      = wSize - minLookahead
	winInit      = maxMatch
	tooFar       = 4096
	litBufSize   = 1 << 14 // memLevel 8 + 6
	symEnd       = litBufSize - 1
	// windowPad lets the match scan load 8 bytes at a time past the last
	// byte zlib would read; the length is capped before those bytes count.
	windowPad = 16
)

// config is one row of zlib's configuration_table.
type config struct {
	good, lazy, nice, chain int
}

var configTable = [10]config{
	{0, 0, 0, 0},
	{4, 4, 8, 4},
	{4, 5, 16, 8},
	{4, 6, 32, 32},
	{4, 4, 16, 16},
	{8, 16, 32, 32},
	{8, 16, 128, 128},
	{8, 32, 128, 256},
	{32, 128, 258, 1024},
	{32, 258, 258, 4096},
}

// Bound is zlib's compressBound: the largest stream compress2 can write
// for n input bytes.
func Bound(n int) int {
	return n + n>>12 + n>>14 + n>>25 + 13
}

// Encoder holds the window, hash chains, symbol buffer and trees of one
// stream at a time. The zero value is ready to use; it is large (about
// 300 KiB), so keep one and reuse it.
type Encoder struct {
	window [windowSize + windowPad]byte
	prev   [wSize]uint16
	head   [hashSize]uint16
	syms   [litBufSize]uint32 // distance<<8 | length-3, or a literal byte

	src   []byte
	inPos int

	strstart, lookahead int
	matchStart          int
	blockStart          int
	highWater           int
	matchLength         int
	prevLength          int
	prevMatch           int
	matchAvailable      bool
	good, lazy, nice    int
	chain               int
	nsym                int
	out                 bitWriter
	trees               trees
}

// Compress writes src as one zlib stream at level (1-9, or -1 for zlib's
// default 6) into dst and returns its length. It returns 0 when the
// stream does not fit in dst, as compress2 fails then, or when level is
// out of range.
func (e *Encoder) Compress(dst, src []byte, level int) int {
	if level == -1 {
		level = 6
	}
	if level < 1 || level > 9 || len(dst) < 2 {
		return 0
	}
	e.reset(dst, src, level)
	// The zlib header as deflate() writes it: CM 8, CINFO 7, the level
	// class in FLEVEL and FCHECK making it a multiple of 31.
	flevel := 3
	switch {
	case level < 2:
		flevel = 0
	case level < 6:
		flevel = 1
	case level == 6:
		flevel = 2
	}
	header := (8+(7<<4))<<8 | flevel<<6
	header += 31 - header%31
	dst[0], dst[1] = byte(header>>8), byte(header)
	e.out.n = 2
	var ok bool
	if level <= 3 {
		ok = e.deflateFast()
	} else {
		ok = e.deflateSlow()
	}
	e.src = nil
	if !ok || e.out.fail {
		return 0
	}
	n := e.out.n
	if len(dst)-n < 4 {
		return 0
	}
	a := adler32.Checksum(src)
	dst[n], dst[n+1], dst[n+2], dst[n+3] = byte(a>>24), byte(a>>16), byte(a>>8), byte(a)
	return n + 4
}

// AppendCompress appends the zlib stream of src at level to dst.
func (e *Encoder) AppendCompress(dst, src []byte, level int) []byte {
	n0 := len(dst)
	need := Bound(len(src))
	if cap(dst)-n0 < need {
		grown := make([]byte, n0, n0+need)
		copy(grown, dst)
		dst = grown
	}
	n := e.Compress(dst[n0:n0+need], src, level)
	return dst[:n0+n]
}

func (e *Encoder) reset(dst, src []byte, level int) {
	c := configTable[level]
	e.good, e.lazy, e.nice, e.chain = c.good, c.lazy, c.nice, c.chain
	e.src, e.inPos = src, 0
	e.strstart, e.lookahead, e.matchStart, e.blockStart, e.highWater = 0, 0, 0, 0, 0
	e.matchLength, e.prevLength, e.prevMatch = minMatch-1, minMatch-1, 0
	e.matchAvailable = false
	e.nsym = 0
	// zlib clears head; prev is written before it is read.
	clear(e.head[:])
	e.out = bitWriter{buf: dst}
	e.trees.initBlock()
}

// fillWindow is zlib's fill_window for one call with all input present:
// slide the upper half down when strstart nears the end, read as much
// input as fits, and zero the bytes past the data that the match scan
// may read and that were never written.
func (e *Encoder) fillWindow() {
	for {
		more := windowSize - e.lookahead - e.strstart
		if e.strstart >= wSize+maxDist {
			copy(e.window[:wSize-more], e.window[wSize:windowSize-more])
			e.matchStart -= wSize
			e.strstart -= wSize
			e.blockStart -= wSize
			e.slideHash()
			more += wSize
		}
		if e.inPos == len(e.src) {
			break
		}
		n := copy(e.window[e.strstart+e.lookahead:e.strstart+e.lookahead+more], e.src[e.inPos:])
		e.inPos += n
		e.lookahead += n
		if e.lookahead >= minLookahead || e.inPos == len(e.src) {
			break
		}
	}
	if e.highWater < windowSize {
		curr := e.strstart + e.lookahead
		if e.highWater < curr {
			init := min(windowSize-curr, winInit)
			clear(e.window[curr : curr+init])
			e.highWater = curr + init
		} else if e.highWater < curr+winInit {
			init := min(curr+winInit-e.highWater, windowSize-e.highWater)
			clear(e.window[e.highWater : e.highWater+init])
			e.highWater += init
		}
	}
}

// slideHash moves every chain link down by the window size, dropping the
// ones that fall out of it (zlib's slide_hash). wSize is the top bit of a
// link, so a link at or above it loses that bit and one below it becomes
// 0 (NIL).
func (e *Encoder) slideHash() {
	slideLinks(e.head[:])
	slideLinks(e.prev[:])
}

// hashAt is zlib's running hash (shift 5, 15 bits) of the three bytes at
// p; after three updates the running value depends on those bytes only.
func hashAt(w []byte, p int) int {
	v := le.Load32(w, p)
	return int((v&0xff)<<10^(v>>8&0xff)<<5^(v>>16&0xff)) & hashMask
}

// insert is INSERT_STRING: link position p into its chain and return the
// chain's previous head.
func (e *Encoder) insert(p int) int {
	h := hashAt(e.window[:], p)
	old := e.head[h]
	e.prev[p&wMask] = old
	e.head[h] = uint16(p)
	return int(old)
}

// longestMatch is zlib's longest_match: walk the chain from cur, keeping
// the first longest match longer than bestLen, and return its length
// capped at the lookahead. matchStart is left alone when nothing beats
// bestLen, as in zlib (deflate_slow's TOO_FAR test then sees the old one).
func (e *Encoder) longestMatch(cur, bestLen int) int {
	w := e.window[:]
	scan := e.strstart
	chain := e.chain
	if bestLen >= e.good {
		chain >>= 2
	}
	nice := min(e.nice, e.lookahead)
	limit := 0
	if scan > maxDist {
		limit = scan - maxDist
	}
	prev := &e.prev
	// scan <= windowSize-minLookahead, so every load below stays within
	// the window and its pad.
	//
	// zlib examines a candidate only when its bytes at bestLen-1, bestLen,
	// 0 and 1 agree with the scan's. Only a candidate whose bytes 0 to
	// bestLen all agree can beat bestLen, so checking the four bytes
	// ending at bestLen (the three bytes 0-2 while bestLen is 2) examines
	// fewer candidates and keeps the same ones.
	scanStart := le.Load16(w, scan)
	endOff, endMask := endCheck(bestLen)
	scanEnd := le.Load32(w, scan+endOff) & endMask
	for {
		if le.Load32(w, cur+endOff)&endMask == scanEnd && le.Load16(w, cur) == scanStart {
			// The third bytes are equal too: equal first two bytes and
			// equal hashes imply it, and zlib does not compare them.
			n := 2 + commonPrefix(w, scan+2, cur+2)
			if n > bestLen {
				e.matchStart = cur
				bestLen = n
				if n >= nice {
					break
				}
				endOff, endMask = endCheck(bestLen)
				scanEnd = le.Load32(w, scan+endOff) & endMask
			}
		}
		cur = int(prev[cur&wMask])
		if cur <= limit {
			break
		}
		chain--
		if chain == 0 {
			break
		}
	}
	return min(bestLen, e.lookahead)
}

// longestMatchRuns is longestMatch at levels 8-9 (chains of 1024 and
// 4096). For a scan that starts with a run of one byte b, d long (3 <= d
// < maxMatch), the chain runs through runs of b, where each position
// links to the one before. A candidate in such a run whose own run of b
// is r long matches exactly min(r, d) bytes unless r == d (the bytes after
// the runs differ from b), so once bestLen >= d the only one of a run
// that can do better is the one d before the run's end: skipRun steps
// over the others as the walk would, counting the chain and stopping at
// the limit as it does, without the walk's chain of dependent loads.
// The walk is longestMatch's; it is a function of its own, called by
// deflateSlow at levels 8-9 only, because the skip's variables in
// longestMatch's loop made the compiler keep the loop's own on the stack,
// and the choice inside longestMatch cost every call (DEFLATE_TABLE:
// levels 1-7, which never skip, 0.83-0.95 on several datasets).
func (e *Encoder) longestMatchRuns(cur, bestLen int) int {
	w := e.window[:]
	scan := e.strstart
	b := w[scan]
	bb := uint64(b) * 0x0101010101010101
	d := runLen(w, scan, b, maxMatch)
	if d < minMatch || d >= maxMatch {
		return e.longestMatch(cur, bestLen)
	}
	chain := e.chain
	if bestLen >= e.good {
		chain >>= 2
	}
	nice := min(e.nice, e.lookahead)
	limit := 0
	if scan > maxDist {
		limit = scan - maxDist
	}
	prev := &e.prev
	scanStart := le.Load16(w, scan)
	endOff, endMask := endCheck(bestLen)
	scanEnd := le.Load32(w, scan+endOff) & endMask
	for {
		if le.Load32(w, cur+endOff)&endMask == scanEnd && le.Load16(w, cur) == scanStart {
			n := 2 + commonPrefix(w, scan+2, cur+2)
			if n > bestLen {
				e.matchStart = cur
				bestLen = n
				if n >= nice {
					break
				}
				endOff, endMask = endCheck(bestLen)
				scanEnd = le.Load32(w, scan+endOff) & endMask
			}
		}
		// A skip is tried where at least the eight positions below cur
		// are b and cur links to the one below it: shorter runs cost
		// more to step over than to walk (sensor_f32 0.87 of the walk's
		// speed at level 9 without the eight).
		if bestLen >= d && cur >= 8 && le.Load64(w, cur-8) == bb && w[cur] == b && int(prev[cur&wMask]) == cur-1 {
			if k := skipRun(w, prev, cur, b, d, min(chain-1, cur-limit-1)); k > 0 {
				cur -= k
				chain -= k
				continue
			}
		}
		cur = int(prev[cur&wMask])
		if cur <= limit {
			break
		}
		chain--
		if chain == 0 {
			break
		}
	}
	return min(bestLen, e.lookahead)
}

// threeAlike reports whether the low three bytes of v are one byte.
func threeAlike(v uint32) bool { return (v^v>>8)&0xffff == 0 }

// runSkip, when false, makes deflateSlow walk every position of the
// runs skipRun steps over (tests compare the two walks' streams).
var runSkip = true

// runLen returns how many bytes from w[p] on equal b, at most max: 32
// bytes a turn while they are all b (a long run's scan costs a quarter
// of the turns: arange and zeros at levels 8-9), then 8.
func runLen(w []byte, p int, b byte, max int) int {
	bb := uint64(b) * 0x0101010101010101
	n := 0
	for ; n+32 <= max; n += 32 {
		if (le.Load64(w, p+n)^bb)|(le.Load64(w, p+n+8)^bb)|(le.Load64(w, p+n+16)^bb)|(le.Load64(w, p+n+24)^bb) != 0 {
			break
		}
	}
	for ; n < max; n += 8 {
		if x := le.Load64(w, p+n) ^ bb; x != 0 {
			return min(n+bits.TrailingZeros64(x)>>3, max)
		}
	}
	return max
}

// skipRun returns how many steps of the chain walk from cur (a position
// whose bytes start with b) go down a run of b one position at a time,
// each to a candidate that cannot match longer than d bytes (its own
// run, longer or shorter than d, ends the match at or before d), no
// more than most of them; the walk then goes on from the position that many
// below cur, which is either the one candidate of the run whose run is
// exactly d long, or the last position of the run that links to the one
// before it.
//
//go:noinline
func skipRun(w []byte, prev *[wSize]uint16, cur int, b byte, d, most int) int {
	lo := cur - most
	if r := runLen(w, cur, b, d+1); r < d {
		// The candidate whose run is d long.
		lo = max(lo, cur-(d-r))
	}
	x := cur
	// Eight steps at a time: the eight bytes below x are b and the
	// positions x-7 to x each link to the one before.
	bb := uint64(b) * 0x0101010101010101
	for x-8 >= lo && x&wMask >= 7 && le.Load64(w, x-8) == bb {
		p := prev[x&wMask-7 : x&wMask+1]
		v := uint16(x - 8)
		if p[0] != v || p[1] != v+1 || p[2] != v+2 || p[3] != v+3 ||
			p[4] != v+4 || p[5] != v+5 || p[6] != v+6 || p[7] != v+7 {
			break
		}
		x -= 8
	}
	for x > lo && w[x-1] == b && int(prev[x&wMask]) == x-1 {
		x--
	}
	return cur - x
}

// endCheck returns where the four bytes ending at index bestLen start,
// and which of them a longer match must agree on.
func endCheck(bestLen int) (int, uint32) {
	if bestLen < 3 {
		return 0, 0x00ffffff
	}
	return bestLen - 3, 0xffffffff
}

// commonPrefix returns how many bytes at a and b agree, at most
// maxMatch-2.
func commonPrefix(w []byte, a, b int) int {
	for n := 0; n < maxMatch-2; n += 8 {
		if x := le.Load64(w, a+n) ^ le.Load64(w, b+n); x != 0 {
			return min(n+bits.TrailingZeros64(x)>>3, maxMatch-2)
		}
	}
	return maxMatch - 2
}

func (e *Encoder) tallyLit(c byte) bool {
	e.syms[e.nsym] = uint32(c)
	e.nsym++
	e.trees.lfreq[c]++
	return e.nsym == symEnd
}

func (e *Encoder) tallyDist(dist, lc int) bool {
	e.syms[e.nsym] = uint32(dist)<<8 | uint32(lc)
	e.nsym++
	e.trees.lfreq[int(lengthCode[lc])+literals+1]++
	e.trees.dfreq[distCode(dist-1)]++
	return e.nsym == symEnd
}

// flushBlock is FLUSH_BLOCK: the block from blockStart to strstart, with
// its bytes only while they are still in the window.
func (e *Encoder) flushBlock(last bool) bool {
	var stored []byte
	if e.blockStart >= 0 {
		stored = e.window[e.blockStart:e.strstart]
	}
	e.flushTrees(stored, e.blockStart >= 0, e.strstart-e.blockStart, last)
	e.blockStart = e.strstart
	return !e.out.fail
}

// deflateFast is zlib's deflate_fast (levels 1-3): take the longest match
// at each position, and insert the positions inside a match into the
// chains only when the match is at most lazy bytes long.
func (e *Encoder) deflateFast() bool {
	for {
		if e.lookahead < minLookahead {
			e.fillWindow()
			if e.lookahead == 0 {
				break
			}
		}
		head := 0
		if e.lookahead >= minMatch {
			head = e.insert(e.strstart)
		}
		if head != 0 && e.strstart-head <= maxDist {
			e.matchLength = e.longestMatch(head, minMatch-1)
		}
		var flush bool
		if e.matchLength >= minMatch {
			ml := e.matchLength
			flush = e.tallyDist(e.strstart-e.matchStart, ml-minMatch)
			e.lookahead -= ml
			if ml <= e.lazy && e.lookahead >= minMatch {
				for p := e.strstart + 1; p < e.strstart+ml; p++ {
					e.insert(p)
				}
			}
			e.strstart += ml
			e.matchLength = 0
		} else {
			flush = e.tallyLit(e.window[e.strstart])
			e.lookahead--
			e.strstart++
		}
		if flush && !e.flushBlock(false) {
			return false
		}
	}
	return e.flushBlock(true)
}

// deflateSlow is zlib's deflate_slow (levels 4-9): a match is emitted
// only when the match at the next position is not longer.
func (e *Encoder) deflateSlow() bool {
	for {
		if e.lookahead < minLookahead {
			e.fillWindow()
			if e.lookahead == 0 {
				break
			}
		}
		head := 0
		if e.lookahead >= minMatch {
			head = e.insert(e.strstart)
		}
		e.prevLength, e.prevMatch = e.matchLength, e.matchStart
		e.matchLength = minMatch - 1
		if head != 0 && e.prevLength < e.lazy && e.strstart-head <= maxDist {
			if e.chain >= 1024 && runSkip && threeAlike(le.Load32(e.window[:], e.strstart)) {
				e.matchLength = e.longestMatchRuns(head, e.prevLength)
			} else {
				e.matchLength = e.longestMatch(head, e.prevLength)
			}
			if e.matchLength == minMatch && e.strstart-e.matchStart > tooFar {
				e.matchLength = minMatch - 1
			}
		}
		if e.prevLength >= minMatch && e.matchLength <= e.prevLength {
			maxInsert := e.strstart + e.lookahead - minMatch
			flush := e.tallyDist(e.strstart-1-e.prevMatch, e.prevLength-minMatch)
			e.lookahead -= e.prevLength - 1
			end := e.strstart + e.prevLength - 1
			for p := e.strstart + 1; p < end; p++ {
				if p <= maxInsert {
					e.insert(p)
				}
			}
			e.strstart = end
			e.matchAvailable = false
			e.matchLength = minMatch - 1
			if flush && !e.flushBlock(false) {
				return false
			}
		} else if e.matchAvailable {
			if e.tallyLit(e.window[e.strstart-1]) && !e.flushBlock(false) {
				return false
			}
			e.strstart++
			e.lookahead--
		} else {
			e.matchAvailable = true
			e.strstart++
			e.lookahead--
		}
	}
	if e.matchAvailable {
		e.tallyLit(e.window[e.strstart-1])
		e.matchAvailable = false
	}
	return e.flushBlock(true)
}
