package blosc

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
)

// DefaultChunkSize is the chunk size of a super-chunk whose options leave
// it at 0 (rounded down to whole elements). A 1 MiB chunk fits the 1-2 MiB
// L2 cache of one core of current x86-64 and arm64 servers, so its blocks
// are shuffled and coded while they are cache-resident, and a 64 MiB input
// still makes 64 chunks to spread over the workers; c-blosc2 and
// python-blosc2 likewise size chunks from the cache sizes.
const DefaultChunkSize = 1 << 20

// SChunkOptions configure a new super-chunk.
type SChunkOptions struct {
	// Options are the Blosc2 chunk options every chunk is compressed with
	// (Format is ignored: frames hold Blosc2 chunks). Threads is also the
	// number of chunks worked on at once.
	Options
	// ChunkSize is the size in bytes of every chunk AppendData writes
	// but the last, a multiple of Typesize. 0 takes the size of the first
	// chunk appended, or DefaultChunkSize for data.
	ChunkSize int
}

// ChunkInfo describes one chunk of a super-chunk.
type ChunkInfo struct {
	Index   int     `json:"index"`
	Nbytes  int     `json:"nbytes"`
	Cbytes  int     `json:"cbytes"`
	Special Special `json:"special"`
}

// SChunk is a Blosc2 super-chunk held as a contiguous frame: a sequence of
// Blosc2 chunks of one chunk size (the last may be shorter), with
// fixed-size and variable-length metalayers. It is laid out in memory as
// c-blosc2 lays out an in-memory contiguous frame (the chunk bytes in the
// order they were written, an offsets index, the metalayers), and its
// changes follow c-blosc2's, so that Frame returns the bytes c-blosc2
// writes for the same data and operations.
//
// Reads (Chunk, DecompressChunk, ReadAt, GetItems, Decompress, the
// metalayer getters) may run concurrently with each other; a change must
// not run concurrently with anything else.
type SChunk struct {
	opts      Options
	params    params
	chunkSize int // for AppendData; 0 until known

	hdr frameHeader // header fields kept as read or as they will be written

	// region holds the chunk bytes from region offset pendBase on: all of
	// them for a frame in memory (pendBase 0); for a frame in a file, the
	// chunks written by the change in progress, after the file's bytes.
	region      []byte
	regionOwned bool // region's array may be written in place
	pendBase    int64
	file        *frameFile // the frame's file, nil for a frame in memory
	sparse      *sparseDir // the sparse frame's directory, or nil
	txDepth     int        // nesting of the public changes in progress
	offs        offsetIndex
	offsChunk   []byte // the offsets chunk as read, while the index is unchanged
	// offsSlack is how much larger than the index plus a header the
	// destination was when c-blosc2 last compressed it: after a delete it
	// passes the old index's size, which changes when the chunk falls back
	// to a copy.
	offsSlack int
	varStarts []int64

	vlmeta []metalayer

	// noCompress says why data cannot be compressed with the header's
	// settings (a frame read with a codec this package lacks).
	noCompress error

	// app is the state of a parallel AppendData (its ring of compressed
	// chunks' slots above all), kept for the next.
	app *appendJob
}

// offsetIndex holds each chunk's offset into the region, or a special
// value (bit 63 set) for a chunk stored only in the index. A frame made by
// c-blosc2's fill_special stores one repeated offset for millions of
// chunks: rep keeps that form until a change needs the list.
type offsetIndex struct {
	vals   []int64
	rep    bool
	repVal int64
	n      int
	lazy   *lazyIndex // a frame file's index read as used, until a change
}

func (o *offsetIndex) len() int { return o.n }

// get returns offset i of an index held whole (never lazy: the read paths
// use SChunk.offsetAt, the changes read the index whole first).
func (o *offsetIndex) get(i int) int64 {
	if o.lazy != nil {
		panic("blosc: internal error: offsetIndex.get on a lazily read index")
	}
	if o.rep {
		return o.repVal
	}
	return o.vals[i]
}

func (o *offsetIndex) materialize() {
	if !o.rep {
		return
	}
	o.vals = make([]int64, o.n)
	for i := range o.vals {
		o.vals[i] = o.repVal
	}
	o.rep = false
}

const (
	offsetSpecialBit = -1 << 63
	// The special kind sits in bits 56-58 of an offset with bit 63 set.
	offsetKindShift = 56
)

func specialOffset(kind int) int64 { return offsetSpecialBit | int64(kind)<<offsetKindShift }

// offsetKind returns the special kind coded in a negative offset, or an
// error for a value c-blosc2 does not write.
func offsetKind(off int64) (int, error) {
	kind := int(uint64(off) >> offsetKindShift & 0x7f)
	if off != specialOffset(kind) {
		return 0, fmt.Errorf("%w: chunk offset %#x", ErrCorrupt, uint64(off))
	}
	switch kind {
	case specialZero, specialNaN, specialUninit:
		return kind, nil
	}
	return 0, fmt.Errorf("%w: chunk offset %#x codes special kind %d", ErrCorrupt, uint64(off), kind)
}

// NewSChunk returns an empty super-chunk.
func NewSChunk(opts SChunkOptions) (*SChunk, error) {
	o := opts.Options
	o.Format = FormatBlosc2
	p, err := o.params()
	if err != nil {
		return nil, err
	}
	if o.Codec == Snappy {
		return nil, fmt.Errorf("%w: Blosc2 frames have no Snappy codec", ErrInvalidOptions)
	}
	ts := p.typesize
	if opts.ChunkSize < 0 || opts.ChunkSize > MaxBufferSize || opts.ChunkSize%ts != 0 {
		return nil, fmt.Errorf("%w: chunk size %d (a multiple of typesize %d up to %d)", ErrInvalidOptions, opts.ChunkSize, ts, MaxBufferSize)
	}
	s := &SChunk{opts: o, params: p, chunkSize: opts.ChunkSize, regionOwned: true}
	h := &s.hdr
	h.generalFlags = frameOffsets64 | frameFormatRC1
	h.codecFlags = uint8(o.Codec) | uint8(o.Level)<<4
	if o.Codec >= firstPluginID {
		// c-blosc2 records a plugin codec as the user-codec format here
		// and its id in the udcodec byte.
		h.codecFlags = formatUser | uint8(o.Level)<<4
	}
	h.codecMeta = o.CodecMeta
	split := o.SplitMode
	if split == SplitDefault {
		split = SplitForwardCompat
	}
	h.otherFlags = uint8(split) - 1
	h.typesize = int32(ts)
	h.blocksize = int32(o.Blocksize)
	h.chunksize = -1
	// c-blosc2 records its contexts' thread counts; 1 keeps the frame's
	// bytes the same whatever Threads is.
	h.tcomp, h.tdecomp = 1, 1
	h.nfilters = MaxFilters
	for i := range o.Filters {
		h.filters[i] = uint8(o.Filters[i])
		h.filterMeta[i] = o.FilterMeta[i]
	}
	h.udcodec = uint8(o.Codec)
	if o.Dict {
		h.otherFlags2 = frameUseDict
	}
	return s, nil
}

// Nchunks returns the number of chunks.
func (s *SChunk) Nchunks() int { return s.offs.len() }

// Nbytes returns the uncompressed size of all chunks.
func (s *SChunk) Nbytes() int64 { return s.hdr.nbytes }

// Cbytes returns the bytes of chunk data the frame holds, including bytes
// left unreferenced by updates and deletes, as c-blosc2 counts them.
func (s *SChunk) Cbytes() int64 { return s.regionLen() }

// regionLen is the length of the chunk bytes, the header's cbytes.
func (s *SChunk) regionLen() int64 {
	if s.sparse != nil {
		return s.sparse.cbytes
	}
	if s.file != nil && !s.file.dirty {
		return s.file.region
	}
	return s.pendBase + int64(len(s.region))
}

// Typesize returns the element size.
func (s *SChunk) Typesize() int { return int(s.hdr.typesize) }

// ChunkSize returns the chunk size: the frame header's (-1 before the
// first chunk, 0 for frames of variable-size chunks c-blosc2 wrote).
func (s *SChunk) ChunkSize() int { return int(s.hdr.chunksize) }

// Options returns the chunk options changes compress with.
func (s *SChunk) Options() Options { return s.opts }

// fixed reports whether every chunk but the last holds ChunkSize bytes.
func (s *SChunk) fixed() bool { return s.hdr.chunksize > 0 }

// chunkSpan returns the first byte of chunk i's data and its size.
func (s *SChunk) chunkSpan(i int) (int64, int) {
	if !s.fixed() {
		return s.varStarts[i], int(s.varStarts[i+1] - s.varStarts[i])
	}
	cs := int64(s.hdr.chunksize)
	start := int64(i) * cs
	return start, int(min(cs, s.hdr.nbytes-start))
}

// chunkAt returns the index of the chunk holding data byte off.
func (s *SChunk) chunkAt(off int64) int {
	if s.fixed() {
		return int(off / int64(s.hdr.chunksize))
	}
	lo, hi := 0, len(s.varStarts)-1
	for lo+1 < hi {
		m := (lo + hi) / 2
		if s.varStarts[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

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

// checkChunk validates a ready-made chunk for position i: a valid Blosc2
// chunk of the super-chunk's typesize whose size fits the chunk size, and
// of the same block kind as the others. last says whether it will be the
// last chunk. It returns the chunk cut to its cbytes.
func (s *SChunk) checkChunk(chunk []byte, i int, last bool, replacing bool) ([]byte, error) {
	h, err := ReadHeader(chunk)
	if err != nil {
		return nil, err
	}
	if h.Format != FormatBlosc2 {
		return nil, fmt.Errorf("%w: a frame holds Blosc2 chunks, not a Blosc1 chunk", ErrInvalidOptions)
	}
	if h.Typesize != int(s.hdr.typesize) {
		return nil, fmt.Errorf("%w: chunk of typesize %d in a super-chunk of typesize %d", ErrInvalidOptions, h.Typesize, s.hdr.typesize)
	}
	if !s.fixed() && s.hdr.chunksize == 0 {
		return nil, fmt.Errorf("%w: changing a frame of variable-size chunks", ErrUnsupported)
	}
	cs := s.chunkSize
	if s.hdr.chunksize > 0 {
		cs = int(s.hdr.chunksize)
	}
	if h.Nbytes == 0 {
		return nil, fmt.Errorf("%w: an empty chunk has no place in a frame of fixed chunk size", ErrInvalidOptions)
	}
	if cs > 0 {
		if h.Nbytes > cs {
			return nil, fmt.Errorf("%w: chunk of %d bytes in a super-chunk of chunk size %d", ErrInvalidOptions, h.Nbytes, cs)
		}
		if h.Nbytes < cs && !last {
			return nil, fmt.Errorf("%w: chunk of %d bytes, short of the chunk size %d, can only be the last chunk", ErrInvalidOptions, h.Nbytes, cs)
		}
	}
	n := s.offs.len()
	others := n
	if replacing {
		others--
	}
	if others > 0 && h.VarBlocks != s.hdr.vlBlocks() {
		return nil, fmt.Errorf("%w: a frame cannot mix variable-length-block chunks with regular ones", ErrInvalidOptions)
	}
	// The chunk that stops being the last must be full.
	if !replacing && i == n && n > 0 {
		if _, size := s.chunkSpan(n - 1); size < cs {
			return nil, fmt.Errorf("%w: the last chunk holds %d bytes, short of the chunk size %d; AppendData refills it", ErrInvalidOptions, size, cs)
		}
	}
	return chunk[:h.Cbytes:h.Cbytes], nil
}

// adopt takes a chunk's size and block kind as the super-chunk's when it is
// the first.
func (s *SChunk) adopt(chunk []byte, nbytes int) {
	if s.hdr.chunksize == -1 {
		cs := s.chunkSize
		if cs == 0 {
			cs = nbytes
			s.chunkSize = cs
		}
		s.hdr.chunksize = int32(cs)
	}
	if s.offs.len() == 0 {
		vl := chunk[30]&flags2VLBlocks != 0
		s.hdr.generalFlags = frameOffsets64 | frameFormatRC1
		if vl {
			s.hdr.generalFlags = frameOffsets64 | frameFormatVLBlocks | frameVLBlocksFlag
		}
	}
}

// own makes the region writable in place: a frame read from a caller's
// buffer shares it until the first change, which copies it (with room for
// extra more bytes).
func (s *SChunk) own(extra int) {
	if s.regionOwned {
		return
	}
	r := make([]byte, len(s.region), len(s.region)+extra)
	copy(r, s.region)
	s.region, s.regionOwned = r, true
}

// reserve makes room for n more bytes of chunks, doubling the region's
// capacity when it grows (append's growth of large slices, 1.25x, would
// copy a frame built chunk by chunk several times over).
func (s *SChunk) reserve(n int) { s.grow(n, cap(s.region)) }

// grow makes room for n more bytes of chunks, growing the region's
// capacity by at least by when it grows.
func (s *SChunk) grow(n, by int) {
	s.own(n)
	if cap(s.region)-len(s.region) >= n {
		return
	}
	r := make([]byte, len(s.region), max(cap(s.region)+by, len(s.region)+n))
	copy(r, s.region)
	s.region = r
}

func (s *SChunk) changed() {
	s.offsChunk = nil
	s.offsSlack = 0
}

// codedKind returns the special kind a chunk is stored as in the offsets
// index (zeros, NaN, uninitialised), or 0 if its bytes are stored.
func codedKind(chunk []byte) int {
	switch k := int(chunk[31]>>b2SpecialShift) & b2SpecialMask; k {
	case specialZero, specialNaN, specialUninit:
		return k
	}
	return 0
}

// AppendChunk appends a ready-made Blosc2 chunk (copied).
func (s *SChunk) AppendChunk(chunk []byte) (err error) {
	defer s.change(&err)()
	return s.InsertChunk(s.offs.len(), chunk)
}

// InsertChunk inserts a ready-made Blosc2 chunk (copied) before chunk i;
// i == NChunks appends. Its bytes go after all others, as c-blosc2 does.
func (s *SChunk) InsertChunk(i int, chunk []byte) (err error) {
	defer s.change(&err)()
	if i < 0 || i > s.offs.len() {
		return fmt.Errorf("%w: insert at %d of %d chunks", ErrRange, i, s.offs.len())
	}
	c, err := s.checkChunk(chunk, i, i == s.offs.len(), false)
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	n := chunkNbytes(c)
	s.adopt(c, n)
	s.offs.materialize()
	off := s.pendBase + int64(len(s.region))
	if k := codedKind(c); k != 0 {
		off = specialOffset(k)
	} else if s.sparse != nil {
		if off, err = s.sparse.writeChunk(c); err != nil {
			return err
		}
	} else if tail := s.region[len(s.region):cap(s.region)]; s.regionOwned && len(tail) >= len(c) && &tail[0] == &c[0] {
		// AppendData compressed the chunk in place, after the others.
		s.region = s.region[:len(s.region)+len(c)]
	} else {
		s.reserve(len(c))
		s.region = append(s.region, c...)
	}
	s.offs.vals = append(s.offs.vals, 0)
	copy(s.offs.vals[i+1:], s.offs.vals[i:])
	s.offs.vals[i] = off
	s.offs.n++
	s.hdr.nbytes += int64(n)
	s.changed()
	return nil
}

// UpdateChunk replaces chunk i with a ready-made Blosc2 chunk (copied). As
// c-blosc2 does, the new bytes take the old chunk's place and the chunks
// stored after it move by the difference.
func (s *SChunk) UpdateChunk(i int, chunk []byte) (err error) {
	defer s.change(&err)()
	if err := s.checkIndex(i); err != nil {
		return err
	}
	c, err := s.checkChunk(chunk, i, i == s.offs.len()-1, true)
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	_, oldN := s.chunkSpan(i)
	s.adopt(c, chunkNbytes(c))
	s.offs.materialize()
	old := s.offs.vals[i]
	kind := codedKind(c)
	newLen := len(c)
	if kind != 0 {
		newLen = 0
	}
	if s.sparse != nil {
		// A new chunk file; the old one goes once the index no longer
		// names it.
		if old >= 0 {
			s.sparse.drop(old)
		}
		s.offs.vals[i] = specialOffset(kind)
		if kind == 0 {
			id, err := s.sparse.writeChunk(c)
			if err != nil {
				return err
			}
			s.offs.vals[i] = id
		}
	} else if old >= 0 && s.file == nil {
		oldLen := int(int32(binary.LittleEndian.Uint32(s.region[old+12:])))
		delta := newLen - oldLen
		s.own(max(delta, 0))
		tail := len(s.region) - int(old) - oldLen
		if delta > 0 {
			s.region = append(s.region, make([]byte, delta)...)
		}
		copy(s.region[int(old)+newLen:], s.region[int(old)+oldLen:int(old)+oldLen+tail])
		s.region = s.region[:len(s.region)+min(delta, 0)]
		for j, o := range s.offs.vals {
			if j != i && o > old {
				s.offs.vals[j] = o + int64(delta)
			}
		}
		if kind == 0 {
			copy(s.region[old:], c)
			s.offs.vals[i] = old
		} else {
			s.offs.vals[i] = specialOffset(kind)
		}
	} else if kind == 0 {
		// A frame in a file never moves committed bytes: the new chunk
		// goes after the others and the old one stays unreferenced.
		s.reserve(len(c))
		s.offs.vals[i] = s.pendBase + int64(len(s.region))
		s.region = append(s.region, c...)
	} else {
		s.offs.vals[i] = specialOffset(kind)
	}
	s.hdr.nbytes += int64(chunkNbytes(c) - oldN)
	s.changed()
	return nil
}

// DeleteChunk removes chunk i. Its bytes stay in the frame, unreferenced,
// as c-blosc2 leaves them.
func (s *SChunk) DeleteChunk(i int) (err error) {
	defer s.change(&err)()
	if err := s.checkIndex(i); err != nil {
		return err
	}
	if !s.fixed() {
		return fmt.Errorf("%w: changing a frame of variable-size chunks", ErrUnsupported)
	}
	_, n := s.chunkSpan(i)
	if i < s.offs.len()-1 && n < int(s.hdr.chunksize) {
		return fmt.Errorf("%w: chunk %d is short but not last", ErrCorrupt, i)
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.offs.materialize()
	if s.sparse != nil && s.offs.vals[i] >= 0 {
		s.sparse.drop(s.offs.vals[i])
	}
	s.offs.vals = append(s.offs.vals[:i], s.offs.vals[i+1:]...)
	s.offs.n--
	s.hdr.nbytes -= int64(n)
	s.changed()
	s.offsSlack = 8
	return nil
}

// AppendData appends p, compressed into chunks of the chunk size. A short
// last chunk is first refilled (decoded, extended and compressed again),
// so every chunk but the last holds exactly the chunk size. Chunks are
// compressed several at once (Options.Threads); the frame is the same
// whatever the thread count.
func (s *SChunk) AppendData(p []byte) (err error) {
	defer s.change(&err)()
	if len(p) == 0 {
		return nil
	}
	if s.hdr.chunksize == 0 {
		return fmt.Errorf("%w: appending to a frame of variable-size chunks", ErrUnsupported)
	}
	if s.noCompress != nil {
		return s.noCompress
	}
	cs := s.chunkSize
	if s.hdr.chunksize > 0 {
		cs = int(s.hdr.chunksize)
	}
	if cs == 0 {
		cs = max(DefaultChunkSize/int(s.hdr.typesize)*int(s.hdr.typesize), int(s.hdr.typesize))
		s.chunkSize = cs
	}
	if n := s.offs.len(); n > 0 {
		if _, size := s.chunkSpan(n - 1); size < cs {
			take := min(cs-size, len(p))
			buf := make([]byte, size+take)
			if _, err := s.DecompressChunk(buf[:size], n-1); err != nil {
				return err
			}
			copy(buf[size:], p[:take])
			c, err := s.compressOne(buf)
			if err != nil {
				return err
			}
			if err := s.UpdateChunk(n-1, c); err != nil {
				return err
			}
			p = p[take:]
		}
	}
	threads := resolveThreads(s.opts.Threads)
	startRegion, startLen := s.regionLen(), len(p)
	// room makes room for need more bytes of chunks, done bytes of p
	// compressed. Once 1 MiB is compressed it makes room for the rest too, at the
	// ratio seen so far and an eighth more: the region then grows about
	// once, where doubling it would copy and clear it again and again (a
	// sixth of the time of compressing 256 MiB of noisy floats into 64 KiB
	// chunks), and a ratio that drifts grows it by a quarter or more at a
	// time. Before that it doubles: the first 64 or 128 KiB of a ramp
	// compress at half the ratio of the rest, and reserved twice the room
	// it needed.
	room := func(need, done int) {
		if cap(s.region)-len(s.region) >= need {
			s.own(need)
			return
		}
		if done < 1<<20 {
			s.grow(need, cap(s.region))
			return
		}
		made := s.regionLen() - startRegion
		left := startLen - done
		est := min(int64(left)*made/int64(done), int64(CompressBound(left)))
		s.grow(need+int(est+est/8), cap(s.region)/4)
	}
	if threads > 1 && len(p) > cs {
		return s.appendParallel(p, cs, threads, room)
	}
	for len(p) > 0 {
		// Compress straight into the frame's chunk bytes.
		k := min(cs, len(p))
		if err := s.touch(); err != nil {
			return err
		}
		room(CompressBound(k), startLen-len(p))
		e := enginePool.Get().(*engine)
		c, err := e.compress(s.region[len(s.region):], p[:k], &s.params)
		enginePool.Put(e)
		if err != nil {
			return err
		}
		if err := s.AppendChunk(c); err != nil {
			return err
		}
		p = p[k:]
	}
	return nil
}

// appendJob is AppendData's work on several threads, a pipeline with no
// barrier: the workers of the block scheduler take the chunks of the input
// in order, compress chunk i into slot i%len(slot) of a ring, and whoever
// finishes the chunk next in line appends it, and every finished chunk
// after it, to the super-chunk (copied to the region's end, where
// InsertChunk finds it in place), while the others go on compressing. A
// worker waits only when its slot still holds a chunk not yet appended.
//
// It replaced groups of a few chunks a thread that met at a barrier, were
// copied to the region at a second one and appended one by one by the
// caller: the threads idled at each barrier (BenchmarkFrame in
// frame_bench_test.go, linspace_f64 into 64 KiB chunks at two threads,
// shows the difference).
type appendJob struct {
	batch batch
	ws    workerState
	s     *SChunk
	p     params
	src   []byte
	cs    int
	slot  [][]byte // compressed chunk in each slot of the ring
	room  func(need, done int)
	mu    sync.Mutex
	free  sync.Cond // signalled (mu) when chunks are appended and their slots free
	ready []bool    // slot holds a compressed chunk not yet appended (mu)
	next  int       // chunks before next are appended (mu)
	busy  bool      // a worker is appending (mu)
	waits int       // workers waiting for a slot (mu)
	err   error     // the first error; the work stops (mu)
}

func (s *SChunk) appendParallel(p []byte, cs, threads int, room func(need, done int)) error {
	if err := s.touch(); err != nil {
		return err
	}
	// A few chunks a thread in the ring, enough small ones that a
	// worker rarely finds its slot still taken (1 MiB a thread of 64
	// KiB chunks).
	n := (len(p) + cs - 1) / cs
	slots := min(n, threads*max(2, min(16, (1<<20)/cs)))
	if s.app == nil {
		s.app = new(appendJob)
		s.app.free.L = &s.app.mu
	}
	j := s.app
	j.s, j.p, j.src, j.cs, j.room = s, s.params, p, cs, room
	j.p.threads = 1 // the chunks are the parallel work
	j.next, j.busy, j.waits, j.err = 0, false, 0, nil
	if cap(j.slot) < slots {
		j.slot = append(j.slot[:cap(j.slot)], make([][]byte, slots-cap(j.slot))...)
	}
	if cap(j.ready) < slots {
		j.ready = make([]bool, slots)
	}
	j.slot, j.ready = j.slot[:slots], j.ready[:slots]
	clear(j.ready)
	for i := range j.slot {
		if cap(j.slot[i]) < CompressBound(cs) {
			j.slot[i] = make([]byte, 0, CompressBound(cs))
		}
	}
	runBlocks(&j.batch, j, n, threads, &j.ws)
	err := j.err
	j.src, j.room, j.err = nil, nil, nil
	return err
}

func (j *appendJob) doBlock(_ *workerState, i int) {
	k := i % len(j.slot)
	j.mu.Lock()
	for j.err == nil && j.next <= i-len(j.slot) {
		j.waits++
		j.free.Wait()
		j.waits--
	}
	failed := j.err != nil
	j.mu.Unlock()
	if failed {
		return
	}
	e := enginePool.Get().(*engine)
	c, err := e.compress(j.slot[k][:0], j.src[i*j.cs:min(i*j.cs+j.cs, len(j.src))], &j.p)
	enginePool.Put(e)
	j.mu.Lock()
	defer j.mu.Unlock()
	if err != nil {
		j.stop(err)
		return
	}
	j.slot[k], j.ready[k] = c, true
	if j.busy {
		return // the worker appending takes this one too when its turn comes
	}
	j.busy = true
	for j.err == nil && j.ready[j.next%len(j.slot)] {
		k := j.next % len(j.slot)
		// Append outside the lock: busy keeps other workers from
		// appending, and the others may record chunks meanwhile.
		j.mu.Unlock()
		err := j.append(j.slot[k], j.next)
		j.mu.Lock()
		if err != nil {
			j.stop(err)
			break
		}
		j.ready[k] = false
		j.next++
		if j.waits > 0 {
			j.free.Broadcast()
		}
	}
	j.busy = false
}

// stop records the first error and wakes the waiting workers, which then
// give up (mu held).
func (j *appendJob) stop(err error) {
	if j.err == nil {
		j.err = err
	}
	j.free.Broadcast()
}

// append appends chunk i, c, to the super-chunk: copied to the region's
// end unless the offsets index codes it or the frame is sparse.
func (j *appendJob) append(c []byte, i int) error {
	s := j.s
	if codedKind(c) == 0 && s.sparse == nil {
		j.room(len(c), i*j.cs)
		to := s.region[len(s.region) : len(s.region)+len(c)]
		copy(to, c)
		c = to
	}
	return s.AppendChunk(c)
}

func (s *SChunk) compressOne(src []byte) ([]byte, error) {
	e := enginePool.Get().(*engine)
	defer enginePool.Put(e)
	return e.compress(nil, src, &s.params)
}

// AppendSpecial appends nitems items of a special value, as chunks that
// store no blocks: kind SpecialZeros, SpecialNaN (typesize 4 or 8) or
// SpecialUninit, which the offsets index codes, or SpecialValue with value
// (Typesize bytes) repeated, which stores one element per chunk. On an
// empty super-chunk zeros, NaN and uninitialised runs are written as
// blosc2_schunk_fill_special writes them: one repeated offset for all
// chunks, whatever their number.
func (s *SChunk) AppendSpecial(kind Special, nitems int64, value []byte) (err error) {
	defer s.change(&err)()
	ts := int64(s.hdr.typesize)
	if nitems < 0 || nitems > math.MaxInt64/ts {
		return fmt.Errorf("%w: %d items", ErrInvalidOptions, nitems)
	}
	switch kind {
	case SpecialZeros, SpecialUninit:
	case SpecialNaN:
		if ts != 4 && ts != 8 {
			return fmt.Errorf("%w: NaN chunks need typesize 4 or 8, not %d", ErrInvalidOptions, ts)
		}
	case SpecialValue:
		if int64(len(value)) != ts {
			return fmt.Errorf("%w: a repeated value of %d bytes for typesize %d", ErrInvalidOptions, len(value), ts)
		}
	default:
		return fmt.Errorf("%w: special kind %v", ErrInvalidOptions, kind)
	}
	if nitems == 0 {
		return nil
	}
	if s.hdr.chunksize == 0 {
		return fmt.Errorf("%w: appending to a frame of variable-size chunks", ErrUnsupported)
	}
	cs := int64(s.chunkSize)
	if s.hdr.chunksize > 0 {
		cs = int64(s.hdr.chunksize)
	}
	if cs == 0 {
		cs = max(DefaultChunkSize/ts*ts, ts)
	}
	total := nitems * ts
	nfull, rest := total/cs, total%cs
	nchunks := nfull
	if rest > 0 {
		nchunks++
	}
	if int64(s.offs.len())+nchunks > maxFrameChunks {
		return fmt.Errorf("%w: %d chunks, a frame's offsets index holds %d", ErrTooLarge, int64(s.offs.len())+nchunks, maxFrameChunks)
	}
	if kind != SpecialValue && s.offs.len() == 0 && s.regionLen() == 0 && s.hdr.chunksize == -1 {
		if err := s.touch(); err != nil {
			return err
		}
		// c-blosc2's fast path: the index is one repeated offset, and
		// the header records the block size a chunk of this size gets.
		s.chunkSize = int(cs)
		s.hdr.chunksize = int32(cs)
		s.hdr.nbytes = total
		s.hdr.blocksize = int32(blocksize2(int(cs), int(ts), s.params.clevel, s.params.codec, s.params.filters, s.params.split, s.params.blocksize))
		s.offs = offsetIndex{rep: true, repVal: specialOffset(int(kind)), n: int(nchunks)}
		s.changed()
		return nil
	}
	// Refill a short last chunk with the value. Special chunks hold whole
	// elements from the pattern's start, so once the refill leaves the run
	// out of phase (a short chunk not ending on an element) it goes on as
	// compressed data, one chunk at a time.
	phase := int64(0)
	if n := s.offs.len(); n > 0 {
		if _, size := s.chunkSpan(n - 1); int64(size) < cs {
			take := min(cs-int64(size), total)
			buf := make([]byte, take)
			s.fillValue(buf, kind, value, 0)
			if err := s.AppendData(buf); err != nil {
				return err
			}
			total -= take
			phase = take % ts
		}
	}
	if phase != 0 {
		buf := make([]byte, min(cs, total))
		for total > 0 {
			k := min(cs, total)
			s.fillValue(buf[:k], kind, value, phase)
			if err := s.AppendData(buf[:k]); err != nil {
				return err
			}
			total -= k
		}
		return nil
	}
	var full, short []byte
	mk := func(n int) ([]byte, error) {
		switch kind {
		case SpecialZeros:
			return ZerosChunk(nil, n, int(ts))
		case SpecialNaN:
			return NaNChunk(nil, n, int(ts))
		case SpecialUninit:
			return UninitChunk(nil, n, int(ts))
		}
		return ValueChunk(nil, n, value)
	}
	if full, err = mk(int(cs)); err != nil {
		return err
	}
	for ; total >= cs; total -= cs {
		if err := s.AppendChunk(full); err != nil {
			return err
		}
	}
	if total > 0 {
		if short, err = mk(int(total)); err != nil {
			return err
		}
		return s.AppendChunk(short)
	}
	return nil
}

// fillValue writes into buf the bytes of a special run from its byte lo.
func (s *SChunk) fillValue(buf []byte, kind Special, value []byte, lo int64) {
	h := header2{typesize: uint8(s.hdr.typesize), b2flags: uint8(kind) << b2SpecialShift, cbytes: header2Len + len(value)}
	src := append(make([]byte, header2Len), value...)
	_ = expandSpecialAt(buf, &h, src, int(lo%s.typesize64()))
}

// typesize64 is Typesize as an int64.
func (s *SChunk) typesize64() int64 { return int64(s.hdr.typesize) }

// maxFrameChunks is the most chunks an offsets index (a chunk of int64s)
// can list.
const maxFrameChunks = MaxBufferSize / 8

// Metalayer returns the content of the fixed-size metalayer name.
func (s *SChunk) Metalayer(name string) ([]byte, error) {
	for _, m := range s.hdr.meta {
		if m.name == name {
			return append([]byte(nil), m.content...), nil
		}
	}
	return nil, fmt.Errorf("%w: metalayer %q", ErrNotFound, name)
}

// MetalayerNames lists the fixed-size metalayers in frame order.
func (s *SChunk) MetalayerNames() []string {
	names := make([]string, len(s.hdr.meta))
	for i, m := range s.hdr.meta {
		names[i] = m.name
	}
	return names
}

func checkMetaName(name string) error {
	if name == "" || len(name) > MaxMetalayerName {
		return fmt.Errorf("%w: metalayer name %q (1 to %d bytes)", ErrInvalidOptions, name, MaxMetalayerName)
	}
	return nil
}

// AddMetalayer adds a fixed-size metalayer. As in c-blosc2, metalayers live
// in the frame header, so they can only be added before the first chunk,
// and at most MaxMetalayers of them.
func (s *SChunk) AddMetalayer(name string, content []byte) (err error) {
	defer s.change(&err)()
	if err := checkMetaName(name); err != nil {
		return err
	}
	if s.offs.len() > 0 || s.regionLen() > 0 {
		return fmt.Errorf("%w: metalayer %q added after the first chunk (the header would move the chunks)", ErrInvalidOptions, name)
	}
	if len(s.hdr.meta) >= MaxMetalayers {
		return fmt.Errorf("%w: more than %d metalayers", ErrInvalidOptions, MaxMetalayers)
	}
	if len(content) > math.MaxInt32-frameHeaderSize(s.hdr.meta)-64 {
		return fmt.Errorf("%w: metalayer of %d bytes", ErrTooLarge, len(content))
	}
	for _, m := range s.hdr.meta {
		if m.name == name {
			return fmt.Errorf("%w: metalayer %q exists", ErrInvalidOptions, name)
		}
	}
	if s.file != nil {
		if s.file.w == nil {
			return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
		}
		s.file.rewrite = true
	}
	if s.sparse != nil {
		if err := s.sparse.touch(); err != nil {
			return err
		}
	}
	s.hdr.meta = append(s.hdr.meta, metalayer{name: name, content: append([]byte(nil), content...)})
	return nil
}

// UpdateMetalayer replaces a metalayer's content in place, which must keep
// its size.
func (s *SChunk) UpdateMetalayer(name string, content []byte) (err error) {
	defer s.change(&err)()
	for i, m := range s.hdr.meta {
		if m.name == name {
			if len(content) != len(m.content) {
				return fmt.Errorf("%w: metalayer %q holds %d bytes, not %d (a metalayer keeps its size)", ErrInvalidOptions, name, len(m.content), len(content))
			}
			if s.file != nil {
				if s.file.w == nil {
					return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
				}
				s.file.headerOnly = true
			}
			if s.sparse != nil {
				if err := s.sparse.touch(); err != nil {
					return err
				}
			}
			s.hdr.meta[i].content = append([]byte(nil), content...)
			return nil
		}
	}
	return fmt.Errorf("%w: metalayer %q", ErrNotFound, name)
}

// vlmetaOptions are c-blosc2's BLOSC2_CPARAMS_DEFAULTS, with which it
// compresses variable-length metalayers.
func vlmetaOptions() Options {
	o := DefaultOptions()
	o.Format = FormatBlosc2
	o.Threads = 1
	return o
}

// VLMetalayer returns the decompressed content of a variable-length
// metalayer.
func (s *SChunk) VLMetalayer(name string) ([]byte, error) {
	for _, m := range s.vlmeta {
		if m.name == name {
			out, err := Decompress(nil, m.content)
			if err != nil {
				return nil, fmt.Errorf("vlmetalayer %q: %w", name, err)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
}

// VLMetalayerNames lists the variable-length metalayers in frame order.
func (s *SChunk) VLMetalayerNames() []string {
	names := make([]string, len(s.vlmeta))
	for i, m := range s.vlmeta {
		names[i] = m.name
	}
	return names
}

func (s *SChunk) vlIndex(name string) int {
	for i, m := range s.vlmeta {
		if m.name == name {
			return i
		}
	}
	return -1
}

// AddVLMetalayer adds a variable-length metalayer, stored compressed in the
// frame's trailer as c-blosc2 stores it.
func (s *SChunk) AddVLMetalayer(name string, content []byte) (err error) {
	defer s.change(&err)()
	if err := checkMetaName(name); err != nil {
		return err
	}
	if s.vlIndex(name) >= 0 {
		return fmt.Errorf("%w: vlmetalayer %q exists", ErrInvalidOptions, name)
	}
	if len(s.vlmeta) >= MaxVLMetalayers {
		return fmt.Errorf("%w: more than %d vlmetalayers", ErrInvalidOptions, MaxVLMetalayers)
	}
	c, err := Compress(nil, content, vlmetaOptions())
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta = append(s.vlmeta, metalayer{name: name, content: c})
	s.hdr.hasVLMeta = true
	return nil
}

// UpdateVLMetalayer replaces a variable-length metalayer's content (of any
// size).
func (s *SChunk) UpdateVLMetalayer(name string, content []byte) (err error) {
	defer s.change(&err)()
	i := s.vlIndex(name)
	if i < 0 {
		return fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
	}
	c, err := Compress(nil, content, vlmetaOptions())
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta[i].content = c
	return nil
}

// DeleteVLMetalayer removes a variable-length metalayer.
func (s *SChunk) DeleteVLMetalayer(name string) (err error) {
	defer s.change(&err)()
	i := s.vlIndex(name)
	if i < 0 {
		return fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta = append(s.vlmeta[:i], s.vlmeta[i+1:]...)
	s.hdr.hasVLMeta = len(s.vlmeta) > 0
	return nil
}
