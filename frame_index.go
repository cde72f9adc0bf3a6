package blosc

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sync"
)

// lazyIndexMin is the raw size of an offsets index (8 bytes a chunk) above
// which a frame file reads it a block at a time rather than whole: below
// it the whole index takes no more memory than an open's own reads. It is
// a variable only so that tests can send small frames down the lazy path.
var lazyIndexMin int64 = probeLen

// lazyIndex is a frame file's offsets index read a block at a time, as
// offsets are asked for. c-blosc2 keeps a frame's whole index chunk in
// memory, and decoding it whole made opening a file cost some 40 bytes a
// chunk before the first read; here an open holds the index chunk's
// header and block starts and one decoded block (16 KiB, 2,048 offsets,
// as c-blosc2 writes the index) whatever the number of chunks. The first
// change of the frame reads the index whole (SChunk.loadIndex).
//
// Only what c-blosc2 writes for an index of that size takes this path: a
// compressed chunk of regular blocks without a dictionary or delta filter.
type lazyIndex struct {
	mu     sync.Mutex // reads of a frame may run at once (ReadAt, Decompress's threads)
	r      io.ReaderAt
	at     int64  // the index chunk's first byte in r
	c      chunk2 // header, codec, pipeline and block starts; c.src is unused
	sorted []int  // the block starts in order, for each block's end
	mem    []byte // the whole index chunk when the open read it, or nil
	cur    int    // the block decoded in vals; -1 for none
	vals   []byte
	comp   []byte // a block's compressed bytes, read from r
}

// newLazyIndex reads the index chunk whose first bytes are head (all of it
// when whole) at offset at of r, which has room bytes for it, for n
// offsets. It returns nil, nil when the chunk is not of the kind read
// lazily: the caller then reads it whole.
func newLazyIndex(r io.ReaderAt, at int64, head []byte, room int64, whole bool, n int) (*lazyIndex, error) {
	if len(head) < header2Len {
		return nil, fmt.Errorf("%w: an offsets index of %d bytes", ErrCorrupt, room)
	}
	raw := decodeHeader2(head)
	if raw.flags&flagsExtended != flagsExtended || raw.special() != specialNone || raw.memcpyed() ||
		raw.vlBlocks() || raw.useDict() || hasDelta(raw.filters) {
		return nil, nil
	}
	if int64(raw.cbytes) > room || raw.cbytes < header2Len {
		return nil, fmt.Errorf("%w: an offsets index of %d bytes in %d", ErrCorrupt, raw.cbytes, room)
	}
	if raw.nbytes != 8*n {
		return nil, fmt.Errorf("%w: the offsets index lists %d chunks, the header's sizes make %d", ErrCorrupt, raw.nbytes/8, n)
	}
	// The header's own checks, on a copy that claims only the bytes here.
	probe := slices.Clone(head[:header2Len])
	binary.LittleEndian.PutUint32(probe[12:], header2Len)
	h, err := parseHeader2(probe)
	if err != nil {
		return nil, frameChunkErr("offsets index", err)
	}
	h.cbytes = raw.cbytes
	x := &lazyIndex{r: r, at: at, cur: -1}
	c := &x.c
	c.h = h
	c.pipe = pipeline2{filters: h.filters, meta: h.filterMeta, typesize: int(h.typesize)}
	if c.codec, err = h.codec(); err != nil {
		return nil, frameChunkErr("offsets index", err)
	}
	c.nblocks, c.last = h.nblocks()
	c.maxBlk = h.blocksize
	dataStart := int64(header2Len) + 4*int64(c.nblocks)
	if dataStart >= int64(h.cbytes) {
		return nil, fmt.Errorf("%w: %d block offsets do not fit in a %d-byte offsets index", ErrCorrupt, c.nblocks, h.cbytes)
	}
	if int64(len(head)) >= dataStart {
		c.bstarts = slices.Clone(head[header2Len:dataStart])
	} else {
		c.bstarts = make([]byte, dataStart-header2Len)
		if err := readFull(r, c.bstarts, at+header2Len); err != nil {
			return nil, err
		}
	}
	x.sorted = make([]int, c.nblocks)
	for i := range x.sorted {
		bs := c.bstart(i)
		if bs < int(dataStart) || bs >= h.cbytes {
			return nil, fmt.Errorf("%w: offsets index block %d starts at %d, outside [%d, %d)", ErrCorrupt, i, bs, dataStart, h.cbytes)
		}
		x.sorted[i] = bs
	}
	slices.Sort(x.sorted)
	if whole {
		x.mem = slices.Clone(head[:h.cbytes])
	}
	return x, nil
}

// get returns offset i, decoding its block first unless it is the one held.
func (x *lazyIndex) get(i int) (int64, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	b := 8 * i / x.c.h.blocksize
	if b != x.cur {
		if err := x.load(b); err != nil {
			return 0, fmt.Errorf("offsets index: %w", err)
		}
	}
	k := 8*i - b*x.c.h.blocksize
	return int64(binary.LittleEndian.Uint64(x.vals[k:])), nil
}

// load decodes block b, reading its compressed bytes when the chunk is
// not in memory.
func (x *lazyIndex) load(b int) error {
	c := &x.c
	x.cur = -1
	nstreams, neblock, err := c.streams(b)
	if err != nil {
		return err
	}
	start := c.bstart(b)
	end := c.h.cbytes
	if k, _ := slices.BinarySearch(x.sorted, start+1); k < len(x.sorted) {
		end = x.sorted[k]
	}
	// No stream is longer than its bytes plus their length: more is not
	// this block's.
	end = min(end, start+nstreams*(neblock+4))
	var src []byte
	if x.mem != nil {
		src = x.mem[start:end]
	} else {
		x.comp = grow(x.comp, end-start)
		if err := readFull(x.r, x.comp, x.at+int64(start)); err != nil {
			return err
		}
		src = x.comp
	}
	x.vals = grow(x.vals, c.h.blocksize)
	e := enginePool.Get().(*engine)
	err = c.decodeBlockFrom(x.vals[:c.blockSize(b)], nil, b, src, &e.ws.b2, &e.ws)
	enginePool.Put(e)
	if err != nil {
		return err
	}
	x.cur = b
	return nil
}

// whole returns the index chunk's bytes.
func (x *lazyIndex) whole() ([]byte, error) {
	if x.mem != nil {
		return x.mem, nil
	}
	b := make([]byte, x.c.h.cbytes)
	if err := readFull(x.r, b, x.at); err != nil {
		return nil, err
	}
	return b, nil
}

// offsetAt returns chunk i's offset (i in range).
func (s *SChunk) offsetAt(i int) (int64, error) {
	if x := s.offs.lazy; x != nil {
		return x.get(i)
	}
	return s.offs.get(i), nil
}

// loadIndex reads a lazily read index whole, as a change needs it.
func (s *SChunk) loadIndex() error {
	x := s.offs.lazy
	if x == nil {
		return nil
	}
	idx, err := x.whole()
	if err != nil {
		return err
	}
	s.offs = offsetIndex{}
	if err := s.readIndex(idx); err != nil {
		s.offs = offsetIndex{lazy: x, n: x.c.h.nbytes / 8}
		return err
	}
	return nil
}

// chunkEnd returns where the bytes of committed chunk i, at region offset
// off, end at the latest: the next chunk's start by the sorted starts of
// an index read whole. With a lazy index it is a guess, the next chunk's
// offset when it lies after off (as in a frame appended to in order) and
// otherwise the end of the chunk bytes, at most a chunk's largest size
// away; a chunk that turns out longer is read again (readChunk).
func (s *SChunk) chunkEnd(i int, off int64) (end int64, exact bool, err error) {
	f := s.file
	if s.offs.lazy == nil {
		return f.extent(off), true, nil
	}
	end = min(f.region, off+int64(s.hdr.chunksize)+maxChunkOverhead)
	if i+1 < s.offs.len() {
		next, err := s.offsetAt(i + 1)
		if err != nil {
			return 0, false, err
		}
		if next > off && next < end {
			end = next
		}
	}
	return end, false, nil
}

// maxChunkOverhead bounds what a chunk of the frame's chunk size takes
// beyond its data in the usual case: the header, the block starts of a
// few blocks and their streams' lengths. A larger chunk costs a second
// read, not an error.
const maxChunkOverhead = 4 << 10
