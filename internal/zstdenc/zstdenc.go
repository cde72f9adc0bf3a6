// Package zstdenc writes zstd frames (RFC 8878) the way Blosc stores
// them: one single-segment frame per stream with its content size and no
// checksum, optionally against a raw-content dictionary. Its levels are
// libzstd's: the same match finder strategy and parameters per level and
// source size (clevels.h), and entropy coding chosen by cost, so that a
// Blosc chunk written at a clevel comes out near the size c-blosc2 makes.
//
// The strategies are libzstd 1.5.4's: fast, double fast, greedy, lazy
// and lazy2 (hash chains or rows), btlazy2 (lazy2 over a lazily sorted
// binary tree), and btopt, btultra and btultra2 (the optimal parser over
// a binary tree, with its block splitter).
//
// Every block is stored compressed, raw or as one repeated byte,
// whichever is smallest as libzstd decides it; literals go raw, as one
// repeated byte, or Huffman-coded in one or four streams with a new table
// or the previous block's; each sequence field's FSE table is the
// predefined one, the previous block's, a single symbol's or a new one,
// whichever costs fewest bits with its description (libzstd chooses so
// from level 5; its faster levels use a cheaper guess).
package zstdenc

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/goblosc/blosc/internal/le"
)

const (
	frameMagic   = 0xFD2FB528
	maxBlockSize = 128 << 10
)

// maxHistory bounds the dictionary and source a frame compresses (a
// variable so that a test can lower it).
var maxHistory = 1 << 29

// Encoder holds the tables and scratch of one goroutine. The zero value
// is ready to use; reusing it, frames are written without allocating.
type Encoder struct {
	p        cparams
	override *cparams // tests: these parameters instead of the level's
	rowsFrom uint8    // tests: rows from this window log (0: rowsMinLog)
	strategy int

	// Hash tables of positions biased by base: an entry below base is
	// from an earlier frame and is ignored, so the tables need no
	// clearing between frames.
	hashT, hashL []uint32
	base         uint32
	lastLen      int
	hist         []byte // the dictionary then the source, when a dictionary is used

	mrep [2]uint32 // the match finder's own repeat offsets

	// dfSearchy: a bit for each of the last four double fast blocks in
	// assembly, set where it searched long between its matches (which
	// loop the next one runs; the bytes are the same either way).
	dfSearchy uint8

	nextUpdate int // the hash chains, rows or tree hold the positions before this

	opt  optState // the optimal parser (btopt, btultra, btultra2)
	cuts []int    // where splitBlock cuts a block's sequences
	// splitSeqs: the copy of a part's sequences splitBlock measures.
	splitSeqs []seq

	// Row-based finding (rows true): a tag per hashT entry, and each
	// row's head.
	rows              bool
	rowTags, rowHeads []uint8
	// rowLg and rowHH: the row log and the rows' hasher for the frame's
	// minimum match, worked out once a frame rather than at every
	// search.
	rowLg uint8
	rowHH hasher

	// Hash chains of 16-bit heads and links (chain16.go): c16 this frame
	// walks them; noChain16 (benchmarks) keeps the uint32 ones.
	chain16, heads16 []uint16
	skips16          []int32 // the ranges the 16-bit chains skipped, start and end
	c16, noChain16   bool

	seqs []seq
	lits []byte
	// litsSrc, when not nil, holds the block's literals in place of
	// lits: the fast and double fast finders leave a block without a
	// match there (the block itself) rather than copy it into lits.
	litsSrc []byte
	// rawAt, when above 0, is the size at which the block being
	// written goes out raw: writeLiterals then neither copies literals
	// it stores raw into a block that cannot be kept, nor does
	// compressBlock go on.
	rawAt                     int
	llCodes, ofCodes, mlCodes []uint8
	blk                       []byte
	counts                    [3][64]uint32 // ll, of, ml codes

	// Entropy state the decoder will hold after the last block, and the
	// state the block being written would leave.
	rep, nextRep [3]uint32
	huf, hufNext huffCTable
	hufValid     bool
	hufNextIsNew bool
	fse          fseTables
	fseModes     [3]int // the modes of the block compressBlock wrote last

	hb        huffBuilder
	litCount  [256]uint32
	norm      [64]int16
	ncountBuf [512]byte
	wtBuf     [512]byte
	wtTable   fseCTable

	// bounded: dst may grow to room bytes only (EncodeFit: its
	// capacity); over is set once a frame would pass it.
	bounded bool
	room    int
	over    bool
}

// Encode appends to dst one zstd frame of src at libzstd's level (1..22;
// out of range levels are clamped) and returns the extended buffer.
func (e *Encoder) Encode(dst, src []byte, level int) []byte {
	return e.encode(dst, src, nil, level)
}

// EncodeFit is Encode within dst's capacity: it appends the frame and
// returns true when the frame fits there, and false otherwise without
// growing dst (the bytes between its length and capacity are then
// unspecified). It stops at the first block that does not fit, so an
// incompressible source costs no copy into a buffer it will not be kept
// in: c-blosc2 hands libzstd the room a stream may take and stores the
// stream itself when the frame does not fit, and so do its callers.
func (e *Encoder) EncodeFit(dst, src []byte, level int) ([]byte, bool) {
	e.bounded, e.room, e.over = true, cap(dst), false
	dst = e.encode(dst, src, nil, level)
	over := e.over
	e.bounded, e.over = false, false
	return dst, !over
}

// fits reports whether dst may grow by n bytes within the room
// EncodeFit allows, and marks the frame over when it may not.
func (e *Encoder) fits(dst []byte, n int) bool {
	if e.bounded && len(dst)+n > e.room {
		e.over = true
		return false
	}
	return true
}

// EncodeDict is Encode with a raw-content dictionary: src's matches may
// reach into dict, and a decoder needs the same dict. The frame carries
// no dictionary ID, as c-blosc2 writes it.
func (e *Encoder) EncodeDict(dst, src, dict []byte, level int) []byte {
	return e.encode(dst, src, dict, level)
}

func (e *Encoder) encode(dst, src, dict []byte, level int) []byte {
	e.p = paramsFor(level, len(src), len(dict))
	if e.override != nil {
		e.p = *e.override
	}
	e.strategy = int(e.p.strat)
	e.rows = e.useRows()
	e.c16 = e.useChain16(len(src) + len(dict))
	if !e.fits(dst, frameHeaderLen(len(src))) {
		return dst
	}
	dst = appendFrameHeader(dst, len(src))
	if len(src) == 0 {
		if !e.fits(dst, 3) {
			return dst
		}
		return append(dst, 1, 0, 0) // one empty raw block, marked last
	}
	if len(src)+len(dict) >= maxHistory {
		// Positions are biased 32-bit table entries: past this size
		// the frame is written in raw blocks (still a valid frame).
		for pos := 0; pos < len(src); pos += maxBlockSize {
			end := min(pos+maxBlockSize, len(src))
			last := uint32(0)
			if end == len(src) {
				last = 1
			}
			if !e.fits(dst, 3+end-pos) {
				return dst
			}
			dst = appendBlockHeader(dst, last|blockRaw<<1|uint32(end-pos)<<3)
			dst = append(dst, src[pos:end]...)
		}
		return dst
	}
	buf := src
	if len(dict) > 0 {
		e.hist = append(append(e.hist[:0], dict...), src...)
		buf = e.hist
	}
	e.reset(len(buf))
	e.treeReset()
	if e.c16 {
		e.chain16Reset()
	}
	start := len(buf) - len(src)
	if start > 0 {
		if e.c16 {
			e.loadDict16(buf[:start])
		} else {
			e.loadDict(buf[:start])
		}
	}
	for pos := start; pos < len(buf) && !e.over; {
		end := min(pos+maxBlockSize, len(buf))
		dst = e.block(dst, buf, pos, end, end == len(buf))
		pos = end
	}
	if e.c16 {
		e.chain16Done(buf)
	}
	return dst
}

// frameHeaderLen is the length of appendFrameHeader's header for n.
func frameHeaderLen(n int) int {
	switch {
	case n < 256:
		return 6
	case n < 65536+256:
		return 7
	case uint64(n) <= 0xFFFFFFFF:
		return 9
	}
	return 13
}

// appendFrameHeader writes the magic and a single-segment header whose
// content size is n.
func appendFrameHeader(dst []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, frameMagic)
	switch {
	case n < 256:
		return append(dst, 0x20, byte(n))
	case n < 65536+256:
		dst = append(dst, 1<<6|0x20)
		return binary.LittleEndian.AppendUint16(dst, uint16(n-256))
	case uint64(n) <= 0xFFFFFFFF:
		dst = append(dst, 2<<6|0x20)
		return binary.LittleEndian.AppendUint32(dst, uint32(n))
	default:
		dst = append(dst, 3<<6|0x20)
		return binary.LittleEndian.AppendUint64(dst, uint64(n))
	}
}

// reset prepares the per-frame state for a history of n bytes.
func (e *Encoder) reset(n int) {
	e.rep = [3]uint32{1, 4, 8}
	e.mrep = [2]uint32{1, 4}
	e.nextUpdate = 0
	e.hufValid = false
	e.fse.valid = [3]bool{}
	hsize := 1 << e.p.hlog
	csize := 0
	if e.strategy >= stratDfast && !e.rows && !e.c16 {
		csize = 1 << e.p.clog
	}
	if e.c16 {
		hsize = 0 // the 16-bit chains have their own heads
	}
	if cap(e.hashT) < hsize {
		e.hashT = make([]uint32, hsize)
		e.base = 0
	}
	e.hashT = e.hashT[:hsize]
	if cap(e.hashL) < csize {
		e.hashL = make([]uint32, csize)
		e.base = 0
	}
	e.hashL = e.hashL[:csize]
	if e.rows {
		// Tags and heads need no clearing: an entry from an earlier
		// frame is below base, and a row's entries are visited newest
		// first, so the search stops at the first such entry.
		if cap(e.rowTags) < hsize {
			e.rowTags = make([]uint8, hsize)
		}
		e.rowTags = e.rowTags[:hsize]
		if nh := hsize >> e.rowLog(); cap(e.rowHeads) < nh {
			e.rowHeads = make([]uint8, nh)
		}
		e.rowHeads = e.rowHeads[:hsize>>e.rowLog()]
		e.rowLg = e.rowLog()
		e.rowHH = newHasher(min(max(e.p.minMatch, 4), 6), e.p.hlog-e.rowLg+rowTagBits)
	}
	// Move base past every entry an earlier frame wrote; clear the tables
	// when the biased positions would grow past 2^30.
	next := uint64(e.base) + uint64(e.lastLen) + 1
	if e.base == 0 || next+uint64(n) >= 1<<30 {
		clear(e.hashT[:cap(e.hashT)])
		clear(e.hashL[:cap(e.hashL)])
		next = 1
	}
	e.base = uint32(next)
	e.lastLen = n
	bs := min(n, maxBlockSize)
	if need := 5*bs + 4096; cap(e.blk) < need {
		e.blk = make([]byte, need)
	}
	e.blk = e.blk[:cap(e.blk)]
	if cap(e.seqs) < bs/3+1 {
		e.seqs = make([]seq, 0, bs/3+1)
		e.llCodes = make([]uint8, bs/3+1)
		e.ofCodes = make([]uint8, bs/3+1)
		e.mlCodes = make([]uint8, bs/3+1)
	}
	if cap(e.lits) < bs+16 {
		e.lits = make([]byte, 0, bs+16) // 16 bytes of slack for emit
	}
}

// block appends buf[start:end] as one block.
func (e *Encoder) block(dst, buf []byte, start, end int, last bool) []byte {
	src := buf[start:end]
	e.seqs = e.seqs[:0]
	e.lits = e.lits[:0]
	e.litsSrc = nil
	switch e.strategy {
	case stratFast:
		e.fast(buf, start, end)
	case stratDfast:
		e.dfast(buf, start, end)
	case stratGreedy:
		if e.c16 {
			e.greedy16(buf, start, end)
			break
		}
		e.lazy(buf, start, end, 0)
	case stratLazy, stratLazy2:
		depth := 1
		if e.strategy == stratLazy2 {
			depth = 2
		}
		if e.c16 {
			e.lazy16(buf, start, end, depth)
			break
		}
		e.lazy(buf, start, end, depth)
	case stratBtlazy2:
		e.limitUpdate(start)
		e.lazy(buf, start, end, 2)
	default:
		e.limitUpdate(start)
		e.optimal(buf, start, end)
		if e.p.wlog >= 17 {
			return e.splitBlock(dst, src, last)
		}
	}
	return e.writeBlock(dst, src, last)
}

// writeBlock appends src as one block of the sequences and literals in
// e.seqs and e.lits: compressed, or raw or RLE when that is smaller.
func (e *Encoder) writeBlock(dst, src []byte, last bool) []byte {
	lastBit := uint32(0)
	if last {
		lastBit = 1
	}
	nlits := len(e.lits)
	if e.litsSrc != nil {
		nlits = len(e.litsSrc)
	}
	if e.over {
		return dst // the frame already does not fit: splitBlock's later parts
	}
	if len(e.seqs) < 4 && nlits < 10 && allSame(src) {
		if !e.fits(dst, 4) {
			return dst
		}
		dst = appendBlockHeader(dst, lastBit|blockRLE<<1|uint32(len(src))<<3)
		return append(dst, src[0])
	}
	e.rawAt = len(src) - minGain(len(src), e.strategy)
	n := e.compressBlock()
	e.rawAt = 0
	e.litsSrc = nil // the caller's bytes: not kept past the block
	if n == 0 || n >= len(src)-minGain(len(src), e.strategy) {
		if !e.fits(dst, 3+len(src)) {
			return dst
		}
		dst = appendBlockHeader(dst, lastBit|blockRaw<<1|uint32(len(src))<<3)
		return append(dst, src...)
	}
	if !e.fits(dst, 3+n) {
		// The frame ends here: the next one starts from reset.
		return dst
	}
	// The decoder keeps this block's tables and offsets: so do we.
	e.rep = e.nextRep
	if e.hufNextIsNew {
		e.huf = e.hufNext
		e.hufValid = true
	}
	if len(e.seqs) > 0 {
		// What the decoder holds now: a new table where it was built,
		// a repeated one where it was, no table after a predefined or
		// single-symbol mode (libzstd offers no repeat then).
		for k, m := range e.fseModes {
			switch m {
			case modeFSE:
				e.fse.cur[k] ^= 1
				e.fse.valid[k] = true
			case modeRepeat:
			default:
				e.fse.valid[k] = false
			}
		}
	}
	dst = appendBlockHeader(dst, lastBit|blockCompressed<<1|uint32(n)<<3)
	return append(dst, e.blk[:n]...)
}

func appendBlockHeader(dst []byte, h uint32) []byte {
	return append(dst, byte(h), byte(h>>8), byte(h>>16))
}

// allSame reports whether b (not empty) is one byte repeated: b equals
// itself shifted by one, which the runtime's vector compare checks.
func allSame(b []byte) bool {
	return bytes.Equal(b[1:], b[:len(b)-1])
}

// emit records a sequence: the literals from anchor to ip, then ml bytes
// from offset back.
func (e *Encoder) emit(buf []byte, anchor, ip int, offset uint32, ml int) {
	if n := len(e.lits); ip-anchor <= 16 && anchor+16 <= len(buf) && n+16 <= cap(e.lits) {
		// Most literal runs are short: 16 bytes copied as one array
		// move, past the run's end into the slack reset leaves, cost
		// less than append's call to memmove.
		l := e.lits[:n+16]
		*(*[16]byte)(l[n:]) = *(*[16]byte)(buf[anchor:])
		e.lits = l[:n+ip-anchor]
	} else {
		e.lits = append(e.lits, buf[anchor:ip]...)
	}
	e.seqs = append(e.seqs, seq{ll: uint32(ip - anchor), ml: uint32(ml), offset: offset})
}

// load32 and load64 read the finders' words without bounds checks where
// internal/le allows it: every offset is at most end-8 of the block, or
// a candidate before it (the tests and fuzz targets prove that with
// -tags purego, where the loads are checked).
func load32(b []byte, i int) uint32 { return le.Load32(b, i) }
func load64(b []byte, i int) uint64 { return le.Load64(b, i) }

const prime8 = 0xCF1BBCDCB7A56463

// hashN hashes the low mls bytes of u to hbits bits.
func hashN(u uint64, mls, hbits uint8) uint32 {
	// The masks tell the compiler the shifts are below 64, which spares
	// it the code for larger ones.
	return uint32(((u << ((64 - 8*mls) & 63)) * prime8) >> ((64 - hbits) & 63))
}

// hasher is hashN for one mls and hbits, its multiplier and shift worked
// out once: the low mls bytes shifted to the top and multiplied are the
// bytes multiplied by the prime shifted as far, one shift fewer a hash.
type hasher struct {
	mul   uint64
	shift uint8
}

func newHasher(mls, hbits uint8) hasher {
	return hasher{prime8 << ((64 - 8*mls) & 63), (64 - hbits) & 63}
}

func (h hasher) hash(u uint64) uint32 { return uint32((u * h.mul) >> (h.shift & 63)) }

// matchLen counts the bytes at a equal to those at b, a > b, up to end
// (at most len(buf)).
func matchLen(buf []byte, a, b, end int) int {
	n := 0
	for a+n+16 <= end {
		if d := le.Load64(buf, a+n) ^ le.Load64(buf, b+n); d != 0 {
			return n + bits.TrailingZeros64(d)>>3
		}
		if d := le.Load64(buf, a+n+8) ^ le.Load64(buf, b+n+8); d != 0 {
			return n + 8 + bits.TrailingZeros64(d)>>3
		}
		n += 16
		// A match this long may be very long (runs, zeros, shuffled
		// counters). On amd64 the rest goes 64 bytes a step in
		// assembly from 32 bytes on (most matches end before; the call
		// costs about two of this loop's turns): arange_i16's planes
		// at level 5 (BenchmarkEncodeChunkPlanes) spent half their time
		// here. Elsewhere the runtime's vector compare skips equal
		// stretches, not before 64 bytes: a call that finds a
		// difference early costs more than the loads it saves.
		if useMatchLenTail && n >= 32 && b < a && end <= len(buf) {
			return n + matchTail(buf, a+n, b+n, end)
		}
		for n >= 64 && a+n+256 <= end && bytes.Equal(buf[a+n:a+n+256], buf[b+n:b+n+256]) {
			n += 256
		}
	}
	if a+n+8 <= end {
		if d := le.Load64(buf, a+n) ^ le.Load64(buf, b+n); d != 0 {
			return n + bits.TrailingZeros64(d)>>3
		}
		n += 8
	}
	for a+n < end && buf[a+n] == buf[b+n] {
		n++
	}
	return n
}
