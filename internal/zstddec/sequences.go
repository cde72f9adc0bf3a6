package zstddec

import (
	"encoding/binary"
	"math/bits"
)

// revBits reads a zstd backward bit stream: the stream's last byte holds
// its first bits, and its highest set bit marks where they start. The
// bits still to read are the low n bits of val, the next one the highest.
type revBits struct {
	in  []byte
	pos int // in[:pos] is not loaded yet
	val uint64
	n   uint
}

func (r *revBits) init(in []byte) error {
	if len(in) == 0 || in[len(in)-1] == 0 {
		return corrupt("bit stream without its end mark")
	}
	r.in, r.pos, r.val, r.n = in, len(in), 0, 0
	r.fill()
	r.n -= 8 - uint(bits.Len8(in[len(in)-1])-1)
	return nil
}

// fill loads bytes until at least 57 bits are held or the stream is all
// loaded.
func (r *revBits) fill() {
	if r.n > 56 {
		return
	}
	if r.pos >= 8 {
		k := (63 - r.n) >> 3
		w := binary.LittleEndian.Uint64(r.in[r.pos-8:])
		r.val = r.val<<(k*8) | w>>(64-k*8)
		r.pos -= int(k)
		r.n += k * 8
		return
	}
	for r.n <= 56 && r.pos > 0 {
		r.pos--
		r.val = r.val<<8 | uint64(r.in[r.pos])
		r.n += 8
	}
}

// get returns the next k bits. Reading past the stream's start yields
// zeros and leaves n "negative" (wrapped), which done reports.
func (r *revBits) get(k uint8) uint32 {
	if uint(k) > r.n {
		// Past the start: the stream is corrupt; keep reading zeros and
		// make the overrun visible to done.
		v := uint32(r.val<<(uint(k)-r.n)) & (1<<k - 1)
		r.n = 1 << 20
		r.pos = -1
		return v
	}
	r.n -= uint(k)
	return uint32(r.val>>r.n) & (1<<k - 1)
}

// done reports whether the stream was read to its start exactly.
func (r *revBits) done() bool { return r.pos == 0 && r.n == 0 }

// sequences decodes nseq sequences from the bit stream in and executes
// them into out[pos:] with the literals lits, then appends the literals
// left. It returns the new position.
func (d *Decoder) sequences(out []byte, pos int, lits, in []byte, nseq int, window uint64) (int, error) {
	var br revBits
	if err := br.init(in); err != nil {
		return 0, err
	}
	ll, of, ml := d.ll, d.of, d.ml
	llMask, ofMask, mlMask := uint32(len(ll)-1), uint32(len(of)-1), uint32(len(ml)-1)
	llState := br.get(uint8(bits.Len(uint(len(ll))) - 1))
	ofState := br.get(uint8(bits.Len(uint(len(of))) - 1))
	mlState := br.get(uint8(bits.Len(uint(len(ml))) - 1))
	rep0, rep1, rep2 := d.rep[0], d.rep[1], d.rep[2]
	lp := 0
	for i := nseq - 1; i >= 0; i-- {
		br.fill()
		oe, me, le := of[ofState&ofMask], ml[mlState&mlMask], ll[llState&llMask]
		ofv := int(oe.base) + int(br.get(oe.nbAdd))
		mlen := int(me.base) + int(br.get(me.nbAdd))
		br.fill()
		llen := int(le.base) + int(br.get(le.nbAdd))
		if i > 0 {
			llState = uint32(le.next) + br.get(le.nbBits)
			mlState = uint32(me.next) + br.get(me.nbBits)
			ofState = uint32(oe.next) + br.get(oe.nbBits)
		}
		// Offset: a new one, or one of the three repeated (RFC 8878
		// 3.1.1.5), where a literal length of 0 shifts the index by one.
		var off int
		if ofv > 3 {
			off = ofv - 3
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
				if off == 0 {
					return 0, corrupt("repeat offset 0")
				}
				rep0, rep1, rep2 = off, rep0, rep1
			}
		}
		if llen > len(lits)-lp {
			return 0, corrupt("sequence takes %d literals, %d left", llen, len(lits)-lp)
		}
		if llen+mlen > len(out)-pos {
			return 0, corrupt("sequence overflows the block")
		}
		// Literals.
		if llen <= 16 && lp+16 <= len(lits) && pos+16 <= len(out) {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(lits[lp:]))
			binary.LittleEndian.PutUint64(out[pos+8:], binary.LittleEndian.Uint64(lits[lp+8:]))
		} else {
			copy(out[pos:pos+llen], lits[lp:lp+llen])
		}
		pos += llen
		lp += llen
		// The history is the frame's output so far, within the window.
		if off > pos || uint64(off) > window {
			return 0, corrupt("match offset %d beyond the history", off)
		}
		copyMatch(out, pos, off, mlen)
		pos += mlen
	}
	if !br.done() {
		return 0, corrupt("sequences bit stream not read exactly")
	}
	d.rep = [3]int{rep0, rep1, rep2}
	if len(lits)-lp > len(out)-pos {
		return 0, corrupt("literals overflow the block")
	}
	pos += copy(out[pos:], lits[lp:])
	return pos, nil
}

// copyMatch copies ml bytes from off bytes back to out[pos:], the copy
// overlapping itself when off < ml. out holds at least pos+ml bytes.
func copyMatch(out []byte, pos, off, ml int) {
	src := pos - off
	if off >= 8 && ml <= 32 && pos+32 <= len(out) {
		// 8 bytes at a time: each load ends at or before the store's
		// start, so it reads bytes already written. Bytes stored past
		// pos+ml are rewritten later.
		for i := 0; i < ml; i += 8 {
			binary.LittleEndian.PutUint64(out[pos+i:], binary.LittleEndian.Uint64(out[src+i:]))
		}
		return
	}
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
