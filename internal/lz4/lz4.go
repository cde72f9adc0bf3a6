// Package lz4 compresses LZ4 blocks exactly as C's LZ4_compress_fast (LZ4
// 1.9 and 1.10) does, the function c-blosc calls for its LZ4 codec, so that
// chunks written here are byte-identical to the C library's. The bytes are
// those of C built for a 64-bit host: on 32-bit ones, lz4.c hashes 4 bytes
// instead of 5 for inputs of 64 KiB + 11 bytes and more, and writes other
// (equally valid) blocks for them.
//
// The output is the LZ4 block format: sequences of a token (literal length
// and match length nibbles), optional length bytes, literals, and a
// little-endian 2-byte match offset; the block ends with literals only.
//
// What differs from a direct transcription of the C algorithm is only the
// bookkeeping: the C function clears its 16 KiB hash table on every call,
// which for the 512-byte streams of a small shuffled chunk costs more than
// the compression itself. Compressor instead stores positions biased by a
// base that grows with every call, so that entries written by earlier calls
// are below the base and read as position 0, which is what a cleared table
// holds. The table is cleared only when the base would overflow. Inputs
// of 64 KiB + 11 bytes and more, whose compression costs far more than a
// clear, clear their part of the table as C does.
//
// On amd64 the compression loop runs in assembly (compress_amd64.s), which
// the tests hold byte for byte to the portable loop, compress, used on the
// other platforms and with -tags purego or noasm.
//
// DecompressBlock and DecompressBlockDict decode blocks as
// LZ4_decompress_safe does, accepting and rejecting the same blocks (but
// for offset 0). On amd64 with SSSE3 the sequences away from the block's
// ends are decoded in assembly (decode_amd64.s), held by the tests and
// FuzzDecompress to the portable loop that decodes the rest.
package lz4

import (
	"encoding/binary"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

// The constants of lz4.c that decide the output.
const (
	hashLog      = 12          // LZ4_HASHLOG for the default LZ4_MEMORY_USAGE of 14
	minMatch     = 4           // MINMATCH
	mfLimit      = 12          // MFLIMIT: no match starts in the last 12 bytes
	lastLiterals = 5           // LASTLITERALS: the block ends with 5 literals
	minLength    = mfLimit + 1 // LZ4_minLength: shorter inputs are all literals
	skipTrigger  = 6           // LZ4_skipTrigger
	limit64K     = 64<<10 + 11 // LZ4_64Klimit: shorter inputs use the byU16 table and hash
	distanceMax  = 65535       // LZ4_DISTANCE_MAX

	// MaxInputSize is LZ4_MAX_INPUT_SIZE: C refuses longer inputs, and so
	// does CompressBlock.
	MaxInputSize = 0x7E000000

	// MaxAcceleration is LZ4_ACCELERATION_MAX: larger values act as it.
	MaxAcceleration = 65537

	// The byU16 table has 1<<(hashLog+1) entries, the byU32 one 1<<hashLog:
	// one array of the larger size serves both.
	tableSize = 1 << (hashLog + 1)

	// baseLimit bounds every biased position, so that it fits a uint32 and,
	// on 32-bit platforms, an int.
	baseLimit = 1<<31 - 1

	prime4 = 2654435761   // the multiplier of LZ4_hash4
	prime5 = 889523592379 // the multiplier of LZ4_hash5
)

// CompressBlockBound is LZ4_compressBound: a dst of at least this length
// always receives the whole block.
func CompressBlockBound(n int) int { return n + n/255 + 16 }

// Compressor holds the hash table LZ4_compress_fast keeps in its state. The
// zero value is ready to use; reusing one avoids both the allocation and the
// clearing of the table. A Compressor is not safe for concurrent use.
type Compressor struct {
	// table holds base+position for the positions of this call, and smaller
	// values, which read as position 0, for those of earlier calls.
	table [tableSize]uint32
	base  int
}

// CompressBlock compresses src into dst as LZ4_compress_fast(src, dst,
// len(src), len(dst), acceleration) does and returns the block's length. It
// returns 0 where C does: when the block does not fit in dst (as C, it
// decides so with conservative margins when len(dst) is below
// CompressBlockBound(len(src))), and when len(src) exceeds MaxInputSize.
// Accelerations below 1 act as 1. It never writes past len(dst).
func (c *Compressor) CompressBlock(dst, src []byte, acceleration int) int {
	return c.compressBlock(dst, src, acceleration, haveAsm && len(src) <= asmMaxInput)
}

// asmMaxInput bounds the inputs the assembly loop takes. The runtime cannot
// preempt a goroutine inside it, and it compresses about 1 MiB a
// millisecond, so a goroutine holds its thread (and a garbage collection
// waiting to stop the world) for a millisecond at most; longer inputs,
// beyond the blocks Blosc makes unless told otherwise, take the portable
// loop, which the runtime preempts like any Go code.
const asmMaxInput = 1 << 20

// compressBlock is CompressBlock with the choice of the assembly loop,
// where there is one, or the portable one, its oracle in the tests.
func (c *Compressor) compressBlock(dst, src []byte, acceleration int, useAsm bool) int {
	if acceleration < 1 {
		acceleration = 1
	} else if acceleration > MaxAcceleration {
		acceleration = MaxAcceleration
	}
	if len(src) > MaxInputSize {
		return 0
	}
	if len(src) < minLength {
		// No table access: the whole input is one run of literals.
		return lastRun(dst, src, 0, 0)
	}
	if c.base > baseLimit-len(src) {
		c.table = [tableSize]uint32{}
		c.base = 0
	}
	if len(src) < limit64K {
		var n int
		if useAsm {
			n = compressAsm(&c.table, c.base, dst, src, acceleration)
		} else {
			n = compress(&c.table, c.base, dst, src, acceleration)
		}
		c.base += len(src)
		return n
	}
	// Inputs this long are worth clearing the part of the table they use,
	// as C does: their positions are then stored unbiased, and reading one
	// needs no test against the base, a branch that stale entries, mixed
	// at random with fresh ones, would mispredict about every other time in
	// the search of a poorly compressible input. Every entry stays below
	// the new base: those written here are below len(src), the others were
	// below the old base.
	t := (*byU32)(c.table[:len(byU32{})])
	*t = byU32{}
	var n int
	if useAsm {
		n = compressAsm(t, 0, dst, src, acceleration)
	} else {
		n = compress(t, 0, dst, src, acceleration)
	}
	c.base = max(c.base, len(src))
	return n
}

// The two tables of lz4.c, told apart by their lengths: each instantiation
// of compress is compiled with its own constant hash and mask, which leaves
// registers to the search loop.
type (
	byU16 = [tableSize]uint32
	byU32 = [tableSize / 2]uint32
)

// hash is LZ4_hash4 for the byU16 table (only the low 4 bytes of v count)
// and LZ4_hash5 for the byU32 one, v being the 8 bytes at a position. Its
// result is an index of T the compiler sees in range, so compress indexes
// with it unmasked: one step less from a match's end to the next match.
func hash[T byU16 | byU32](v uint64) uint32 {
	var t T
	if len(t) == tableSize {
		// LZ4_hash4 multiplies 32-bit values.
		return uint32(v) * prime4 >> (32 - (hashLog + 1))
	}
	return uint32(v<<24*prime5>>(64-hashLog)) % uint32(len(t))
}

// compress is LZ4_compress_generic for a single block without dictionary.
// Positions are stored in table as base+position; the byU32 table is
// cleared by the caller and its base is 0.
func compress[T byU16 | byU32](table *T, base int, dst, src []byte, acceleration int) int {
	if len(*table) != tableSize {
		base = 0 // a constant for the compiler in this instantiation
	}
	// limitedOutput in lz4.c: below the bound, C checks as it writes.
	limited := len(dst) < CompressBlockBound(len(src))
	mfLimitPlusOne := len(src) - mfLimit + 1
	matchLimit := len(src) - lastLiterals

	anchor, di := 0, 0

	(*table)[hash[T](le.Load64(src, 0))] = uint32(base)
	ip := 1

	for {
		var match int
		var found bool
		ip, match, found = search(table, base, src, ip, acceleration)
		if !found {
			return lastRun(dst, src, di, anchor)
		}

		// Extend the match backwards.
		for ip > anchor && match > 0 && src[ip-1] == src[match-1] {
			ip--
			match--
		}

		// Literals.
		litLen := ip - anchor
		token := di
		di++
		// The divisions by 255 of C's checks are 0 for short lengths:
		// computed only for long ones, they keep the multiply that
		// replaces them, which claims two fixed registers, out of the
		// common path.
		if litLen >= 15 {
			if limited && di+litLen+(2+1+lastLiterals)+litLen/255 > len(dst) {
				return 0
			}
			di = putLongLength(dst, di, token, 0xF0, litLen)
		} else {
			if limited && di+litLen+(2+1+lastLiterals) > len(dst) {
				return 0
			}
			dst[token] = byte(litLen << 4)
		}
		if len(dst)-di >= litLen+8 {
			// Whole words: the bytes written past the literals are
			// overwritten by the offset and what follows. The source
			// words end before ip+8 <= len(src).
			for i := 0; i < litLen; i += 8 {
				binary.LittleEndian.PutUint64(dst[di+i:di+i+8], le.Load64(src, anchor+i))
			}
		} else {
			copy(dst[di:di+litLen], src[anchor:ip])
		}
		di += litLen

		for {
			// Offset and match length; token is the sequence's token.
			if len(dst)-di < 2 {
				return 0 // only when C would have stopped too (limited)
			}
			binary.LittleEndian.PutUint16(dst[di:], uint16(ip-match))
			di += 2

			// Most matches end within their first 8 bytes past the
			// minimum: that case without a call.
			var matchLen int
			if ip+minMatch+8 <= matchLimit {
				if diff := le.Load64(src, match+minMatch) ^ le.Load64(src, ip+minMatch); diff != 0 {
					matchLen = bits.TrailingZeros64(diff) >> 3
				} else {
					matchLen = 8 + countMatch(src, ip+minMatch+8, match+minMatch+8, matchLimit)
				}
			} else {
				matchLen = countMatch(src, ip+minMatch, match+minMatch, matchLimit)
			}
			ip += matchLen + minMatch
			if matchLen >= 15 {
				if limited && di+(1+lastLiterals)+(matchLen+240)/255 > len(dst) {
					return 0
				}
				di = putLongLength(dst, di, token, dst[token]+15, matchLen)
			} else {
				if limited && di+(1+lastLiterals) > len(dst) {
					return 0
				}
				dst[token] += byte(matchLen)
			}
			anchor = ip

			if ip >= mfLimitPlusOne {
				return lastRun(dst, src, di, anchor)
			}

			// ip-2 >= 1 and ip+8 <= len(src)-4: both loads are inside.
			(*table)[hash[T](le.Load64(src, ip-2))] = uint32(base + ip - 2)

			// A match right here continues without literals.
			v := le.Load64(src, ip)
			h := hash[T](v)
			match = position[T]((*table)[h], base)
			(*table)[h] = uint32(base + ip)
			if match+distanceMax < ip || le.Load32(src, match) != uint32(v) {
				break
			}
			token = di
			if di >= len(dst) {
				return 0
			}
			dst[di] = 0
			di++
		}

		ip++
	}
}

// search is the match-finding loop of LZ4_compress_generic from position
// ip, stepping faster the longer no match is found. It returns the position
// and its match, or found false when the positions to search end first. It
// is a function of its own so that the loop keeps its few values in
// registers, not spilled by those compress keeps for writing.
func search[T byU16 | byU32](table *T, base int, src []byte, ip, acceleration int) (cur, match int, found bool) {
	if len(*table) != tableSize {
		base = 0
	}
	mask := uint32(len(*table) - 1)
	mfLimitPlusOne := len(src) - mfLimit + 1
	step := 1
	searchNb := acceleration << skipTrigger
	// ip <= len(src)-mfLimit here and below: 8 bytes are there. They are
	// loaded an iteration ahead and hashed when used, and their low 4 are
	// what a match must equal: no second load of them.
	next := le.Load64(src, ip)
	for {
		cur = ip
		v := next
		h := hash[T](v) & mask
		ip += step
		step = searchNb >> skipTrigger
		searchNb++
		if ip > mfLimitPlusOne {
			return 0, 0, false
		}
		match = position[T]((*table)[h], base)
		next = le.Load64(src, ip)
		(*table)[h] = uint32(base + cur)
		// Inputs that use the byU16 table are too short for a match out
		// of reach of a 2-byte offset.
		if (len(*table) == tableSize || match+distanceMax >= cur) && le.Load32(src, match) == uint32(v) {
			return cur, match, true
		}
	}
}

// position turns a table entry into a position of this call: entries from
// earlier calls, below base, read as 0, as in a cleared table. Inlined,
// the compiler makes this a branch over a clear rather than a conditional
// move; either is shorter than the shift-and-mask it replaced on the chain
// of loads from one match to the next, which bounds streams of many short
// matches (see BloscStreamsVaried, whose 64 blocks keep the branch from
// being learned by heart).
//
// The byU32 table, cleared before each call, holds only positions.
func position[T byU16 | byU32](entry uint32, base int) int {
	var t T
	if len(t) != tableSize {
		return int(entry)
	}
	return max(int(entry)-base, 0)
}

// countMatch is LZ4_count: the length of the common prefix of src[in:limit]
// and src[match:], match being below in.
func countMatch(src []byte, in, match, limit int) int {
	start := in
	for in+8 <= limit {
		if diff := le.Load64(src, match) ^ le.Load64(src, in); diff != 0 {
			return in + bits.TrailingZeros64(diff)>>3 - start
		}
		in += 8
		match += 8
	}
	if in+4 <= limit && le.Load32(src, match) == le.Load32(src, in) {
		in += 4
		match += 4
	}
	if in+2 <= limit && src[match] == src[in] && src[match+1] == src[in+1] {
		in += 2
		match += 2
	}
	if in < limit && src[match] == src[in] {
		in++
	}
	return in - start
}

// putLongLength writes a literal or match length of 15 or more: tok, the
// token with that length's nibble at 15, at dst[token], and the length's
// bytes past 15 at dst[di:], returning the position after them. The
// caller has checked that they fit. Out of line, it leaves compress's
// registers to the common short lengths.
//
//go:noinline
func putLongLength(dst []byte, di, token int, tok byte, length int) int {
	dst[token] = tok
	l := length - 15
	for ; l >= 255; l -= 255 {
		dst[di] = 255
		di++
	}
	dst[di] = byte(l)
	return di + 1
}

// lastRun writes the final literals, src[anchor:], at dst[di:].
func lastRun(dst, src []byte, di, anchor int) int {
	run := len(src) - anchor
	// C makes this check only when limited, but it is exact (the bytes
	// counted are those written), so it never fails when C's would not.
	if di+run+1+(run+255-15)/255 > len(dst) {
		return 0
	}
	if run >= 15 {
		dst[di] = 0xF0
		di++
		l := run - 15
		for ; l >= 255; l -= 255 {
			dst[di] = 255
			di++
		}
		dst[di] = byte(l)
		di++
	} else {
		dst[di] = byte(run << 4)
		di++
	}
	return di + copy(dst[di:], src[anchor:])
}
