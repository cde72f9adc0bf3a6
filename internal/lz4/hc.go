package lz4

import (
	"encoding/binary"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

// The constants of lz4hc.c (LZ4 1.9.4, which Debian's liblz4 is and which
// both c-blosc 1.21 and c-blosc2 link here) that decide its output.
const (
	hcHashLog   = 15 // LZ4HC_HASH_LOG
	hcHashSize  = 1 << hcHashLog
	hcChainSize = 1 << 16 // LZ4HC_MAXD: the chain is indexed by a position's low 16 bits
	hcStart     = 64 << 10
	optimalML   = 15 - 1 + minMatch // OPTIMAL_ML: (ML_MASK-1)+MINMATCH
	// MaxHCLevel is the highest level CompressBlockHC takes: c-blosc
	// passes its clevel (1..9) to LZ4_compress_HC unchanged, and levels
	// 10-12 are lz4hc.c's other (optimal parsing) algorithm.
	MaxHCLevel = 9
)

// hcSearches is LZ4HC's clTable for levels 0..9: how many chain entries
// the match finder examines (levels 0-2 share the first row; level 0
// never reaches it, being turned into 9 first).
var hcSearches = [MaxHCLevel + 1]int{2, 2, 2, 4, 8, 16, 32, 64, 128, 256}

// HCCompressor compresses as LZ4_compress_HC does at levels 1..9, its
// hash-chain strategy. The zero value is ready to use; it holds the hash
// and chain tables (384 KiB) and is not safe for concurrent use.
//
// Positions are indexed as C indexes them: position p of the input is
// p + 64 KiB, so that the hash table's zeros read as "no earlier
// position", and C's arithmetic on indexes carries over unchanged.
type HCCompressor struct {
	hash       [hcHashSize]uint32
	chain      [hcChainSize]uint16
	nextInsert uint32 // the first index not yet in the tables

	src       []byte
	searches  int
	patterns  bool // pattern analysis, which lz4hc.c enables above 128 searches
	dst       []byte
	op        int
	limited   bool
	overflown bool
}

// CompressBlockHC compresses src into dst as LZ4_compress_HC(src, dst,
// len(src), len(dst), level) does, and returns the block's length, or 0
// where C returns 0: when the block does not fit dst (C, and so this,
// decides it with conservative margins when len(dst) is below
// CompressBlockBound(len(src))), and when len(src) exceeds MaxInputSize.
// Levels below 1 act as 9 (LZ4HC_CLEVEL_DEFAULT), as in C; levels above 9
// act as 9, where C would switch to its optimal parser. It never writes
// past len(dst).
func (c *HCCompressor) CompressBlockHC(dst, src []byte, level int) int {
	if len(src) > MaxInputSize {
		return 0
	}
	if level < 1 || level > MaxHCLevel {
		level = MaxHCLevel
	}
	// LZ4_compress_HC starts from a zeroed state: an empty hash table
	// (the chain's contents are never read before written).
	clear(c.hash[:])
	c.nextInsert = hcStart
	c.src = src
	c.searches = hcSearches[level]
	c.patterns = c.searches > 128
	c.dst = dst
	c.op = 0
	c.limited = len(dst) < CompressBlockBound(len(src))
	c.overflown = false
	n := c.compress()
	c.src, c.dst = nil, nil
	return n
}

// insertFirst inserts the positions up to ip (excluded) and returns the
// hash table's entry for ip, whose first 4 bytes are pattern: the head of
// its chain. When it has just inserted ip-1 and ip-1 hashes as ip does,
// that is ip-1's index, which it then returns without reading it back
// from the table: a load that just follows the store to the same place
// stalls the search when every position of a long run hashes alike.
func (c *HCCompressor) insertFirst(ip int, pattern uint32) uint32 {
	ipIndex := uint32(ip + hcStart)
	h := pattern * prime4 >> (32 - hcHashLog)
	if next := c.nextInsert; next < ipIndex {
		c.nextInsert = ipIndex
		if next == ipIndex-1 {
			// Only ip-1, the usual case of the first-match search:
			// inline, without the calls.
			prev := le.Load32(c.src, ip-1) * prime4 >> (32 - hcHashLog)
			c.chain[uint16(next)] = uint16(min(next-c.hash[prev], distanceMax))
			c.hash[prev] = next
			if prev == h {
				return next
			}
			return c.hash[h]
		}
		insertRange(c.src, &c.hash, &c.chain, next, ipIndex)
		if le.Load32(c.src, ip-1)*prime4>>(32-hcHashLog) == h {
			return ipIndex - 1
		}
		return c.hash[h]
	}
	// As in C, even below the last target: a search before it re-inserts
	// positions, which changes the chains, and so the output.
	c.nextInsert = ipIndex
	return c.hash[h]
}

// countPattern is LZ4HC_countPattern: how many bytes from src[p:end]
// continue pattern, a 32-bit sample of a pattern of period 1, 2 or 4,
// read little-endian.
func countPattern(src []byte, p, end int, pattern uint32) int {
	start := p
	pat := uint64(pattern) | uint64(pattern)<<32
	for p < end-7 {
		diff := le.Load64(src, p) ^ pat
		if diff != 0 {
			return p + bits.TrailingZeros64(diff)>>3 - start
		}
		p += 8
	}
	for p < end && src[p] == byte(pat) {
		p++
		pat >>= 8
	}
	return p - start
}

// reverseCountPattern is LZ4HC_reverseCountPattern: how many bytes before
// src[p] continue pattern backwards, down to src[low].
func reverseCountPattern(src []byte, p, low int, pattern uint32) int {
	start := p
	// 8 bytes a step are two of C's 4-byte steps.
	for pat := uint64(pattern) | uint64(pattern)<<32; p >= low+8 && le.Load64(src, p-8) == pat; {
		p -= 8
	}
	for p >= low+4 && le.Load32(src, p-4) == pattern {
		p -= 4
	}
	for k := 3; p > low && k >= 0 && src[p-1] == byte(pattern>>(8*k)); k-- {
		p--
	}
	return start - p
}

// widerMatch is LZ4HC_InsertAndGetWiderMatch without a dictionary, at
// level 9 (pattern analysis on; chainMatch serves the levels below): it
// searches the chain of ip for a match longer than longest that may
// start before ip, down to low, and ends by high. It returns ip, the
// length, and the match's position and start when it found a longer one
// (else match and start are returned unchanged).
//
// With no look-back (low == ip) it is LZ4HC_InsertAndFindBestMatch for
// each position from ip to last in turn, until one finds a match; else
// last is ip. When none does it returns last+1 and the length it was
// given. One call for a run of positions spares a call for each.
func (c *HCCompressor) widerMatch(ip, last, low, high, longest, match, start int) (int, int, int, int) {
	src, hash, chain := c.src, &c.hash, &c.chain
	const prefixIdx = hcStart
	lookBack := ip - low
	given := longest
	type repeatState int
	const (
		untested repeatState = iota
		not
		confirmed
	)
	for ; ; ip++ {
		ipIndex := uint32(ip + hcStart)
		lowestMatchIndex := uint32(hcStart)
		if ipIndex >= hcStart+distanceMax+1 {
			lowestMatchIndex = ipIndex - distanceMax
		}
		if lookBack == 0 {
			low = ip
		}
		attempts := c.searches
		pattern := le.Load32(src, ip)
		repeat := untested
		srcPatternLength := 0
		// insertFirst, inline: a call for each position costs.
		var matchIndex uint32
		h := pattern * prime4 >> (32 - hcHashLog)
		if next := c.nextInsert; next < ipIndex {
			last := le.Load32(src, ip-1) * prime4 >> (32 - hcHashLog)
			if next == ipIndex-1 {
				chain[uint16(next)] = uint16(min(next-hash[last], distanceMax))
				hash[last] = next
			} else {
				insertRange(src, hash, chain, next, ipIndex)
			}
			if last == h {
				matchIndex = ipIndex - 1
			} else {
				matchIndex = hash[h]
			}
		} else {
			matchIndex = hash[h]
		}
		c.nextInsert = ipIndex
	walk:
		for matchIndex >= lowestMatchIndex && attempts > 0 {
			attempts--
			mp := int(matchIndex - hcStart)
			// The common step, in a loop of its own without calls, so that
			// its state stays in registers: a candidate that fails the
			// quick test, linked to the next by more than 1 (no pattern).
			// Both loads are within src: low+longest+1 <= high, and
			// mp-lookBack+longest-1 > mp, since longest > lookBack.
			for le.Load16(src, low+longest-1) != le.Load16(src, mp-lookBack+longest-1) {
				distNext := uint32(chain[uint16(matchIndex)])
				if distNext == 1 {
					break
				}
				matchIndex -= distNext
				if matchIndex < lowestMatchIndex || attempts <= 0 {
					break walk
				}
				attempts--
				mp = int(matchIndex - hcStart)
			}
			if le.Load16(src, low+longest-1) == le.Load16(src, mp-lookBack+longest-1) && le.Load32(src, mp) == pattern {
				// As in chainMatch: the first 8 bytes back and forward inline.
				back := 0
				if lim := min(lookBack, mp); lim > 0 {
					if mp >= 8 {
						equal := bits.LeadingZeros64(le.Load64(src, ip-8)^le.Load64(src, mp-8)) >> 3
						if equal == 8 && lim > 8 {
							back = countBack(src, ip-8, mp-8, 8-lim) - 8
						} else {
							back = -min(equal, lim)
						}
					} else {
						back = countBack(src, ip, mp, -lim)
					}
				}
				length := minMatch
				if ip+minMatch+8 <= high {
					if d := le.Load64(src, ip+minMatch) ^ le.Load64(src, mp+minMatch); d != 0 {
						length += bits.TrailingZeros64(d) >> 3
					} else {
						length += 8 + countMatch(src, ip+minMatch+8, mp+minMatch+8, high)
					}
				} else {
					length += countMatch(src, ip+minMatch, mp+minMatch, high)
				}
				if length -= back; length > longest {
					longest = length
					match = mp + back
					start = ip + back
				}
			}

			distNext := uint32(chain[uint16(matchIndex)])
			if distNext == 1 {
				cand := matchIndex - 1
				if repeat == untested {
					if pattern&0xFFFF == pattern>>16 && pattern&0xFF == pattern>>24 {
						repeat = confirmed
						srcPatternLength = countPattern(src, ip+4, high, pattern) + 4
					} else {
						repeat = not
					}
				}
				if repeat == confirmed && cand >= lowestMatchIndex && protectDictEnd(prefixIdx, cand) {
					mp := int(cand - hcStart)
					if binary.LittleEndian.Uint32(src[mp:]) == pattern {
						forward := countPattern(src, mp+4, high, pattern) + 4
						backLength := reverseCountPattern(src, mp, 0, pattern)
						// Not back past the lowest index.
						backLength = int(cand - max(cand-uint32(backLength), lowestMatchIndex))
						segment := backLength + forward
						if segment >= srcPatternLength && forward <= srcPatternLength {
							// The best place: the whole source pattern, maybe
							// followed by more match.
							newIndex := cand + uint32(forward) - uint32(srcPatternLength)
							if protectDictEnd(prefixIdx, newIndex) {
								matchIndex = newIndex
							} else {
								matchIndex = prefixIdx
							}
						} else {
							// The farthest place in this segment.
							newIndex := cand - uint32(backLength)
							if !protectDictEnd(prefixIdx, newIndex) {
								matchIndex = prefixIdx
							} else {
								matchIndex = newIndex
								if lookBack == 0 {
									maxML := min(segment, srcPatternLength)
									if longest < maxML {
										if ipIndex-matchIndex > distanceMax {
											break
										}
										longest = maxML
										match = int(matchIndex - hcStart)
										start = ip
									}
									dist := uint32(c.chain[uint16(matchIndex)])
									if dist > matchIndex {
										break
									}
									matchIndex -= dist
								}
							}
						}
						continue
					}
				}
			}
			matchIndex -= distNext
		}
		if longest > given {
			return ip, longest, match, start
		}
		if ip >= last {
			return last + 1, longest, match, start
		}
	}
}

// chainMatch is widerMatch below level 9, where lz4hc.c's pattern
// analysis is off: the same chain walk, with the insertion inline and
// nothing else live in the loop, so that its state stays in registers.
func (c *HCCompressor) chainMatch(ip, low, high, longest, match, start int) (int, int, int) {
	src, chain := c.src, &c.chain
	ipIndex := uint32(ip + hcStart)
	lowest := uint32(hcStart)
	if ipIndex >= hcStart+distanceMax+1 {
		lowest = ipIndex - distanceMax
	}
	lookBack := ip - low
	pattern := le.Load32(src, ip)
	matchIndex := c.insertFirst(ip, pattern)
	for attempts := c.searches; matchIndex >= lowest && attempts > 0; attempts-- {
		mp := int(matchIndex - hcStart)
		// In src, as in widerMatch.
		if le.Load16(src, low+longest-1) == le.Load16(src, mp-lookBack+longest-1) && le.Load32(src, mp) == pattern {
			// countBack and countMatch, their first 8 bytes inline:
			// most matches end within them, and a call costs the
			// spilling of every register live here.
			// The 8 bytes before ip and mp are within src when mp >= 8
			// (mp < ip), whatever the limit, which then caps the count.
			back := 0
			if lim := min(lookBack, mp); lim > 0 {
				if mp >= 8 {
					equal := bits.LeadingZeros64(le.Load64(src, ip-8)^le.Load64(src, mp-8)) >> 3
					if equal == 8 && lim > 8 {
						back = countBack(src, ip-8, mp-8, 8-lim) - 8
					} else {
						back = -min(equal, lim)
					}
				} else {
					back = countBack(src, ip, mp, -lim)
				}
			}
			length := minMatch
			if ip+minMatch+8 <= high {
				if d := le.Load64(src, ip+minMatch) ^ le.Load64(src, mp+minMatch); d != 0 {
					length += bits.TrailingZeros64(d) >> 3
				} else {
					length += 8 + countMatch(src, ip+minMatch+8, mp+minMatch+8, high)
				}
			} else {
				length += countMatch(src, ip+minMatch, mp+minMatch, high)
			}
			if length -= back; length > longest {
				longest, match, start = length, mp+back, ip+back
			}
		}
		matchIndex -= uint32(chain[uint16(matchIndex)])
	}
	return longest, match, start
}

// nextMatch is the main loop's search for a first match: from ip to last
// (mflimit), the first position where LZ4HC_InsertAndFindBestMatch (a
// widerMatch with no look-back and no match yet) finds one of minMatch
// bytes or more. It returns that position, the length and the match's
// position, or last+1 and a length below minMatch (match unchanged).
// Below level 9 the search is its own loop, without the look-back and
// pattern bookkeeping, and the insertion of each position is inline.
func (c *HCCompressor) nextMatch(ip, last, high, match int) (int, int, int) {
	if ip > last {
		return ip, minMatch - 1, match
	}
	if c.patterns {
		ip, longest, match, _ := c.widerMatch(ip, last, ip, high, minMatch-1, match, ip)
		return ip, longest, match
	}
	src, hash, chain := c.src, &c.hash, &c.chain
	// LZ4HC_Insert up to ip, and the head of ip's chain; after a miss at
	// ip the loop inserts ip itself, with the hash and the head it has,
	// before the search at ip+1, whose head it knows without a load
	// when ip+1 hashes as ip did.
	head := c.insertFirst(ip, le.Load32(src, ip))
	for ; ip <= last; ip++ {
		ipIndex := uint32(ip + hcStart)
		lowest := uint32(hcStart)
		if ipIndex >= hcStart+distanceMax+1 {
			lowest = ipIndex - distanceMax
		}
		pattern := le.Load32(src, ip)
		h := pattern * prime4 >> (32 - hcHashLog)
		longest := minMatch - 1
		matchIndex := head
		for attempts := c.searches; matchIndex >= lowest && attempts > 0; attempts-- {
			mp := int(matchIndex - hcStart)
			// In src: ip+longest+1 <= high+1, and mp < ip.
			if le.Load16(src, ip+longest-1) == le.Load16(src, mp+longest-1) && le.Load32(src, mp) == pattern {
				// countMatch, its first 8 bytes inline, as in chainMatch.
				length := minMatch
				if ip+minMatch+8 <= high {
					if d := le.Load64(src, ip+minMatch) ^ le.Load64(src, mp+minMatch); d != 0 {
						length += bits.TrailingZeros64(d) >> 3
					} else {
						length += 8 + countMatch(src, ip+minMatch+8, mp+minMatch+8, high)
					}
				} else {
					length += countMatch(src, ip+minMatch, mp+minMatch, high)
				}
				if length > longest {
					longest, match = length, mp
				}
			}
			matchIndex -= uint32(chain[uint16(matchIndex)])
		}
		if longest >= minMatch {
			c.nextInsert = ipIndex
			return ip, longest, match
		}
		chain[uint16(ipIndex)] = uint16(min(ipIndex-head, distanceMax))
		hash[h] = ipIndex
		if ip < last {
			if next := le.Load32(src, ip+1) * prime4 >> (32 - hcHashLog); next == h {
				head = ipIndex
			} else {
				head = hash[next]
			}
		}
	}
	c.nextInsert = uint32(ip + hcStart)
	return ip, minMatch - 1, match
}

// countBack is LZ4HC_countBack: minus the number of equal bytes before
// src[ip] and src[mp], at most -lim (lim <= 0, ip+lim and mp+lim >= 0),
// compared 8 at a time.
func countBack(src []byte, ip, mp, lim int) int {
	back := 0
	for back-8 >= lim {
		if d := le.Load64(src, ip+back-8) ^ le.Load64(src, mp+back-8); d != 0 {
			return back - bits.LeadingZeros64(d)>>3
		}
		back -= 8
	}
	for back > lim && src[ip+back-1] == src[mp+back-1] {
		back--
	}
	return back
}

// protectDictEnd is LZ4HC_protectDictEnd: whether 4 bytes can be read at
// index idx before dictLimit. Without a dictionary it only refuses the
// three indexes below the input's start.
func protectDictEnd(dictLimit, idx uint32) bool { return (dictLimit-1)-idx >= 3 }

// encodeSequence is LZ4HC_encodeSequence: it writes the literals from
// anchor to ip and a match of length ml at offset ip-match, with C's
// output checks when limited, and returns ip+ml, or -1 when it does not
// fit.
func (c *HCCompressor) encodeSequence(anchor, ip, ml, match int) int {
	dst := c.dst
	token := c.op
	op := token + 1
	length := ip - anchor
	if c.limited && op+length/255+length+2+1+lastLiterals > len(dst) {
		return -1
	}
	// Unlimited, the bound guarantees room; check anyway, never panic.
	if op+length/255+length+2+1+(ml-minMatch)/255+1 > len(dst) {
		return -1
	}
	var tok byte
	if length >= 15 {
		tok = 15 << 4
		l := length - 15
		for ; l >= 255; l -= 255 {
			dst[op] = 255
			op++
		}
		dst[op] = byte(l)
		op++
	} else {
		tok = byte(length << 4)
	}
	if src := c.src; length <= 16 && op+16 <= len(dst) && anchor+16 <= len(src) {
		// A short run: one 16-byte move, not a call to memmove, as C's
		// wild copy; the bytes it writes past the run are within dst,
		// and the rest of the block (or nothing that counts) follows.
		*(*[16]byte)(dst[op:]) = *(*[16]byte)(src[anchor:])
		op += length
	} else {
		op += copy(dst[op:], src[anchor:ip])
	}
	binary.LittleEndian.PutUint16(dst[op:], uint16(ip-match))
	op += 2
	length = ml - minMatch
	if c.limited && op+length/255+1+lastLiterals > len(dst) {
		return -1
	}
	if length >= 15 {
		tok += 15
		l := length - 15
		for ; l >= 255; l -= 255 {
			dst[op] = 255
			op++
		}
		dst[op] = byte(l)
		op++
	} else {
		tok += byte(length)
	}
	dst[token] = tok
	c.op = op
	return ip + ml
}

// compress is LZ4HC_compress_hashChain without a dictionary, for the
// limitedOutput and notLimited modes LZ4_compress_HC uses.
func (c *HCCompressor) compress() int {
	src := c.src
	n := len(src)
	anchor, ip := 0, 0
	mflimit := n - mfLimit
	matchlimit := n - lastLiterals
	if n < minLength {
		return c.lastLiterals(anchor)
	}
	var (
		ml, ml0, ml2, ml3      int
		ref, ref0, ref2, ref3  int
		start0, start2, start3 int
	)
	for ip <= mflimit {
		if ip, ml, ref = c.nextMatch(ip, mflimit, matchlimit, ref); ml < minMatch {
			break // ip is past mflimit
		}
		// Saved, in case the next search skips too far.
		start0, ref0, ml0 = ip, ref, ml

	search2:
		if ip+ml <= mflimit {
			if c.patterns {
				_, ml2, ref2, start2 = c.widerMatch(ip+ml-2, ip+ml-2, ip, matchlimit, ml, ref2, start2)
			} else {
				ml2, ref2, start2 = c.chainMatch(ip+ml-2, ip, matchlimit, ml, ref2, start2)
			}
		} else {
			ml2 = ml
		}
		if ml2 == ml { // no better match: encode ML1
			if ip = c.encodeSequence(anchor, ip, ml, ref); ip < 0 {
				return 0
			}
			anchor = ip
			continue
		}
		if start0 < ip && start2 < ip+ml0 {
			// The first match was skipped once: put ML1 back between
			// ML0 and ML2.
			ip, ref, ml = start0, ref0, ml0
		}
		if start2-ip < 3 { // the first match is too short: dropped
			ml, ip, ref = ml2, start2, ref2
			goto search2
		}

	search3:
		// Here ml2 > ml1 and ip1+3 <= ip2 (usually < ip1+ml1).
		if start2-ip < optimalML {
			newML := min(ml, optimalML)
			if ip+newML > start2+ml2-minMatch {
				newML = start2 - ip + ml2 - minMatch
			}
			if correction := newML - (start2 - ip); correction > 0 {
				start2 += correction
				ref2 += correction
				ml2 -= correction
			}
		}
		if start2+ml2 <= mflimit {
			if c.patterns {
				_, ml3, ref3, start3 = c.widerMatch(start2+ml2-3, start2+ml2-3, start2, matchlimit, ml2, ref3, start3)
			} else {
				ml3, ref3, start3 = c.chainMatch(start2+ml2-3, start2, matchlimit, ml2, ref3, start3)
			}
		} else {
			ml3 = ml2
		}
		if ml3 == ml2 { // no better match: encode ML1 and ML2
			if start2 < ip+ml {
				ml = start2 - ip
			}
			if ip = c.encodeSequence(anchor, ip, ml, ref); ip < 0 {
				return 0
			}
			anchor = ip
			ip = start2
			if ip = c.encodeSequence(anchor, ip, ml2, ref2); ip < 0 {
				return 0
			}
			anchor = ip
			continue
		}
		if start3 < ip+ml+3 { // no room for match 2: drop it
			if start3 >= ip+ml { // ML1 can be written; ML3 becomes ML1
				if start2 < ip+ml {
					correction := ip + ml - start2
					start2 += correction
					ref2 += correction
					ml2 -= correction
					if ml2 < minMatch {
						start2, ref2, ml2 = start3, ref3, ml3
					}
				}
				if ip = c.encodeSequence(anchor, ip, ml, ref); ip < 0 {
					return 0
				}
				anchor = ip
				ip, ref, ml = start3, ref3, ml3
				start0, ref0, ml0 = start2, ref2, ml2
				goto search2
			}
			start2, ref2, ml2 = start3, ref3, ml3
			goto search3
		}
		// Three ascending matches: write the first, deciding its length.
		if start2 < ip+ml {
			if start2-ip < optimalML {
				ml = min(ml, optimalML)
				if ip+ml > start2+ml2-minMatch {
					ml = start2 - ip + ml2 - minMatch
				}
				if correction := ml - (start2 - ip); correction > 0 {
					start2 += correction
					ref2 += correction
					ml2 -= correction
				}
			} else {
				ml = start2 - ip
			}
		}
		if ip = c.encodeSequence(anchor, ip, ml, ref); ip < 0 {
			return 0
		}
		anchor = ip
		// ML2 becomes ML1, ML3 becomes ML2; search a new ML3.
		ip, ref, ml = start2, ref2, ml2
		start2, ref2, ml2 = start3, ref3, ml3
		goto search3
	}
	return c.lastLiterals(anchor)
}

// lastLiterals writes the final run, src[anchor:], and returns the
// block's length, or 0 when it does not fit.
func (c *HCCompressor) lastLiterals(anchor int) int {
	run := len(c.src) - anchor
	total := 1 + (run+255-15)/255 + run
	// Unlimited, the bound guarantees room; the check is exact anyway.
	if c.op+total > len(c.dst) {
		return 0
	}
	op := c.op
	if run >= 15 {
		c.dst[op] = 15 << 4
		op++
		l := run - 15
		for ; l >= 255; l -= 255 {
			c.dst[op] = 255
			op++
		}
		c.dst[op] = byte(l)
		op++
	} else {
		c.dst[op] = byte(run << 4)
		op++
	}
	op += copy(c.dst[op:], c.src[anchor:])
	return op
}
