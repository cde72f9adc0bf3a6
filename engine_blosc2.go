package blosc

import (
	"errors"
	"fmt"

	"github.com/goblosc/blosc/internal/codec"
)

// blosc2Call is an engine's per-call state for Blosc2 chunks.
type blosc2Call struct {
	c      chunk2
	out    []byte
	first  int  // the block the parallel batch's index 0 stands for
	group  int  // blocks per task (see blockGroups)
	staged bool // tasks decode through their worker's stage

	// Compression.
	p    *params
	l    layout2
	pipe pipeline2
	src  []byte
	ref  []byte // what a decoder holds as block 0 (delta reference)
	ref0 []byte // buffer for ref when the pipeline is lossy
	zenc *zstdDictEncoder
	rows *rowSource // where the blocks are, src being nil
}

// decodeStream makes a worker's codec state the stream decoder of the
// Blosc2 block loop.
func (ws *workerState) decodeStream(c Codec, dict, dst, src []byte) error {
	var err error
	if dict != nil {
		err = ws.codec.DecompressDict(codec.ID(c), dst, src, dict)
	} else {
		err = ws.codec.Decompress(codec.ID(c), dst, src)
	}
	if err != nil {
		switch {
		case errors.Is(err, codec.ErrCorrupt):
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		case errors.Is(err, codec.ErrUnsupported):
			return fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		return err
	}
	return nil
}

func (e *engine) decompressBlosc2(dst, src []byte, threads int) ([]byte, error) {
	b := &e.b2
	c, err := openChunk2(src)
	if err != nil {
		return nil, err
	}
	n := c.h.nbytes
	out := dst[:cap(dst)]
	if len(out) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	threads = resolveThreads(threads)
	c.pipe.bypass = (e.bypass || n >= bypassMinBytes) && c.pipe.bypassable()
	c.bigOut = e.bypass
	stageMin := stageMinDefault
	if e.stageMin > 0 {
		stageMin = e.stageMin
	}
	regular := c.nblocks > 1 && !c.h.vlBlocks() && c.h.special() == specialNone && !c.h.memcpyed()
	if !regular || threads <= 1 || !e.parallelAt(n, c.codec, false) {
		if err := c.decodeAll(out, stageMin, &e.ws.b2, &e.ws); err != nil {
			return nil, err
		}
		return out, nil
	}
	// Every block's delta refers to the decoded block 0: do it first.
	first := 0
	if c.pipe.has(Delta) {
		if err := c.decodeGroup(out, 0, 1, false, &e.ws.b2, &e.ws); err != nil {
			return nil, err
		}
		first = 1
	}
	g, staged := c.blockGroups(stageMin)
	b.c, b.out, b.first, b.group, b.staged, e.err = c, out, first, g, staged, nil
	runBlocks(&e.batch, decompress2Task{e}, (c.nblocks-first+g-1)/g, threads, &e.ws)
	b.c, b.out = chunk2{}, nil
	if e.err != nil {
		err := e.err
		e.err = nil
		return nil, err
	}
	return out, nil
}

type decompress2Task struct{ e *engine }

// doBlock decodes the j-th group of blocks after b.first.
func (t decompress2Task) doBlock(ws *workerState, j int) {
	b := &t.e.b2
	lo := b.first + j*b.group
	hi := min(lo+b.group, b.c.nblocks)
	if err := b.c.decodeGroup(b.out, lo, hi, b.staged, &ws.b2, ws); err != nil {
		t.e.setErr(err)
	}
}

// getBytesBlosc2 is getBytes for a Blosc2 chunk.
func (e *engine) getBytesBlosc2(dst, src []byte, lo, hi int) ([]byte, error) {
	c, err := openChunk2(src)
	if err != nil {
		return nil, err
	}
	return e.getBytesChunk2(dst, &c, lo, hi)
}

// getBytesChunk2 decodes bytes [lo, hi) of an opened chunk, touching only
// the blocks that hold them (and block 0 under delta).
func (e *engine) getBytesChunk2(dst []byte, c *chunk2, lo, hi int) ([]byte, error) {
	h := &c.h
	if lo < 0 || lo > hi || hi > h.nbytes {
		// A super-chunk's reads check the chunk's size only after it:
		// a chunk that holds fewer bytes than its frame says must not
		// reach the blocks it lacks.
		return nil, fmt.Errorf("%w: bytes [%d, %d) of a chunk of %d", ErrCorrupt, lo, hi, h.nbytes)
	}
	out := dst[:cap(dst)]
	if len(out) < hi-lo {
		out = make([]byte, hi-lo)
	}
	out = out[:hi-lo]
	st := &e.ws.b2
	switch {
	case lo == hi:
		return out, nil
	case h.special() != specialNone:
		return out, expandSpecialAt(out, h, c.src, lo)
	case h.memcpyed():
		copy(out, c.src[header2Len+lo:header2Len+hi])
		return out, nil
	case h.vlBlocks():
		return out, c.getItemVL(out, lo, hi, st, &e.ws)
	}
	bs := h.blocksize
	var ref []byte
	if c.pipe.has(Delta) && lo >= bs {
		st.ref = grow(st.ref, c.blockSize(0))
		if err := c.decodeBlock(st.ref, nil, 0, st, &e.ws); err != nil {
			return nil, err
		}
		ref = st.ref
	}
	for j := lo / bs; j*bs < hi; j++ {
		bstart, bsize := j*bs, c.blockSize(j)
		a, b := max(lo, bstart), min(hi, bstart+bsize)
		var r []byte
		if j > 0 && ref != nil {
			r = ref[:bsize]
		}
		if a == bstart && b == bstart+bsize {
			if j == 0 {
				ref = out[:bsize]
			}
			if err := c.decodeBlock(out[a-lo:b-lo], r, j, st, &e.ws); err != nil {
				return nil, err
			}
			continue
		}
		if done, err := c.decodeBlockPart(out[a-lo:b-lo], j, a-bstart, st, &e.ws); err != nil {
			return nil, err
		} else if done {
			continue
		}
		st.blk = grow(st.blk, bsize)
		if err := c.decodeBlock(st.blk, r, j, st, &e.ws); err != nil {
			return nil, err
		}
		if j == 0 && c.pipe.has(Delta) {
			st.ref = append(st.ref[:0], st.blk...)
			ref = st.ref
		}
		copy(out[a-lo:b-lo], st.blk[a-bstart:b-bstart])
	}
	return out, nil
}

// getItemVL decodes the VL blocks overlapping [lo, hi).
func (c *chunk2) getItemVL(out []byte, lo, hi int, st *decodeState, cd codecDecoder) error {
	off := 0
	for i := 0; i < c.nblocks && off < hi; i++ {
		n := le32(c.src[c.bstart(i):])
		if off+n > lo {
			st.blk = grow(st.blk, n)
			if err := c.decodeVLBlock(st.blk, nil, i, st, cd); err != nil {
				return err
			}
			a, b := max(lo, off), min(hi, off+n)
			copy(out[a-lo:b-lo], st.blk[a-off:b-off])
		}
		off += n
	}
	return nil
}
