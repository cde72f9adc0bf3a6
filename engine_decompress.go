package blosc

import (
	"errors"
	"fmt"

	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/internal/codec"
)

func (e *engine) decompress(dst, src []byte, threads int) ([]byte, error) {
	h := &e.h
	if err := h.parse(src); err != nil {
		return nil, err
	}
	if h.Format != FormatBlosc1 {
		return e.decompressBlosc2(dst, src, threads)
	}
	out := dst[:cap(dst)]
	if len(out) < h.Nbytes {
		out = make([]byte, h.Nbytes)
	}
	out = out[:h.Nbytes]
	if h.Nbytes == 0 {
		return out, nil
	}
	chunk := src[:h.Cbytes]
	if h.Memcpyed {
		copyOut(out, chunk[blosc1HeaderLen:], e.bypass)
		return out, nil
	}
	// runtime.GOMAXPROCS takes the runtime's global scheduler lock: ask it
	// only for chunks that may go parallel, not on every small call.
	if h.Nblocks > 1 && e.parallelAt(h.Nbytes, h.Codec, false) {
		if threads = resolveThreads(threads); threads > 1 {
			e.chunk, e.out, e.err = chunk, out, nil
			runBlocks(&e.batch, decompressTask{e}, h.Nblocks, threads, &e.ws)
			e.chunk, e.out = nil, nil
			if e.err != nil {
				err := e.err
				e.err = nil
				return nil, err
			}
			return out, nil
		}
	}
	for j := 0; j < h.Nblocks; j++ {
		if err := decompressBlock(&e.ws, h, chunk, j, out[j*h.Blocksize:j*h.Blocksize+h.blockSize(j)]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type decompressTask struct{ e *engine }

func (t decompressTask) doBlock(ws *workerState, j int) {
	e := t.e
	h := &e.h
	if err := decompressBlock(ws, h, e.chunk, j, e.out[j*h.Blocksize:j*h.Blocksize+h.blockSize(j)]); err != nil {
		e.setErr(err)
	}
}

// decompressBlock is c-blosc 1.x's blosc_d: decode block j of a checked
// Blosc1 chunk into out (exactly the block's size), every offset and size
// checked against the chunk.
func decompressBlock(ws *workerState, h *Header, chunk []byte, j int, out []byte) error {
	bsize := len(out)
	ts := h.Typesize
	lastPartial := j == h.Nblocks-1 && h.leftover() > 0
	byteShuf := h.Shuffle && ts > 1
	bitShuf := !h.Shuffle && h.BitShuffle && bsize >= ts && (bsize/ts)%8 == 0
	dst := out
	if byteShuf || bitShuf {
		ws.tmp = grow(ws.tmp, bsize)
		dst = ws.tmp
	}
	nsplits := 1
	if h.Split && !lastPartial {
		nsplits = ts
	}
	neblock := bsize / nsplits
	off := le32(chunk[blosc1HeaderLen+4*j:])
	if off < blosc1HeaderLen+4*h.Nblocks || off > len(chunk) {
		return corruptf("block %d starts at %d, outside the streams area", j, off)
	}
	id := codec.ID(h.Codec)
	for k := 0; k < nsplits; k++ {
		if off > len(chunk)-4 {
			return corruptf("block %d stream %d: size field beyond cbytes", j, k)
		}
		csize := le32(chunk[off:])
		off += 4
		if csize <= 0 || csize > len(chunk)-off {
			return corruptf("block %d stream %d: size %d with %d bytes left", j, k, csize, len(chunk)-off)
		}
		stream := chunk[off : off+csize]
		part := dst[k*neblock : (k+1)*neblock]
		if csize == neblock {
			copyOut(part, stream, false)
		} else if err := ws.codec.Decompress(id, part, stream); err != nil {
			if errors.Is(err, codec.ErrCorrupt) {
				return fmt.Errorf("%w: block %d stream %d: %v", ErrCorrupt, j, k, err)
			}
			return fmt.Errorf("blosc: block %d stream %d: %w", j, k, err)
		}
		off += csize
	}
	switch {
	case byteShuf && h.Nbytes >= bypassMinBytes && canBypass(ts):
		unshuffleBypass(out, dst, ts) // a chunk this large leaves the caches anyway
	case byteShuf:
		Unshuffle(out, dst, ts)
	case bitShuf:
		bitshuffle.Unshuffle(out, dst, ts)
	}
	return nil
}
