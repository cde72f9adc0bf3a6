package blosclz

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

// The format's and the C encoder's constants.
const (
	maxCopy        = 32                      // a control byte covers up to 32 literals
	literalMarker  = maxCopy - 1             // the control byte of a full literal run
	formatBit      = 1 << 5                  // marks the first byte of every stream
	lenShift       = 5                       // a match's length sits in the top 3 control bits
	longLen        = 7                       // from this biased length on, extension bytes follow
	maxDistance    = 8191                    // biased distances below this fit 13 bits
	maxFarDistance = 65535 + maxDistance - 1 // C takes no match this far back
	farMarker      = 31                      // low control bits of a 16-bit distance...
	farLowByte     = 255                     // ...with this distance byte
	hashLog        = 14                      // the largest table, levels 3 to 9
	hashMask       = 1<<hashLog - 1          // makes table indexes provably in range
	hashMul        = 2654435761              // BloscLZ's (and LZ4's) hash multiplier
	maxInput       = math.MaxInt32           // C takes the length as an int
	minInput       = 16                      // C gives up on shorter inputs...
	minOutput      = 66                      // ...and on smaller output buffers
	tailReserve    = 12                      // the match scan stops this far before the end

	// 2.5.1's probe: a 4096-entry table, and the short-match settings
	// whatever the encoder then uses.
	probeHashLog = 12
	probeMinLen  = 3
	probeIPShift = 3
)

// ratioThreshold is, per level 1..9, the smallest estimated ratio worth
// compressing; below it C gives up and the block is stored raw. (A switch,
// not a table: the package keeps no mutable state.)
func ratioThreshold(level int) float64 {
	switch level {
	case 1:
		return 2
	case 2:
		return 1.5
	case 3, 4, 5, 6:
		return 1.2
	case 7:
		return 1.15
	case 8:
		return 1.1
	}
	return 1.0
}

// levelHashLog is the hash table size per level 1..9.
func levelHashLog(level int) uint {
	switch level {
	case 1:
		return hashLog - 2
	case 2:
		return hashLog - 1
	}
	return hashLog
}

func hash(seq uint32, shift uint) uint32 {
	return (seq * hashMul) >> (shift & 31)
}

// matchEnd compares src from ip and from ref onward and returns one past the
// first position p < bound where they differ, or bound if none does: the
// position C's get_match and get_run both return (a run is the distance-1
// match). ref < ip.
func matchEnd(src []byte, ip, bound, ref int) int {
	// 32 bytes per round: one branch for four word compares.
	for ip+32 <= bound {
		a, b := (*[32]byte)(src[ip:ip+32]), (*[32]byte)(src[ref:ref+32])
		x0 := binary.LittleEndian.Uint64(a[0:8]) ^ binary.LittleEndian.Uint64(b[0:8])
		x1 := binary.LittleEndian.Uint64(a[8:16]) ^ binary.LittleEndian.Uint64(b[8:16])
		x2 := binary.LittleEndian.Uint64(a[16:24]) ^ binary.LittleEndian.Uint64(b[16:24])
		x3 := binary.LittleEndian.Uint64(a[24:32]) ^ binary.LittleEndian.Uint64(b[24:32])
		if x0|x1|x2|x3 != 0 {
			switch {
			case x0 != 0:
				return ip + bits.TrailingZeros64(x0)>>3 + 1
			case x1 != 0:
				return ip + 8 + bits.TrailingZeros64(x1)>>3 + 1
			case x2 != 0:
				return ip + 16 + bits.TrailingZeros64(x2)>>3 + 1
			}
			return ip + 24 + bits.TrailingZeros64(x3)>>3 + 1
		}
		ip += 32
		ref += 32
	}
	for ip+8 <= bound {
		x := binary.LittleEndian.Uint64(src[ip:ip+8]) ^ binary.LittleEndian.Uint64(src[ref:ref+8])
		if x != 0 {
			return ip + bits.TrailingZeros64(x)>>3 + 1
		}
		ip += 8
		ref += 8
	}
	for ip < bound {
		if src[ip] != src[ref] {
			return ip + 1
		}
		ip++
		ref++
	}
	return bound
}

// runEnd is matchEnd for a run (ref == ip-1): with every byte before the
// first difference equal to the last one, comparing against that byte finds
// the same position with half the loads.
func runEnd(src []byte, ip, bound int) int {
	v := uint64(src[ip-1]) * 0x0101010101010101
	for ip+32 <= bound {
		a := (*[32]byte)(src[ip : ip+32])
		x0 := binary.LittleEndian.Uint64(a[0:8]) ^ v
		x1 := binary.LittleEndian.Uint64(a[8:16]) ^ v
		x2 := binary.LittleEndian.Uint64(a[16:24]) ^ v
		x3 := binary.LittleEndian.Uint64(a[24:32]) ^ v
		if x0|x1|x2|x3 != 0 {
			switch {
			case x0 != 0:
				return ip + bits.TrailingZeros64(x0)>>3 + 1
			case x1 != 0:
				return ip + 8 + bits.TrailingZeros64(x1)>>3 + 1
			case x2 != 0:
				return ip + 16 + bits.TrailingZeros64(x2)>>3 + 1
			}
			return ip + 24 + bits.TrailingZeros64(x3)>>3 + 1
		}
		ip += 32
	}
	return matchEnd(src, ip, bound, ip-1)
}

// estimateRatio is BloscLZ's entropy probe: it runs a cheap model of the
// encoder over at most 1<<log bytes of b, with a hash table of 1<<log
// entries, and returns input bytes per output byte. An entry of htab holds
// base plus a position; one below base reads as position 0, as an empty
// entry does in C (a new table, all zero, with base 0; positions in the
// probe fit 16 bits, as in C 2.5.1's table). The result is one IEEE
// division of two exact integers, so it is the same on every architecture
// (no fused multiply-add can change it).
func estimateRatio[T uint16 | uint32](b []byte, htab []T, base T, log uint, minLen, ipShift int) float64 {
	limit := min(len(b), 1<<log)
	b = b[:limit]
	htab = htab[:1<<log]
	mask := uint32(len(htab) - 1)
	shift := 32 - log
	ipBound := limit - 1
	ipLimit := limit - tailReserve
	short := uint64(1)<<(8*(minLen+ipShift-1)) - 1 // as in compress
	oc := 5                                        // the first control byte and four literals
	lit := 4
	ip := 0
	for ip < ipLimit {
		// C counts literals one at a time; the scan here only hashes,
		// and the literals before a match (or the end) are counted at
		// once, each 32nd one costing a control byte as in C.
		anchor := ip
		var ref int
		var x uint64
		ip, ref, x = scan(b, htab, base, ip, ipLimit, shift, mask, short)
		k := ip - anchor
		oc += k + (lit+k)/maxCopy
		lit = (lit + k) % maxCopy
		if ip >= ipLimit {
			break
		}

		var end int
		if x != 0 {
			end = ip + bits.TrailingZeros64(x)>>3 + 1
		} else {
			end = matchEnd(b, ip+8, ipBound, ref+8)
		}
		distance := ip - ref - 1
		n := end - ipShift - ip
		ip += n
		if lit == 0 {
			oc--
		}
		lit = 0
		if n >= longLen {
			oc += (n-longLen)/255 + 1
		}
		if distance < maxDistance {
			oc += 2
		} else {
			oc += 4
		}
		htab[hash(le.Load32(b, ip), shift)&mask] = base + T(ip)
		ip += 2
		oc++
	}
	return float64(ip) / float64(oc)
}

// compress is BloscLZ 2.5.1 (c-blosc 1.21), or 2.5.3 (c-blosc2) when v2 is
// set. They differ only in the entropy probe and the minimum match. enc
// lends its tables, or is nil for new ones on the stack.
func compress(dst, src []byte, level int, split, v2 bool, enc *Encoder) int {
	if level < 1 || len(src) > maxInput {
		return 0
	}
	level = min(level, MaxLevel)
	length := len(src)
	log := levelHashLog(level)

	ipShift, minLen := 4, 4
	if v2 {
		// 2.5.3 probes more of the block at higher levels, with the
		// encoder's table size and minimum match.
		probeLen := length
		switch {
		case level < 2:
			probeLen /= 8
		case level < 4:
			probeLen /= 4
		case level < 7:
			probeLen /= 2
		}
		var cratio float64
		if enc == nil {
			var ptab [1 << hashLog]uint16
			cratio = estimateRatio(src[length-probeLen:], ptab[:], 0, log, minLen, ipShift)
		} else {
			cratio = enc.p.ratio(src[length-probeLen:], log, minLen, ipShift)
		}
		if cratio < ratioThreshold(level) {
			return 0
		}
	} else {
		// 2.5.1 probes at most 4096 bytes of the last quarter, with its
		// own small table and a minimum match of 3.
		var cratio float64
		if enc == nil {
			var ptab [1 << probeHashLog]uint16
			cratio = estimateRatio(src[length-length/4:], ptab[:], 0, probeHashLog, probeMinLen, probeIPShift)
		} else {
			cratio = enc.p.ratio(src[length-length/4:], probeHashLog, probeMinLen, probeIPShift)
		}
		if cratio < ratioThreshold(level) {
			return 0
		}
		if !split || cratio < 4 {
			ipShift, minLen = 3, 3
		}
	}
	if length < minInput || len(dst) < minOutput {
		return 0
	}
	// Without an Encoder, only a block the probe finds compressible gets
	// a table: 64 KiB to clear, more than the work of a short stream.
	if enc == nil {
		return encodeLocal(dst, src, level, log, ipShift, minLen)
	}
	t := &enc.t
	t.prepare(len(src))
	n := encode(dst, src, t, level, log, ipShift, minLen, false)
	t.finish(len(src))
	return n
}

// encodeLocal is encode with a new table on the stack, kept out of compress
// so that a call the probe turns down (or one with an Encoder) does not
// pay for a 64 KiB frame.
//
//go:noinline
func encodeLocal(dst, src []byte, level int, log uint, ipShift, minLen int) int {
	var local table // base 0, every entry empty
	return encode(dst, src, &local, level, log, ipShift, minLen, true)
}

// table is the encoder's hash table (or the entropy probe's). An entry
// holds base plus the last position whose first four bytes hashed to it;
// an entry below base is from an earlier input and reads as position 0, as
// an empty entry does in C. Moving base past the positions of each input
// empties the table for the next without touching it: clearing 64 KiB
// costs a noticeable share of a whole 4 KiB block's time
// (BenchmarkCompress in bench_test.go at 4 KiB shows it).
type table struct {
	e    [1 << hashLog]uint32
	base uint32
}

// prepare readies t for an input of n bytes: positions base..base+n-1
// must fit 32 bits, or the table is cleared and numbering starts over.
func (t *table) prepare(n int) {
	if uint64(t.base)+uint64(n) > math.MaxUint32 {
		clear(t.e[:])
		t.base = 0
	}
}

// finish moves base past an input of n bytes (prepared for), so its
// entries read as empty from the next input on.
func (t *table) finish(n int) { t.base += uint32(n) }

// scan is the search for a match, as C's main loop does it, for the
// encoder and the entropy probe: from ip on, every position is hashed and
// entered in htab (as base plus the position), until one whose entry
// agrees with it on the bits of short, within reach. It returns that
// position, the entry's position and the XOR of their first 8 bytes, or
// lim when no position before lim qualifies. Apart from its callers, its
// few values stay in registers.
func scan[T uint16 | uint32](b []byte, htab []T, base T, ip, lim int, shift uint, mask uint32, short uint64) (int, int, uint64) {
	for ; ip < lim; ip++ {
		w := le.Load64(b, ip)
		h := hash(uint32(w), shift) & mask
		// An earlier input's entry (below base) reads as empty,
		// without a branch: it would mispredict on every stale entry.
		d := int64(htab[h]) - int64(base)
		ref := int(d &^ (d >> 63))
		htab[h] = base + T(ip)
		// One test rejects both a hash collision and a match too short
		// to take: most candidates fail it, and one unpredictable branch
		// costs less than two.
		x := w ^ le.Load64(b, ref)
		if x&short == 0 && uint(ip-ref-1) < maxFarDistance-1 {
			return ip, ref, x
		}
	}
	return lim, 0, 0
}

// ratio is estimateRatio with t as the probe's table (an Encoder keeps
// one apart from its encoder's), which it leaves empty.
func (t *table) ratio(b []byte, log uint, minLen, ipShift int) float64 {
	n := min(len(b), 1<<log) // the positions the probe can enter
	t.prepare(n)
	r := estimateRatio(b, t.e[:], t.base, log, minLen, ipShift)
	t.finish(n)
	return r
}

// encode is the encoder proper, with a table prepared for src and empty
// (every entry below its base), or, when fresh, a new one: all zero, base 0.
func encode(dst, src []byte, htab *table, level int, log uint, ipShift, minLen int, fresh bool) int {
	length := len(src)
	shift := 32 - log
	ipBound := length - 1
	ipLimit := length - tailReserve
	// A match is taken when its length less ipShift reaches minLen, so
	// it must agree on its first minLen+ipShift-1 bytes (5 or 7, within
	// one word): the bits of those bytes in an 8-byte XOR.
	short := uint64(1)<<(8*(minLen+ipShift-1)) - 1
	e, base := &htab.e, htab.base
	lim := min(ipLimit, len(src)-8)

	// C writes literals one by one, each checked against the end of dst;
	// here the scan only hashes, and the literals before a match are
	// written in one go once it is found, with the check C's last literal
	// would make. The bytes and the cases that give up are the same, and
	// the scan loop keeps its few values in registers.
	op := 0
	litStart := 0
	ip := 4
	for {
		// The scan for a match, as C's main loop does it: every position
		// is hashed, and one whose table entry agrees on 4 bytes, in
		// reach, becomes a match if long enough.
		anchor, distance, n := -1, 0, 0
		for {
			var ref int
			var x uint64
			if fresh {
				ip, ref, x = scanFresh(src, e, ip, lim, shift, short)
			} else {
				ip, ref, x = scan(src, e[:], base, ip, lim, shift, hashMask, short)
			}
			if ip >= lim {
				break
			}
			var end int
			if x != 0 {
				end = ip + bits.TrailingZeros64(x)>>3 + 1
			} else if ref == ip-1 {
				end = runEnd(src, ip+8, ipBound)
			} else if ip+16 <= ipBound {
				if x := le.Load64(src, ip+8) ^ le.Load64(src, ref+8); x != 0 {
					end = ip + 8 + bits.TrailingZeros64(x)>>3 + 1
				} else {
					end = matchEnd(src, ip+16, ipBound, ref+16)
				}
			} else {
				end = matchEnd(src, ip+8, ipBound, ref+8)
			}
			if l := end - ipShift - ip; l > 5 || ip-ref-1 < maxDistance {
				anchor, distance, n = ip, ip-ref-1, l // stored biased
				break
			}
			ip++
		}
		if anchor < 0 {
			break
		}

		// Short literal runs and short near matches are the common case;
		// writing them here saves calls, which spill every live register.
		if lits := anchor - litStart; lits > 0 && lits <= maxCopy && len(dst)-op >= maxCopy+2 && len(src)-litStart >= maxCopy {
			dst[op] = byte(lits - 1)
			copy32((*[maxCopy]byte)(dst[op+1:op+1+maxCopy]), (*[maxCopy]byte)(src[litStart:litStart+maxCopy]))
			op += 1 + lits
		} else if op = putLiterals(dst, op, src[litStart:anchor]); op < 0 {
			return 0
		}
		if distance < maxDistance && n < longLen+255 && len(dst)-op >= 3 {
			if n < longLen {
				dst[op] = byte(n<<lenShift) + byte(distance>>8)
				dst[op+1] = byte(distance)
				op += 2
			} else {
				dst[op] = longLen<<lenShift + byte(distance>>8)
				dst[op+1] = byte(n - longLen)
				dst[op+2] = byte(distance)
				op += 3
			}
		} else if op = putMatch(dst, op, n, distance); op < 0 {
			return 0
		}

		// Hash the positions at the end of the match, as C does.
		ip = anchor + n
		seq := le.Load32(src, ip)
		e[hash(seq, shift)&hashMask] = base + uint32(ip)
		if level == MaxLevel {
			e[hash(seq>>8, shift)&hashMask] = base + uint32(ip+1)
		}
		ip += 2
		litStart = ip
		// C reserves a byte for the next literal run's count here.
		if op+1 > len(dst) {
			return 0
		}
	}
	if op = putLiterals(dst, op, src[litStart:]); op < 0 {
		return 0
	}
	dst[0] |= formatBit
	return op
}

// scanFresh is scan on a new table, whose entries are this input's or zero
// as they stand: reading no entry as stale saves two instructions a
// position (7% of compressing noisy floats).
func scanFresh(src []byte, e *[1 << hashLog]uint32, ip, lim int, shift uint, short uint64) (int, int, uint64) {
	for ; ip < lim; ip++ {
		w := le.Load64(src, ip)
		h := hash(uint32(w), shift) & hashMask
		ref := int(e[h])
		e[h] = uint32(ip)
		x := w ^ le.Load64(src, ref)
		if x&short == 0 && uint(ip-ref-1) < maxFarDistance-1 {
			return ip, ref, x
		}
	}
	return lim, 0, 0
}

// putLiterals writes lits at dst[op:] as runs of up to 32 bytes, each after
// its count byte, and returns the new op, or -1 where C would give up: it
// checks every literal for two free bytes, the last one being the tightest.
func putLiterals(dst []byte, op int, lits []byte) int {
	if len(lits) == 0 {
		return op
	}
	runs := (len(lits) + maxCopy - 1) / maxCopy
	if op+runs+len(lits)+1 > len(dst) {
		return -1
	}
	for len(lits) > maxCopy {
		dst[op] = literalMarker
		copy32((*[maxCopy]byte)(dst[op+1:op+1+maxCopy]), (*[maxCopy]byte)(lits[:maxCopy]))
		op += maxCopy + 1
		lits = lits[maxCopy:]
	}
	dst[op] = byte(len(lits) - 1)
	op += 1 + copy(dst[op+1:], lits)
	return op
}

// putMatch writes a match of biased length n (n+2 bytes) at biased
// distance distance, returning the new op or -1 when dst is too short.
func putMatch(dst []byte, op, n, distance int) int {
	isFar := distance >= maxDistance
	hi, low := byte(distance>>8), byte(distance)
	if isFar {
		distance -= maxDistance
		hi, low = farMarker, farLowByte
	}
	if n < longLen {
		if op+2 > len(dst) {
			return -1
		}
		dst[op] = byte(n<<lenShift) + hi
		dst[op+1] = low
		op += 2
	} else {
		n -= longLen
		ext := n / 255
		if op+1+ext+2 > len(dst) {
			return -1
		}
		dst[op] = longLen<<lenShift + hi
		op++
		fill255(dst[op : op+ext])
		op += ext
		dst[op] = byte(n - ext*255)
		dst[op+1] = low
		op += 2
	}
	if isFar {
		if op+2 > len(dst) {
			return -1
		}
		dst[op] = byte(distance >> 8)
		dst[op+1] = byte(distance)
		op += 2
	}
	return op
}

func fill255(b []byte) {
	for i := range b {
		b[i] = 255
	}
}

// copy32 moves 32 bytes with word loads and stores: an array assignment of
// this size becomes a memmove call, which costs more than the move.
func copy32(d, s *[32]byte) {
	a := binary.LittleEndian.Uint64(s[0:8])
	b := binary.LittleEndian.Uint64(s[8:16])
	c := binary.LittleEndian.Uint64(s[16:24])
	e := binary.LittleEndian.Uint64(s[24:32])
	binary.LittleEndian.PutUint64(d[0:8], a)
	binary.LittleEndian.PutUint64(d[8:16], b)
	binary.LittleEndian.PutUint64(d[16:24], c)
	binary.LittleEndian.PutUint64(d[24:32], e)
}
