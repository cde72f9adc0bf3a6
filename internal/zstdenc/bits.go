package zstdenc

import "encoding/binary"

// bitWriter writes the bit streams zstd reads backwards: values go in from
// the low end of an accumulator and whole bytes leave it in order, so the
// decoder, starting from the last byte, meets the last value first. buf
// must hold 8 bytes past the last byte written; callers size it.
type bitWriter struct {
	buf []byte
	pos int
	acc uint64
	n   uint
}

func (w *bitWriter) reset(buf []byte) {
	w.buf, w.pos, w.acc, w.n = buf, 0, 0, 0
}

// add appends the low nb bits of v. The accumulator must have room:
// callers flush at most every 56 bits.
func (w *bitWriter) add(v uint64, nb uint) {
	w.acc |= (v & (1<<nb - 1)) << w.n
	w.n += nb
}

func (w *bitWriter) flush() {
	binary.LittleEndian.PutUint64(w.buf[w.pos:], w.acc)
	k := w.n >> 3
	w.pos += int(k)
	w.acc >>= k << 3
	w.n &= 7
}

// close writes the end mark, a single 1 bit, and returns the stream size.
func (w *bitWriter) close() int {
	w.add(1, 1)
	w.flush()
	if w.n > 0 {
		w.pos++
	}
	return w.pos
}
