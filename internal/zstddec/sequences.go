package zstddec

import (
	"encoding/binary"
	"math/bits"
)

// sequences decodes nseq sequences from the bit stream in and executes
// each as it is decoded, into out[pos:] with the literals lits, then
// appends the literals left. It returns the new position.
//
// The bit stream is read as libzstd reads it: an 8-byte little-endian
// word whose top bits come first, refilled once a sequence. A word can
// always be loaded: the stream is read in place where the frame has 8
// bytes before it, else copied after 8 zero bytes. A stream read past
// its start is rejected at the end (the output is garbage then, but
// every copy was bounds-checked).
func (d *Decoder) sequences(out []byte, pos int, lits, in []byte, nseq int, window uint64) (int, error) {
	if len(in) == 0 || in[len(in)-1] == 0 {
		return 0, corrupt("sequences bit stream without its end mark")
	}
	// A sequence makes at least 3 bytes: a count the output cannot hold
	// is corrupt.
	if nseq > (len(out)-pos)/3 {
		return 0, corrupt("%d sequences for %d bytes of output", nseq, len(out)-pos)
	}
	var buf []byte
	if start := d.blockEnd - len(in); start >= 8 && d.blockEnd <= len(d.src) {
		// In place: the 8 bytes before the stream, the frame's, are
		// read only by a reader past the stream's start, which is
		// rejected whatever they hold.
		buf = d.src[start-8 : d.blockEnd]
	} else {
		if cap(d.seqs) < len(in)+8 {
			d.seqs = make([]byte, 8, max(len(in)+8, 4096))
		}
		buf = append(d.seqs[:8], in...)
		clear(buf[:8])
	}
	// bp is where the loaded word starts; used counts its bits read.
	bp := len(buf) - 8
	val := binary.LittleEndian.Uint64(buf[bp:])
	used := uint(bits.LeadingZeros8(in[len(in)-1])) + 1
	// The tables have 512 entries of room; a state is always below its
	// table's size, so masking it changes nothing but the bounds check.
	llt := (*[512]seqEntry)(d.ll[:512:512])
	oft := (*[512]seqEntry)(d.of[:512:512])
	mlt := (*[512]seqEntry)(d.ml[:512:512])
	llLog := uint8(bits.Len(uint(len(d.ll))) - 1)
	ofLog := uint8(bits.Len(uint(len(d.of))) - 1)
	mlLog := uint8(bits.Len(uint(len(d.ml))) - 1)
	llState := peekBits(val, used, llLog)
	used += uint(llLog)
	ofState := peekBits(val, used, ofLog)
	used += uint(ofLog)
	mlState := peekBits(val, used, mlLog)
	used += uint(mlLog)
	rep0, rep1, rep2 := d.rep[0], d.rep[1], d.rep[2]

	// The wide copies read up to litSlack bytes past the literals in
	// use. Those decoded into d.lits have that room; raw ones are read in
	// place, where the frame's bytes after them (the sequences section)
	// give it, or else copied, as libzstd does. Without the room every
	// sequence would take the slow path: a block of long matches can
	// carry fewer than 16 literals in all (C's linspace_f64 streams at
	// clevel 5 send 84% of their sequences there).
	lp := 0
	var lw []byte
	switch {
	case len(lits) > 0 && len(d.lits) > 0 && &lits[0] == &d.lits[0]:
		lw = d.lits[:len(lits)+litSlack]
	case cap(lits)-len(lits) >= litSlack:
		lw = lits[:len(lits)+litSlack]
	default:
		buf := d.litBuf(len(lits))
		copy(buf, lits)
		lits, lw = buf, d.lits[:len(buf)+litSlack]
	}
	if useSeqAsm && len(out) >= 64 && len(lw) >= 16 {
		return d.sequencesAsm(out, pos, lits, lw, buf, bp, used, llState, ofState, mlState, nseq, window)
	}
	var oe, me, le seqEntry
	for range nseq {
		// Refill: at least 57 bits while the stream lasts.
		adv := min(int(used>>3), bp)
		bp -= adv
		used -= uint(adv) * 8
		val = binary.LittleEndian.Uint64(buf[bp:])

		oe, me, le = oft[ofState&511], mlt[mlState&511], llt[llState&511]
		ofv := oe.base + peekBits(val, used, oe.nbAdd)
		used += uint(oe.nbAdd)
		mlen := int(me.base + peekBits(val, used, me.nbAdd))
		used += uint(me.nbAdd)
		// The extra bits take 31 or more only with long offsets or
		// lengths; the three state updates after them take up to 26
		// bits, so 57 suffice without a second refill otherwise.
		if oe.nbAdd+me.nbAdd+le.nbAdd >= 31 {
			adv = min(int(used>>3), bp)
			bp -= adv
			used -= uint(adv) * 8
			val = binary.LittleEndian.Uint64(buf[bp:])
		}
		llen := int(le.base + peekBits(val, used, le.nbAdd))
		used += uint(le.nbAdd)
		llState = uint32(le.next) + peekBits(val, used, le.nbBits)
		used += uint(le.nbBits)
		mlState = uint32(me.next) + peekBits(val, used, me.nbBits)
		used += uint(me.nbBits)
		ofState = uint32(oe.next) + peekBits(val, used, oe.nbBits)
		used += uint(oe.nbBits)

		// Offset: a new one, or one of the three repeated (RFC 8878
		// 3.1.1.5), where a literal length of 0 shifts the index by one.
		var off int
		if ofv > 3 {
			off = int(ofv) - 3
			rep0, rep1, rep2 = off, rep0, rep1
		} else {
			idx := ofv - 1
			if llen == 0 {
				idx++
			}
			switch idx {
			case 0:
				off = rep0
			case 1:
				off = rep1
				rep0, rep1 = rep1, rep0
			case 2:
				off = rep2
				rep0, rep1, rep2 = rep2, rep0, rep1
			default:
				off = rep0 - 1
				rep0, rep1, rep2 = off, rep0, rep1
			}
		}

		// Execute: the literals, then the match.
		if llen > len(lits)-lp || llen+mlen > len(out)-pos {
			if overrun(used, bp) {
				return 0, ErrSequencesEnd
			}
			return 0, corrupt("sequence of %d literals and a %d-byte match overflows", llen, mlen)
		}
		if llen <= 16 && lp+16 <= len(lw) && pos+16 <= len(out) {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(lw[lp:]))
			binary.LittleEndian.PutUint64(out[pos+8:], binary.LittleEndian.Uint64(lw[lp+8:]))
		} else {
			copyLiterals(out[pos:], lw[lp:], lits[lp:lp+llen])
		}
		pos += llen
		lp += llen
		// The history is the frame's output so far, within the window;
		// an offset of 0 (a repeated offset of 1 minus one) is invalid.
		if uint(off-1) >= uint(pos) || uint64(off) > window {
			if overrun(used, bp) {
				return 0, ErrSequencesEnd
			}
			return 0, corrupt("match offset %d beyond the history", off)
		}
		if off >= 16 && mlen <= 16 && pos+16 <= len(out) {
			src := pos - off
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(out[src:]))
			binary.LittleEndian.PutUint64(out[pos+8:], binary.LittleEndian.Uint64(out[src+8:]))
		} else {
			copyMatch(out, pos, off, mlen)
		}
		pos += mlen
	}
	// The loop read state updates after the last sequence, which the
	// stream does not hold: give those bits back.
	fub := uint(le.nbBits) + uint(me.nbBits) + uint(oe.nbBits)
	if err := seqStreamEnd(used-fub, fub, bp); err != nil {
		return 0, err
	}
	d.rep = [3]int{rep0, rep1, rep2}
	if len(lits)-lp > len(out)-pos {
		return 0, corrupt("literals overflow the block")
	}
	pos += copy(out[pos:], lits[lp:])
	return pos, nil
}

// useSeqAsm selects the assembly sequence loop where there is one;
// tests clear it to run the portable loop.
var useSeqAsm = haveSeqAsm

// execSeq executes one sequence of llen literals from lits[lp:] (lw is
// lits with what may be read past them) and a match of mlen bytes off
// bytes back, at out[pos:], with every check, and returns the new
// positions in out and lits.
func execSeq(out []byte, pos int, lits, lw []byte, lp, llen, mlen, off int, window uint64) (int, int, error) {
	if llen > len(lits)-lp || llen+mlen > len(out)-pos {
		return 0, 0, corrupt("sequence of %d literals and a %d-byte match overflows", llen, mlen)
	}
	copyLiterals(out[pos:], lw[lp:], lits[lp:lp+llen])
	pos += llen
	lp += llen
	if uint(off-1) >= uint(pos) || uint64(off) > window {
		return 0, 0, corrupt("match offset %d beyond the history", off)
	}
	copyMatch(out, pos, off, mlen)
	return pos + mlen, lp, nil
}

// copyLiterals copies the len(lits) literals to out, which has room for
// them. wide is lits followed by what may be read past them: where both
// have 32 bytes to spare it copies 32 at a time, writing up to 31 bytes
// past the literals, which the match after them overwrites.
func copyLiterals(out, wide, lits []byte) {
	n := len(lits)
	if n+32 > len(wide) || n+32 > len(out) {
		copy(out, lits)
		return
	}
	for i := 0; i < n; i += 32 {
		w := wide[i : i+32 : i+32]
		o := out[i : i+32 : i+32]
		binary.LittleEndian.PutUint64(o[0:], binary.LittleEndian.Uint64(w[0:]))
		binary.LittleEndian.PutUint64(o[8:], binary.LittleEndian.Uint64(w[8:]))
		binary.LittleEndian.PutUint64(o[16:], binary.LittleEndian.Uint64(w[16:]))
		binary.LittleEndian.PutUint64(o[24:], binary.LittleEndian.Uint64(w[24:]))
	}
}

// copyMatch copies ml bytes from off bytes back to out[pos:], the copy
// overlapping itself when off < ml. out holds at least pos+ml bytes.
// Where out has 16 bytes to spare past the match, it copies 8 or 16 bytes
// at a time and may write up to 15 bytes past the match, which the next
// sequences overwrite.
func copyMatch(out []byte, pos, off, ml int) {
	src := pos - off
	end := pos + ml
	if end+16 > len(out) || ml > 64 {
		copyMatchExact(out, pos, off, ml)
		return
	}
	switch {
	case off >= 16:
		// Each 16-byte load ends at or before its store's start, so it
		// reads bytes already written.
		for ; pos < end; pos, src = pos+16, src+16 {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(out[src:]))
			binary.LittleEndian.PutUint64(out[pos+8:], binary.LittleEndian.Uint64(out[src+8:]))
		}
	case off >= 8:
		for ; pos < end; pos, src = pos+8, src+8 {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(out[src:]))
		}
	default:
		// Byte by byte for 8 bytes, then 8 at a time from a multiple of
		// the period at least 8 bytes back, where the pattern repeats.
		for i := range 8 {
			out[pos+i] = out[src+i]
		}
		stride := off * ((8 + off - 1) / off)
		for pos += 8; pos < end; pos += 8 {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(out[pos-stride:]))
		}
	}
}

// copyMatchExact is copyMatch writing nothing past the match.
func copyMatchExact(out []byte, pos, off, ml int) {
	src := pos - off
	if off >= ml {
		copy(out[pos:pos+ml], out[src:src+ml])
		return
	}
	// The bytes from src repeat with period off; copy the longest run
	// already written that keeps the phase, doubling each time.
	end := pos + ml
	for pos < end {
		pos += copy(out[pos:end], out[src:pos])
	}
}

// peekBits returns the k bits after the first used of val, k up to 32.
// Two shifts so that k = 0 reads nothing, each below 64 so that no shift
// needs a range check. Past the stream's start (used > 63) the masked
// count reads garbage, and the end check rejects the stream.
func peekBits(val uint64, used uint, k uint8) uint32 {
	return uint32(val << (used & 63) >> 1 >> ((63 - uint(k)) & 63))
}

// seqStreamEnd checks that the sequences read their bit stream to its
// first bit exactly: the bp bytes below the loaded word's top byte are
// the stream's, so 8*bp bits are left when used bits of the word were
// read. fub is what the state updates after the last sequence (which the
// stream does not hold) would read.
func seqStreamEnd(used, fub uint, bp int) error {
	have := uint(bp) * 8
	switch {
	case used == have:
		return nil
	case used > have || used+fub >= have:
		return ErrSequencesEnd
	}
	return corrupt("sequences bit stream not read to its start")
}

// overrun reports whether a sequences stream was read past its start
// (used bits of the word at bp, whose bp*8 bits below reach back to the
// start): a sequence that fails then was decoded from bits the stream does
// not hold, and the stream's end is the error, as seqStreamEnd would say.
// (The portable loop has also read the state updates after the failing
// sequence, which the stream does not hold after its last one: a last
// sequence that truly overflows, ending a stream read exactly, is then
// reported as the stream's end. Both are ErrCorrupt.)
func overrun(used uint, bp int) bool { return used > uint(bp)*8 }
