package blosc

// Reading a super-chunk: chunks as stored, decoded, by items or bytes,
// whole.

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
)

// stored returns chunk i's bytes in the region, or its special kind when
// the offset index codes it.
func (s *SChunk) stored(i int) ([]byte, int, error) { return s.storedIn(i, nil) }

// maxScratch bounds the chunk buffer an engine keeps between chunks.
const maxScratch = 8 << 20

// storedIn is stored, reading a chunk of a frame file into *scratch when
// it has room (and keeping there the buffer it read into), so that a
// caller decoding chunk after chunk allocates no buffer per chunk. The
// bytes returned may then be *scratch's: valid until its next use.
func (s *SChunk) storedIn(i int, scratch *[]byte) ([]byte, int, error) {
	off, err := s.offsetAt(i)
	if err != nil {
		return nil, 0, err
	}
	if off < 0 {
		k, err := offsetKind(off)
		return nil, k, err
	}
	if s.sparse != nil {
		c, err := s.sparse.readChunk(off)
		if err != nil {
			return nil, 0, fmt.Errorf("chunk %d: %w", i, err)
		}
		return c, 0, nil
	}
	if off < s.pendBase && s.file == nil {
		return nil, 0, fmt.Errorf("%w: chunk %d was written out by a FrameWriter", ErrUnsupported, i)
	}
	if off < s.pendBase || s.file != nil && !s.file.dirty {
		if s.file.broken {
			return nil, 0, errBroken
		}
		var c, buf []byte
		if scratch != nil {
			buf = *scratch
		}
		end, exact, err := s.chunkEnd(i, off)
		if err == nil {
			c, buf, err = s.file.readChunk(off, end, exact, buf)
		}
		if scratch != nil && cap(buf) <= maxScratch {
			*scratch = buf[:0]
		}
		if err != nil {
			return nil, 0, fmt.Errorf("chunk %d: %w", i, err)
		}
		return c, 0, nil
	}
	c := s.region[off-s.pendBase:]
	cb := int(int32(binary.LittleEndian.Uint32(c[12:])))
	return c[:cb:cb], 0, nil
}

func (s *SChunk) checkIndex(i int) error {
	if i < 0 || i >= s.offs.len() {
		return fmt.Errorf("%w: chunk %d of %d", ErrRange, i, s.offs.len())
	}
	return nil
}

// Chunk returns chunk i as stored (compressed), in dst's array if its
// capacity is enough, as Decompress reuses dst. A chunk the offsets index
// codes (zeros, NaN, uninitialised) is returned as the 32-byte special
// chunk c-blosc2 returns for it.
func (s *SChunk) Chunk(dst []byte, i int) ([]byte, error) {
	var v []byte
	err := s.readData(func() (err error) {
		v, err = s.chunkCopy(dst, i)
		return err
	})
	return v, err
}

func (s *SChunk) chunkCopy(dst []byte, i int) ([]byte, error) {
	c, err := s.chunk(i)
	if err != nil {
		return nil, err
	}
	if cap(dst) < len(c) {
		dst = make([]byte, len(c))
	}
	dst = dst[:len(c)]
	copy(dst, c)
	return dst, nil
}

// chunk returns chunk i as Chunk does, but without a copy where the
// super-chunk holds it: the bytes must not be changed, and are valid
// until the next change.
func (s *SChunk) chunk(i int) ([]byte, error) {
	if err := s.checkIndex(i); err != nil {
		return nil, err
	}
	c, kind, err := s.stored(i)
	if err != nil || c != nil {
		return c, err
	}
	_, n := s.chunkSpan(i)
	h, err := specialHeader(n, int(s.hdr.typesize), kind)
	if err != nil {
		return nil, fmt.Errorf("%w: special chunk %d: %v", ErrCorrupt, i, err)
	}
	if s.hdr.blocksize > 0 {
		h.blocksize = blocksize2(n, int(s.hdr.typesize), 5, BloscLZ, shuffleLast, SplitForwardCompat, int(s.hdr.blocksize))
	}
	return putSpecial(nil, h, nil), nil
}

var shuffleLast = [MaxFilters]Filter{MaxFilters - 1: ByteShuffle}

// ChunkInfo describes chunk i.
func (s *SChunk) ChunkInfo(i int) (ChunkInfo, error) {
	var v ChunkInfo
	err := s.readData(func() (err error) {
		v, err = s.chunkInfo(i)
		return err
	})
	return v, err
}

func (s *SChunk) chunkInfo(i int) (ChunkInfo, error) {
	if err := s.checkIndex(i); err != nil {
		return ChunkInfo{}, err
	}
	_, n := s.chunkSpan(i)
	info := ChunkInfo{Index: i, Nbytes: n}
	c, kind, err := s.stored(i)
	if err != nil {
		return info, err
	}
	if c == nil {
		info.Special, info.Cbytes = Special(kind), header2Len
		return info, nil
	}
	info.Cbytes = len(c)
	info.Special = Special(int(c[31]>>b2SpecialShift) & b2SpecialMask)
	return info, nil
}

// DecompressChunk decodes chunk i into dst (reused when it has room).
func (s *SChunk) DecompressChunk(dst []byte, i int) ([]byte, error) {
	var v []byte
	err := s.readData(func() (err error) {
		v, err = s.decompressChunk(dst, i)
		return err
	})
	return v, err
}

func (s *SChunk) decompressChunk(dst []byte, i int) ([]byte, error) {
	if err := s.checkIndex(i); err != nil {
		return nil, err
	}
	_, n := s.chunkSpan(i)
	out := dst[:cap(dst)]
	if len(out) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	e := enginePool.Get().(*engine)
	err := s.decodeChunkInto(e, out, i, resolveThreads(s.opts.Threads))
	enginePool.Put(e)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeChunkInto decodes chunk i into out, whose length is the chunk's
// size.
func (s *SChunk) decodeChunkInto(e *engine, out []byte, i, threads int) error {
	c, kind, err := s.storedIn(i, &e.stored)
	if err != nil {
		return err
	}
	if c == nil {
		return s.expandCoded(out, kind, 0)
	}
	got, err := e.decompress(out[:0:len(out)], c, threads)
	if err != nil {
		return fmt.Errorf("chunk %d: %w", i, err)
	}
	if len(got) != len(out) {
		return fmt.Errorf("%w: chunk %d decodes to %d bytes, the frame says %d", ErrCorrupt, i, len(got), len(out))
	}
	return nil
}

// expandCoded writes bytes [lo, lo+len(out)) of a chunk the index codes.
func (s *SChunk) expandCoded(out []byte, kind, lo int) error {
	h := header2{typesize: uint8(s.hdr.typesize), b2flags: uint8(kind << b2SpecialShift)}
	return expandSpecialAt(out, &h, nil, lo)
}

// ReadAt reads len(p) bytes of the decompressed data starting at off,
// decoding only the chunks, and within them only the blocks, the range
// touches. It implements io.ReaderAt.
func (s *SChunk) ReadAt(p []byte, off int64) (int, error) {
	var v int
	err := s.readData(func() (err error) {
		v, err = s.readAt(p, off)
		return err
	})
	return v, err
}

func (s *SChunk) readAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: offset %d", ErrRange, off)
	}
	if off >= s.hdr.nbytes {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), s.hdr.nbytes-off))
	e := enginePool.Get().(*engine)
	err := s.readRange(e, p[:n], off)
	enginePool.Put(e)
	if err != nil {
		return 0, err
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// GetItems returns items [start, start+n) of Typesize bytes, reusing dst
// when it has room.
func (s *SChunk) GetItems(dst []byte, start, n int64) ([]byte, error) {
	var v []byte
	err := s.readData(func() (err error) {
		v, err = s.getItems(dst, start, n)
		return err
	})
	return v, err
}

func (s *SChunk) getItems(dst []byte, start, n int64) ([]byte, error) {
	ts := int64(s.hdr.typesize)
	if start < 0 || n < 0 || start > s.hdr.nbytes/ts || n > s.hdr.nbytes/ts-start {
		return nil, fmt.Errorf("%w: items [%d, %d+%d) of %d-byte items in %d bytes", ErrRange, start, start, n, ts, s.hdr.nbytes)
	}
	size := n * ts
	if size > math.MaxInt {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, size)
	}
	out := dst[:cap(dst)]
	if len(out) < int(size) {
		out = make([]byte, size)
	}
	out = out[:size]
	e := enginePool.Get().(*engine)
	err := s.readRange(e, out, start*ts)
	enginePool.Put(e)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readRange fills out with the data bytes from off on, which the caller
// has checked lie inside the super-chunk.
func (s *SChunk) readRange(e *engine, out []byte, off int64) error {
	for len(out) > 0 {
		i := s.chunkAt(off)
		start, size := s.chunkSpan(i)
		lo := int(off - start)
		hi := min(size, lo+len(out))
		part := out[:hi-lo]
		if f := s.file; f != nil && !(lo == 0 && hi == size) {
			coff, err := s.offsetAt(i)
			if err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			if coff >= 0 && coff < f.region && (coff < s.pendBase || !f.dirty) && !f.broken {
				end, exact, err := s.chunkEnd(i, coff)
				if err != nil {
					return fmt.Errorf("chunk %d: %w", i, err)
				}
				if ok, err := f.readPartial(e, part, coff, end, exact, lo, hi, size); ok {
					if err != nil {
						return fmt.Errorf("chunk %d: %w", i, err)
					}
					out = out[hi-lo:]
					off += int64(hi - lo)
					continue
				}
			}
		}
		c, kind, err := s.stored(i)
		if err != nil {
			return err
		}
		if c == nil {
			err = s.expandCoded(part, kind, lo)
		} else if lo == 0 && hi == size {
			err = s.decodeChunkInto(e, part, i, 1)
		} else {
			_, err = e.getBytesBlosc2(part[:0:len(part)], c, lo, hi)
			if err == nil && chunkNbytes(c) != size {
				err = fmt.Errorf("%w: chunk %d holds %d bytes, the frame says %d", ErrCorrupt, i, chunkNbytes(c), size)
			}
		}
		if err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
		out = out[hi-lo:]
		off += int64(hi - lo)
	}
	return nil
}

func chunkNbytes(c []byte) int { return int(int32(binary.LittleEndian.Uint32(c[4:]))) }

// Decompress returns all the data, decoding several chunks at once (up to
// Options.Threads) when there are enough of them; dst is reused when it
// has room.
func (s *SChunk) Decompress(dst []byte) ([]byte, error) {
	var v []byte
	err := s.readData(func() (err error) {
		v, err = s.decompress(dst)
		return err
	})
	return v, err
}

func (s *SChunk) decompress(dst []byte) ([]byte, error) {
	if s.hdr.nbytes > math.MaxInt {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, s.hdr.nbytes)
	}
	n := int(s.hdr.nbytes)
	out := dst[:cap(dst)]
	if len(out) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	threads := resolveThreads(s.opts.Threads)
	nc := s.offs.len()
	bypass := n >= bypassMinBytes
	if nc >= 2 && threads > 1 {
		j := jobPool.Get().(*chunkJob)
		j.s, j.out, j.err, j.bypass = s, out, nil, bypass
		runBlocks(&j.batch, decodeChunksTask{j}, nc, threads, &j.ws)
		err := j.err
		j.s, j.out, j.err, j.bypass = nil, nil, nil, false
		jobPool.Put(j)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	e := enginePool.Get().(*engine)
	e.bypass = bypass
	defer func() {
		e.bypass = false
		enginePool.Put(e)
	}()
	for i := 0; i < nc; i++ {
		start, size := s.chunkSpan(i)
		if err := s.decodeChunkInto(e, out[start:start+int64(size)], i, threads); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// chunkJob is the shared state of a call that works on many chunks at
// once through the block scheduler, one chunk per task.
type chunkJob struct {
	batch batch
	ws    workerState
	s     *SChunk
	out   []byte
	mu    sync.Mutex
	err   error
	// bypass: out is large enough to decode around the caches.
	bypass bool
}

func (j *chunkJob) setErr(err error) {
	j.mu.Lock()
	if j.err == nil {
		j.err = err
	}
	j.mu.Unlock()
}

var jobPool = sync.Pool{New: func() any { return new(chunkJob) }}

type decodeChunksTask struct{ j *chunkJob }

func (t decodeChunksTask) doBlock(_ *workerState, i int) {
	s := t.j.s
	start, size := s.chunkSpan(i)
	e := enginePool.Get().(*engine)
	e.bypass = t.j.bypass
	if err := s.decodeChunkInto(e, t.j.out[start:start+int64(size)], i, 1); err != nil {
		t.j.setErr(err)
	}
	e.bypass = false
	enginePool.Put(e)
}
