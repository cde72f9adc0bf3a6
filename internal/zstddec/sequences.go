package zstddec

import (
	"encoding/binary"
	"math/bits"
)

// sequences decodes nseq sequences from the bit stream in and executes
// them into out[pos:] with the literals lits, then appends the literals
// left. It returns the new position.
//
// The bit stream is read as libzstd reads it: an 8-byte little-endian
// word whose top bits come first, refilled after each sequence. The
// stream is copied after 8 zero bytes so that a word can always be
// loaded; those stand for the zero bits a reader past the start sees.
// seq is one decoded sequence: literal length, match length, offset.
type seq struct{ ll, ml, off uint32 }

func (d *Decoder) sequences(out []byte, pos int, lits, in []byte, nseq int, window uint64) (int, error) {
	if len(in) == 0 || in[len(in)-1] == 0 {
		return 0, corrupt("sequences bit stream without its end mark")
	}
	if cap(d.seqs) < len(in)+8 {
		d.seqs = make([]byte, 8, max(len(in)+8, 4096))
	}
	buf := append(d.seqs[:8], in...)
	clear(buf[:8])
	// bp is where the loaded word starts; used counts its bits read.
	bp := len(buf) - 8
	val := binary.LittleEndian.Uint64(buf[bp:])
	used := uint(bits.LeadingZeros8(in[len(in)-1])) + 1
	// The tables have 512 entries of room; a state is always below its
	// table's size, so masking it changes nothing but the bounds check.
	llt := (*[512]seqEntry)(d.ll[:512:512])
	oft := (*[512]seqEntry)(d.of[:512:512])
	mlt := (*[512]seqEntry)(d.ml[:512:512])
	llState := peekBits(val, used, uint8(bits.Len(uint(len(d.ll)))-1))
	used += uint(uint8(bits.Len(uint(len(d.ll))) - 1))
	ofState := peekBits(val, used, uint8(bits.Len(uint(len(d.of)))-1))
	used += uint(uint8(bits.Len(uint(len(d.of))) - 1))
	mlState := peekBits(val, used, uint8(bits.Len(uint(len(d.ml)))-1))
	used += uint(uint8(bits.Len(uint(len(d.ml))) - 1))
	rep0, rep1, rep2 := d.rep[0], d.rep[1], d.rep[2]
	// A sequence makes at least 3 bytes: a count the output cannot hold
	// is corrupt, and the buffer below is sized by the output.
	if nseq > (len(out)-pos)/3 {
		return 0, corrupt("%d sequences for %d bytes of output", nseq, len(out)-pos)
	}
	if cap(d.seq) < nseq {
		d.seq = make([]seq, nseq)
	}
	seqs := d.seq[:nseq]
	// First pass: decode every sequence, resolving its offset.
	var oe, me, le seqEntry
	for i := range seqs {
		// Refill: at least 57 bits while the stream lasts.
		adv := min(int(used>>3), bp)
		bp -= adv
		used -= uint(adv) * 8
		val = binary.LittleEndian.Uint64(buf[bp:])

		oe, me, le = oft[ofState&511], mlt[mlState&511], llt[llState&511]
		ofv := oe.base + peekBits(val, used, oe.nbAdd)
		used += uint(oe.nbAdd)
		mlen := me.base + peekBits(val, used, me.nbAdd)
		used += uint(me.nbAdd)

		adv = min(int(used>>3), bp)
		bp -= adv
		used -= uint(adv) * 8
		val = binary.LittleEndian.Uint64(buf[bp:])

		llen := le.base + peekBits(val, used, le.nbAdd)
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
		seqs[i] = seq{ll: llen, ml: mlen, off: uint32(off)}
	}
	// The loop read state updates after the last sequence, which the
	// stream does not hold: give those bits back.
	used -= uint(le.nbBits) + uint(me.nbBits) + uint(oe.nbBits)
	// The stream must be read to its first bit exactly: the bp bytes
	// below the word's top byte are the stream's, so 8*bp bits are left.
	if used != uint(bp)*8 {
		return 0, corrupt("sequences bit stream not read exactly")
	}
	d.rep = [3]int{rep0, rep1, rep2}

	// Second pass: execute them. The literals decoded into d.lits have
	// litSlack bytes after them to copy in wide steps; raw ones, still in
	// the caller's src, are read only up to their end.
	lp := 0
	lw := lits
	if len(lits) > 0 && len(d.lits) > 0 && &lits[0] == &d.lits[0] {
		lw = d.lits[:len(lits)+litSlack]
	}
	for _, sq := range seqs {
		llen, mlen, off := int(sq.ll), int(sq.ml), int(sq.off)
		if llen > len(lits)-lp || llen+mlen > len(out)-pos {
			return 0, corrupt("sequence of %d literals and a %d-byte match overflows", llen, mlen)
		}
		if llen <= 32 && lp+32 <= len(lw) && pos+32 <= len(out) {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(lw[lp:]))
			binary.LittleEndian.PutUint64(out[pos+8:], binary.LittleEndian.Uint64(lw[lp+8:]))
			if llen > 16 {
				binary.LittleEndian.PutUint64(out[pos+16:], binary.LittleEndian.Uint64(lw[lp+16:]))
				binary.LittleEndian.PutUint64(out[pos+24:], binary.LittleEndian.Uint64(lw[lp+24:]))
			}
		} else {
			copy(out[pos:pos+llen], lits[lp:lp+llen])
		}
		pos += llen
		lp += llen
		// The history is the frame's output so far, within the window;
		// an offset of 0 (a repeated offset of 1 minus one) is invalid.
		if uint(off-1) >= uint(pos) || uint64(off) > window {
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
	if len(lits)-lp > len(out)-pos {
		return 0, corrupt("literals overflow the block")
	}
	pos += copy(out[pos:], lits[lp:])
	return pos, nil
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
