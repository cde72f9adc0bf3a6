package blosc

import "fmt"

func (e *engine) getItems(dst, src []byte, start, n int64) ([]byte, error) {
	h := &e.h
	if err := h.parse(src); err != nil {
		return nil, err
	}
	ts := h.Typesize
	items := int64(h.Nbytes / ts)
	if start < 0 || n < 0 || start > items || n > items-start {
		return nil, fmt.Errorf("%w: items [%d, %d+%d) of %d-byte items in %d bytes", ErrRange, start, start, n, ts, h.Nbytes)
	}
	return e.getBytes(dst, src, int(start)*ts, int(start+n)*ts)
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
