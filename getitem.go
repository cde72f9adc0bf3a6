package blosc

import "fmt"

// GetItem decodes items [start, start+n) of the chunk in src, an item being
// typesize bytes, and returns their n*typesize bytes. Only the blocks
// holding those items are decoded. dst is reused as in Decompress. A range
// outside the chunk returns an error wrapping ErrRange.
//
// Like c-blosc's blosc_getitem, the range is in whole items of the header's
// typesize; bytes of a trailing partial item cannot be addressed.
func GetItem(dst, src []byte, start, n int) ([]byte, error) {
	e := enginePool.Get().(*engine)
	out, err := e.getItem(dst, src, start, n)
	enginePool.Put(e)
	return out, err
}

func (e *engine) getItem(dst, src []byte, start, n int) ([]byte, error) {
	h := &e.h
	if err := h.parse(src); err != nil {
		return nil, err
	}
	ts := h.Typesize
	if start < 0 || n < 0 || start > h.Nbytes/ts || n > h.Nbytes/ts-start {
		return nil, fmt.Errorf("%w: items [%d, %d+%d) of %d-byte items in %d bytes", ErrRange, start, start, n, ts, h.Nbytes)
	}
	return e.getBytes(dst, src, start*ts, (start+n)*ts)
}

// getBytes decodes bytes [lo, hi) of the chunk whose header e.h holds
// (parsed from src, 0 <= lo <= hi <= nbytes), decoding only the blocks
// that hold them. Super-chunks read byte ranges across chunks through it.
func (e *engine) getBytes(dst, src []byte, lo, hi int) ([]byte, error) {
	h := &e.h
	if h.Format != FormatBlosc1 {
		return e.getBytesBlosc2(dst, src, lo, hi)
	}
	out := dst[:cap(dst)]
	if len(out) < hi-lo {
		out = make([]byte, hi-lo)
	}
	out = out[:hi-lo]
	if lo == hi {
		return out, nil
	}
	chunk := src[:h.Cbytes]
	if h.Memcpyed {
		copyOut(out, chunk[blosc1HeaderLen+lo:blosc1HeaderLen+hi], false)
		return out, nil
	}
	bs := h.Blocksize
	for j := lo / bs; j*bs < hi; j++ {
		bstart := j * bs
		bsize := h.blockSize(j)
		a, b := max(lo, bstart), min(hi, bstart+bsize)
		if a == bstart && b == bstart+bsize {
			// The whole block is wanted: decode it in place.
			if err := decompressBlock(&e.ws, h, chunk, j, out[a-lo:b-lo]); err != nil {
				return nil, err
			}
			continue
		}
		e.ws.blk = grow(e.ws.blk, bsize)
		if err := decompressBlock(&e.ws, h, chunk, j, e.ws.blk); err != nil {
			return nil, err
		}
		copy(out[a-lo:b-lo], e.ws.blk[a-bstart:b-bstart])
	}
	return out, nil
}
