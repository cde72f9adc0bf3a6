package inflate

import "math/bits"

// A table entry is one uint32 that says everything a lookup needs:
//
//	bits 0-4   bits to consume: the codeword, plus the extra bits of a
//	           length or distance (so one shift drops both)
//	bit  5     subtable pointer (with entExc)
//	bit  6     entExc: not a literal or a length/distance (subtable
//	           pointer, end of block, or a code the stream may not use)
//	bit  7     literal
//	bits 8-11  the codeword's length alone; a length's extra bits are
//	           the consumed bits above it. A subtable pointer holds the
//	           subtable's index width here.
//	bit  12    end of block
//	bits 16-31 the literal byte, the length or distance base, or the
//	           subtable's first index
//
// The codeword length of an entry in a subtable counts only the bits past
// the main table's.
const (
	entSub     = 1 << 5
	entExc     = 1 << 6
	entLiteral = 1 << 7
	entEOB     = 1 << 12
)

const (
	litBits  = 11 // index width of the literal/length main table
	distBits = 8  // index width of the distance main table
	clBits   = 7  // code-length codes are at most 7 bits: one level

	// The largest tables codes of up to 288 (30 for distances, 32 in the
	// fixed code) symbols of lengths up to 15 can need with those main
	// widths and subtables sized as zlib's inftrees.c sizes them (what
	// zlib's examples/enough.c counts).
	litTableSize  = 2342
	distTableSize = 402

	maxCodeLen = 15
	numLitLen  = 288
	numDist    = 32
	numCL      = 19
)

// Per-symbol entries before the codeword length is added: build adds
// len | len<<8 to them.
var (
	litSymEntry  [numLitLen]uint32
	distSymEntry [numDist]uint32
	clSymEntry   [numCL]uint32
)

// The fixed code's tables (RFC 1951, 3.2.6), built once.
var fixedLit [litTableSize]uint32
var fixedDist [distTableSize]uint32

func init() {
	for s := 0; s < 256; s++ {
		litSymEntry[s] = uint32(s)<<16 | entLiteral
	}
	litSymEntry[256] = entExc | entEOB
	base := uint32(3)
	for s := 257; s < 286; s++ {
		extra := uint32(0)
		if s >= 265 && s < 285 {
			extra = uint32(s-261) / 4
		}
		b := base
		if s == 285 {
			b, extra = 258, 0
		}
		litSymEntry[s] = b<<16 | extra
		base += 1 << extra
	}
	litSymEntry[286] = entExc
	litSymEntry[287] = entExc
	base = 1
	for s := 0; s < 30; s++ {
		extra := uint32(0)
		if s >= 4 {
			extra = uint32(s-2) / 2
		}
		distSymEntry[s] = base<<16 | extra
		base += 1 << extra
	}
	distSymEntry[30] = entExc
	distSymEntry[31] = entExc
	for s := range clSymEntry {
		clSymEntry[s] = uint32(s) << 16
	}

	var lens [numLitLen]uint8
	for s := range lens {
		switch {
		case s < 144:
			lens[s] = 8
		case s < 256:
			lens[s] = 9
		case s < 280:
			lens[s] = 7
		default:
			lens[s] = 8
		}
	}
	if !build(fixedLit[:], lens[:], litSymEntry[:], litBits, true) {
		panic("inflate: fixed literal/length code")
	}
	for s := range lens[:numDist] {
		lens[s] = 5
	}
	if !build(fixedDist[:], lens[:numDist], distSymEntry[:], distBits, true) {
		panic("inflate: fixed distance code")
	}
}

// reverse returns the low n bits of v in reverse order: codewords are
// sent most significant bit first, and the bit buffer takes bits least
// significant first.
func reverse(v uint32, n uint) uint32 { return bits.Reverse32(v) >> (32 - n) }

// build fills table with the canonical Huffman code of lens (RFC 1951,
// 3.2.2), the symbols' entries taken from symEntry. A code that
// over-subscribes its bit patterns is refused; so is one that leaves
// patterns unused, except (when incompleteOK) the two zlib accepts: a
// single codeword of one bit, and no codeword at all. The unused patterns
// then hold invalid-code entries. This is what zlib's inftrees.c accepts,
// and what Go's compress/flate accepts except that flate also accepts a
// single one-bit code-length code, which zlib refuses (and so do we).
func build(table []uint32, lens []uint8, symEntry []uint32, tableBits uint, incompleteOK bool) bool {
	var count [maxCodeLen + 1]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	maxLen := 0
	left := 1
	for l := 1; l <= maxCodeLen; l++ {
		left <<= 1
		left -= count[l]
		if left < 0 {
			return false
		}
		if count[l] != 0 {
			maxLen = l
		}
	}
	if left > 0 {
		if !incompleteOK || maxLen > 1 {
			return false
		}
		for i := range 1 << tableBits {
			table[i] = entExc
		}
		if maxLen == 0 {
			return true
		}
	}
	// Symbols in canonical order: by length, then by symbol.
	var offs [maxCodeLen + 2]int
	for l := 1; l <= maxCodeLen; l++ {
		offs[l+1] = offs[l] + count[l]
	}
	var sorted [numLitLen]uint16
	for s, l := range lens {
		if l != 0 {
			sorted[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	total := 0
	for l := 1; l <= maxCodeLen; l++ {
		total += count[l]
	}
	remaining := count
	code := uint32(0)
	prevLen := uint(0)
	mainSize := 1 << tableBits
	next := mainSize
	subPrefix := -1
	subStart, subWidth := 0, uint(0)
	for i := range total {
		s := sorted[i]
		l := uint(lens[s])
		code <<= l - prevLen
		prevLen = l
		if l <= tableBits {
			e := symEntry[s] + uint32(l) | uint32(l)<<8
			for j := int(reverse(code, l)); j < mainSize; j += 1 << l {
				table[j] = e
			}
		} else {
			prefix := int(reverse(code>>(l-tableBits), tableBits))
			if prefix != subPrefix {
				// A new subtable, wide enough for the codes still to
				// come that share this prefix (zlib's sizing).
				w := l - tableBits
				room := 1 << w
				for w+tableBits < uint(maxLen) {
					room -= remaining[w+tableBits]
					if room <= 0 {
						break
					}
					w++
					room <<= 1
				}
				if next+(1<<w) > len(table) {
					return false
				}
				subPrefix, subStart, subWidth = prefix, next, w
				table[prefix] = uint32(next)<<16 | uint32(w)<<8 | entExc | entSub
				next += 1 << w
			}
			sl := l - tableBits
			e := symEntry[s] + uint32(sl) | uint32(sl)<<8
			for j := int(reverse(code, l) >> tableBits); j < 1<<subWidth; j += 1 << sl {
				table[subStart+j] = e
			}
		}
		remaining[l]--
		code++
	}
	return true
}
