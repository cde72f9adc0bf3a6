package zstdenc

import (
	"math"
	"math/bits"
)

const (
	fseMinLog = 5
	fseMaxLog = 12
)

// symTT is how a symbol moves an FSE encoder's state: the bits it writes
// are (state+deltaNbBits)>>16 and the next state is found deltaFind
// entries past the written state's high part.
type symTT struct {
	deltaNbBits uint32
	deltaFind   int32
}

// fseCTable encodes one FSE distribution. norm keeps the distribution it
// was built from, so a later block can cost reusing it.
type fseCTable struct {
	log    uint8
	maxSym uint8
	states [1 << 9]uint16
	tt     [64]symTT
	norm   [64]int16
}

// highbit is the index of the highest set bit of v > 0.
func highbit(v uint32) uint { return uint(bits.Len32(v)) - 1 }

// build lays the distribution out exactly as every zstd decoder does
// (RFC 8878 4.1.1): the low-probability (-1) symbols at the top, the
// others spread by the fixed step.
func (t *fseCTable) build(norm []int16, log uint8) {
	size := 1 << log
	mask := size - 1
	high := size - 1
	var start [65]int
	var symbols [1 << 9]uint8
	maxSym := len(norm) - 1
	// The running offset stays in a register: read back from start,
	// each symbol waited on the store of the one before.
	at := 0
	for s := 0; s <= maxSym; s++ {
		if norm[s] == -1 {
			at++
			symbols[high] = uint8(s)
			high--
		} else {
			at += int(norm[s])
		}
		start[s+1] = at
	}
	step := size>>1 + size>>3 + 3
	pos := 0
	if high == mask {
		// No low-probability symbol: every step lands in the table.
		// (Indexes masked to the arrays' sizes: no bounds checks.)
		for s := 0; s <= maxSym; s++ {
			for n := norm[s]; n > 0; n-- {
				symbols[pos&(len(symbols)-1)] = uint8(s)
				pos = (pos + step) & mask
			}
		}
	} else {
		for s := 0; s <= maxSym; s++ {
			for n := norm[s]; n > 0; n-- {
				symbols[pos&(len(symbols)-1)] = uint8(s)
				pos = (pos + step) & mask
				for pos > high {
					pos = (pos + step) & mask
				}
			}
		}
	}
	// Each symbol's states in order of u, its counter in start. Two a
	// turn, both counters read before either is stored: when one
	// symbol holds most of the table, consecutive slots are often its
	// own, and each read of its counter waited on the store before it.
	// The second read is one short when both slots are the symbol's.
	// (size is at least 32.)
	for u := 0; u < size; u += 2 {
		s0 := symbols[u&(len(symbols)-1)] & 63
		s1 := symbols[(u+1)&(len(symbols)-1)] & 63
		i0, i1 := start[s0], start[s1]
		same := 0
		if s0 == s1 {
			same = 1
		}
		i1 += same
		t.states[i0&(len(t.states)-1)] = uint16(size + u)
		t.states[i1&(len(t.states)-1)] = uint16(size + u + 1)
		start[s0] = i0 + 1
		start[s1] = i1 + 1
	}
	total := int32(0)
	for s := 0; s <= maxSym; s++ {
		n := norm[s]
		switch n {
		case 0:
			t.tt[s] = symTT{deltaNbBits: uint32(log+1)<<16 - uint32(size)}
		case -1, 1:
			t.tt[s] = symTT{deltaNbBits: uint32(log)<<16 - uint32(size), deltaFind: total - 1}
			total++
		default:
			maxOut := uint32(log) - uint32(highbit(uint32(n-1)))
			minStatePlus := uint32(n) << maxOut
			t.tt[s] = symTT{deltaNbBits: maxOut<<16 - minStatePlus, deltaFind: total - int32(n)}
			total += int32(n)
		}
	}
	t.log = log
	t.maxSym = uint8(maxSym)
	copy(t.norm[:], norm)
	for s := maxSym + 1; s < len(t.norm); s++ {
		t.norm[s] = 0
	}
}

// buildRLE is the table of the RLE mode: one symbol, no bits.
func (t *fseCTable) buildRLE(sym uint8) {
	t.log = 0
	t.maxSym = sym
	t.states[0] = 0
	t.tt[sym] = symTT{}
}

type fseState struct {
	val uint32
	t   *fseCTable
}

// init starts the state on the first symbol encoded (the last decoded),
// which costs no bits of its own.
func (st *fseState) init(t *fseCTable, sym uint8) {
	tt := t.tt[sym]
	nb := (tt.deltaNbBits + 1<<15) >> 16
	v := nb<<16 - tt.deltaNbBits
	st.t = t
	st.val = uint32(t.states[int32(v>>nb)+tt.deltaFind])
}

func (st *fseState) encode(w *bitWriter, sym uint8) {
	tt := st.t.tt[sym]
	nb := (st.val + tt.deltaNbBits) >> 16
	w.add(uint64(st.val), uint(nb))
	st.val = uint32(st.t.states[int32(st.val>>nb)+tt.deltaFind])
}

func (st *fseState) flush(w *bitWriter) {
	w.add(uint64(st.val), uint(st.t.log))
}

// optimalTableLog picks an accuracy for total symbols of at most maxSym:
// smaller for few symbols, large enough to represent them all.
func optimalTableLog(maxLog uint, total int, maxSym int, minus uint) uint {
	maxBitsSrc := highbit(uint32(total-1)) - minus
	log := maxLog
	minBitsSrc := highbit(uint32(total)) + 1
	minBitsSym := highbit(uint32(maxSym)) + 2
	minBits := min(minBitsSrc, minBitsSym)
	if maxBitsSrc < log {
		log = maxBitsSrc
	}
	if minBits > log {
		log = minBits
	}
	return max(min(log, fseMaxLog), fseMinLog)
}

// rtbTable holds the fractional parts above which a probability below 8
// is rounded up.
var rtbTable = [8]uint64{0, 473195, 504333, 520860, 550000, 700000, 750000, 830000}

// normalizeCount scales count (summing to total, at least two symbols
// present) to a distribution of 1<<log. lowProb marks symbols too rare
// for a full state as -1 instead of 1.
func normalizeCount(norm []int16, log uint, count []uint32, total int, maxSym int, lowProb bool) {
	low := int16(1)
	if lowProb {
		low = -1
	}
	scale := 62 - uint64(log)
	step := (uint64(1) << 62) / uint64(total)
	vStep := uint64(1) << (scale - 20)
	still := 1 << log
	largest := 0
	largestP := int16(0)
	lowThreshold := uint32(total >> log)
	for s := 0; s <= maxSym; s++ {
		c := count[s]
		switch {
		case c == 0:
			norm[s] = 0
		case c <= lowThreshold:
			norm[s] = low
			still--
		default:
			p := int16((uint64(c) * step) >> scale)
			if p < 8 {
				rest := vStep * rtbTable[p]
				if uint64(c)*step-uint64(p)<<scale > rest {
					p++
				}
			}
			if p > largestP {
				largestP, largest = p, s
			}
			norm[s] = p
			still -= int(p)
		}
	}
	if -still >= int(norm[largest]>>1) {
		normalizeSlow(norm, log, count, total, maxSym, low)
		return
	}
	norm[largest] += int16(still)
}

// normalizeSlow is the fallback when the rounding of normalizeCount took
// too much from the most probable symbol: it gives the rare symbols their
// minimum first and shares the rest out proportionally.
func normalizeSlow(norm []int16, log uint, count []uint32, total int, maxSym int, low int16) {
	const unassigned = -2
	distributed := 0
	lowThreshold := uint64(total >> log)
	lowOne := uint64((total * 3) >> (log + 1))
	tot := uint64(total)
	for s := 0; s <= maxSym; s++ {
		c := uint64(count[s])
		switch {
		case c == 0:
			norm[s] = 0
		case c <= lowThreshold:
			norm[s] = low
			distributed++
			tot -= c
		case c <= lowOne:
			norm[s] = 1
			distributed++
			tot -= c
		default:
			norm[s] = unassigned
		}
	}
	toDistribute := (1 << log) - distributed
	if toDistribute == 0 {
		return
	}
	if tot/uint64(toDistribute) > lowOne {
		lowOne = (tot * 3) / uint64(toDistribute*2)
		for s := 0; s <= maxSym; s++ {
			if norm[s] == unassigned && uint64(count[s]) <= lowOne {
				norm[s] = 1
				distributed++
				tot -= uint64(count[s])
			}
		}
		toDistribute = (1 << log) - distributed
	}
	if distributed == maxSym+1 {
		best, bestC := 0, uint32(0)
		for s := 0; s <= maxSym; s++ {
			if count[s] > bestC {
				best, bestC = s, count[s]
			}
		}
		norm[best] += int16(toDistribute)
		return
	}
	if tot == 0 {
		for s := 0; toDistribute > 0; s = (s + 1) % (maxSym + 1) {
			if norm[s] > 0 {
				toDistribute--
				norm[s]++
			}
		}
		return
	}
	vStepLog := 62 - uint64(log)
	mid := uint64(1)<<(vStepLog-1) - 1
	rStep := ((uint64(1)<<vStepLog)*uint64(toDistribute) + mid) / tot
	acc := mid
	for s := 0; s <= maxSym; s++ {
		if norm[s] == unassigned {
			end := acc + uint64(count[s])*rStep
			w := end>>vStepLog - acc>>vStepLog
			norm[s] = int16(w)
			acc = end
		}
	}
}

// writeNCount writes the FSE table description (RFC 8878 4.1.1) of norm
// into dst, which has room for 512 bytes, and returns its size.
func writeNCount(dst []byte, norm []int16, maxSym int, log uint) int {
	out := 0
	size := 1 << log
	var acc uint32
	nacc := uint(0)
	acc = uint32(log - fseMinLog)
	nacc = 4
	remaining := size + 1
	threshold := size
	nbBits := log + 1
	sym := 0
	prev0 := false
	put16 := func() {
		dst[out] = byte(acc)
		dst[out+1] = byte(acc >> 8)
		out += 2
		acc >>= 16
		nacc -= 16
	}
	for sym <= maxSym && remaining > 1 {
		if prev0 {
			start := sym
			for sym <= maxSym && norm[sym] == 0 {
				sym++
			}
			if sym > maxSym {
				break
			}
			for sym >= start+24 {
				start += 24
				acc |= 0xFFFF << nacc
				nacc += 16
				put16()
			}
			for sym >= start+3 {
				start += 3
				acc |= 3 << nacc
				nacc += 2
			}
			acc |= uint32(sym-start) << nacc
			nacc += 2
			if nacc > 16 {
				put16()
			}
		}
		c := int(norm[sym])
		sym++
		maxV := 2*threshold - 1 - remaining
		if c < 0 {
			remaining += c
		} else {
			remaining -= c
		}
		c++
		if c >= threshold {
			c += maxV
		}
		acc |= uint32(c) << nacc
		nacc += nbBits
		if c < maxV {
			nacc--
		}
		prev0 = c == 1
		for remaining < threshold {
			nbBits--
			threshold >>= 1
		}
		if nacc > 16 {
			put16()
		}
	}
	dst[out] = byte(acc)
	dst[out+1] = byte(acc >> 8)
	out += int(nacc+7) / 8
	return out
}

// invLog[x] is 256*log2(512/x), floored: the cost in 1/256 bits of a
// symbol of probability x/512.
var invLog [513]uint32

func init() {
	for x := 1; x <= 512; x++ {
		invLog[x] = uint32(math.Floor(256*(9-math.Log2(float64(x))) + 1e-6))
	}
}

// normCost is the cost, in 1/256 bits, of count coded with the
// distribution norm of accuracy log, or false if norm cannot code a
// symbol count holds.
func normCost(norm []int16, log uint8, normMax int, count []uint32, maxSym int) (uint64, bool) {
	if maxSym > normMax {
		return 0, false
	}
	var cost uint64
	for s := 0; s <= maxSym; s++ {
		c := count[s]
		if c == 0 {
			continue
		}
		n := norm[s]
		if n == 0 {
			return 0, false
		}
		if n < 0 {
			n = 1
		}
		cost += uint64(c) * uint64(invLog[int(n)<<(9-log)])
	}
	return cost, true
}
