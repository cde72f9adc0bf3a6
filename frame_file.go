package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/goblosc/blosc/internal/rollback"
)

// Frames in files, read lazily and changed in place. OpenFrame reads the
// header, trailer and offsets index in at most three ReadAt calls, then a
// chunk per call as it is used (a large index a block at a time,
// frame_index.go); OpenFrameFile also changes the frame in place. Every
// change follows the commit protocol of docs/frame-files.md: new bytes go
// after the file's end, then a rollback record (internal/rollback), a
// sync, the new header's changed bytes, a sync, and the truncation that
// removes the record, synced: the commit point. A file that ends in a
// valid record holds a change that did not commit, whatever its header
// says: OpenFrameFile rolls it back, OpenFrame and OpenFrameBytes read
// through the record's old bytes. That document also says what c-blosc2,
// which knows nothing of the record, reads of each crash state, and why
// the header stays one write. TestFrameFileCrash fails and tears every
// write of every kind of change and checks that each file left behind
// opens to the frame before or after it. A change whose call fails before
// the commit is undone at once (the record put back if its removal may
// have landed, the old header written back, the file cut to its old
// length); should the undo fail too, the record stays for the next
// opener. docs/durability.md states the contract; TestFrameFileErrors
// holds it.

// WritableFile is what a file changed in place must offer: frame files
// (OpenFrameFile, CreateFrameFile) and Bloscpack files (bloscpack.Append)
// are changed through it. *os.File is one.
type WritableFile interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Sync() error
	Stat() (fs.FileInfo, error)
}

// frameFile is the file behind a frame read with OpenFrame or
// OpenFrameFile.
type frameFile struct {
	r      io.ReaderAt
	w      WritableFile // nil when read-only
	base   int64        // where the frame starts in the file
	end    int64        // the file's length from base: new bytes go there
	hlen   int64        // the header's length on file
	region int64        // the committed chunk bytes' length (cbytes)
	starts []int64      // committed chunk offsets, sorted, for each chunk's extent

	head       []byte // the header on file, as read or last written
	start      int64  // end when the change in progress began (dirty)
	broken     bool   // a change failed half-way: open the file again
	dirty      bool   // chunks, index or trailer changed: step 1 needed
	headerOnly bool   // only the header's content changed
	rewrite    bool   // the header's size changed: rewrite the frame
}

const probeLen = 64 << 10

// readFull reads exactly len(p) bytes at off.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = fmt.Errorf("%w: %d bytes at offset %d, the file ends before", ErrCorrupt, len(p), off)
	}
	return err
}

// OpenFrame opens a read-only frame of size bytes through r (a file, a
// memory map, an object-store range reader) without reading its chunks;
// they are read when used, each with one ReadAt. A frame embedded at an
// offset of a larger file (c-blosc2's blosc2_schunk_open_offset) opens
// through io.NewSectionReader. A frame file a change left with its
// rollback record (the change did not commit) reads as it was before
// that change.
//
// When r is an *os.File (a file with a name) and BLOSC_LOCKING asks for
// c-blosc2's cross-process lock, the frame is read under it, and so is
// every read of its data (see FileOptions); size is then the file's
// length at the open, and Refresh reads what other handles add.
func OpenFrame(r io.ReaderAt, size int64) (*SChunk, error) {
	if size < 0 {
		return nil, fmt.Errorf("%w: frame of %d bytes", ErrRange, size)
	}
	if _, ok := r.(namer); ok && lockingRequested() {
		return openFileLocked(r, false, true)
	}
	return openFrameFile(r, nil, 0, size)
}

// OpenFrameBytes opens a read-only frame held in b (a mapped file, for
// one) as OpenFrame does: nothing of its chunks is touched until they are
// used, and then a chunk is decoded where it lies in b rather than copied
// out first. ParseFrame, which checks every chunk's header up front,
// touches a page of b per chunk before the first is decoded. b must not
// change while the super-chunk is in use.
func OpenFrameBytes(b []byte) (*SChunk, error) {
	return openFrameFile(frameBytes(b), nil, 0, int64(len(b)))
}

// frameBytes is the io.ReaderAt of OpenFrameBytes, which readChunk
// recognises to take chunks in place.
type frameBytes []byte

func (b frameBytes) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: read at %d", ErrRange, off)
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// OpenFrameFile opens the frame that fills f for reading and changing in
// place. A change that did not commit (a crash, or a failure its undo
// could not mend) is first rolled back.
// When f is an *os.File and BLOSC_LOCKING asks for it, the frame takes
// c-blosc2's cross-process lock (see FileOptions).
func OpenFrameFile(f WritableFile) (*SChunk, error) {
	_, named := f.(namer)
	return openFileLocked(f, true, named && lockingRequested())
}

// openFrameFileRecover rolls back an interrupted change of the frame that
// fills f and opens it for changes.
func openFrameFileRecover(f WritableFile) (*SChunk, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if err := recoverFrameFile(f, size); err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	return openFrameFile(f, f, 0, st.Size())
}

// CreateFrameFile writes an empty super-chunk into f (which should be
// empty) and returns it for changing in place.
func CreateFrameFile(f WritableFile, opts SChunkOptions) (*SChunk, error) {
	s, err := NewSChunk(opts)
	if err != nil {
		return nil, err
	}
	b, err := s.AppendFrame(nil)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		return nil, err
	}
	_, err = f.WriteAt(b, 0)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		// Empty again, as it was: no part of a frame.
		if f.Truncate(0) == nil {
			f.Sync()
		}
		return nil, err
	}
	hl := frameHeaderSize(s.hdr.meta)
	s.file = &frameFile{r: f, w: f, end: int64(len(b)), hlen: int64(hl), head: b[:hl:hl]}
	s.hdr.frameLen = int64(len(b))
	return s, nil
}

// readRecord returns the rollback record ending a frame file of size
// bytes (this package's, or one an earlier version left), or nil.
func readRecord(r io.ReaderAt, size int64) (*rollback.Record, error) {
	rec, err := rollback.Read(r, size, rollback.Frame)
	if err != nil {
		return nil, fmt.Errorf("reading the rollback record: %w", err)
	}
	return rec, nil
}

// recoverFrameFile rolls back a change that did not commit: a file that
// ends in a rollback record gets its old bytes and length back. A record
// an earlier version left whose new header is the file's belongs to a
// change that had committed (that version's commit point was the header
// write): only the record goes.
func recoverFrameFile(f WritableFile, size int64) error {
	rec, err := readRecord(f, size)
	if err != nil || rec == nil {
		return err
	}
	if rec.Committed(f) {
		h, err := parseFrameHeader(rec.NewHeader)
		if err != nil {
			return err
		}
		return rollback.Remove(f, min(h.frameLen, rec.Start))
	}
	return rec.Restore(f)
}

// openFrameFile reads the header, trailer and offsets index of the frame
// at base in r (size bytes from base on).
func openFrameFile(r io.ReaderAt, w WritableFile, base, size int64) (*SChunk, error) {
	if size < frameHeaderMinLen+frameTrailerMinLen {
		return nil, fmt.Errorf("%w: %d bytes, too short for a frame", ErrCorrupt, size)
	}
	// The file's end: a rollback record left by a crash, and for a frame
	// that ends the file its trailer and offsets index.
	tailLen := min(size, probeLen)
	tail := make([]byte, tailLen)
	if err := readFull(r, tail, base+size-tailLen); err != nil {
		return nil, err
	}
	if w == nil && rollback.Ends(tail, rollback.Frame) {
		rec, err := readRecord(io.NewSectionReader(r, base, size), size)
		if err != nil {
			return nil, err
		}
		if rec != nil && !rec.Committed(io.NewSectionReader(r, base, size)) {
			// A change that did not commit: read the frame as it was
			// before, as OpenFrameFile's rollback leaves it.
			r = rec.Overlay(io.NewSectionReader(r, base, size))
			base, size = 0, rec.OldSize
			tailLen = min(size, probeLen)
			tail = make([]byte, tailLen)
			if err := readFull(r, tail, size-tailLen); err != nil {
				return nil, err
			}
		}
	}
	var head []byte
	if size <= tailLen {
		head = tail
	} else {
		head = make([]byte, min(size, probeLen))
		if err := readFull(r, head, base); err != nil {
			return nil, err
		}
	}
	if len(head) >= frameHeaderMinLen {
		if hl := int64(int32(binary.BigEndian.Uint32(head[frameHeaderLenPos:]))); hl > int64(len(head)) && hl <= size {
			head = make([]byte, hl)
			if err := readFull(r, head, base); err != nil {
				return nil, err
			}
		}
	}
	h, err := parseFrameHeader(head)
	if err != nil {
		return nil, err
	}
	if err := h.checkContiguous(); err != nil {
		return nil, err
	}
	if h.frameLen > size || h.frameLen < int64(h.headerLen)+frameTrailerMinLen {
		return nil, fmt.Errorf("%w: frame of %d bytes with a %d-byte header in %d bytes", ErrCorrupt, h.frameLen, h.headerLen, size)
	}
	// The frame's last bytes: from the tail read when the frame ends the
	// file (or sits inside it), else read.
	fend := h.frameLen
	var last []byte
	if tailStart := size - tailLen; fend <= size && fend-tailStart >= frameTrailerMinLen && tailStart <= fend {
		last = tail[:fend-tailStart]
	} else {
		last = make([]byte, min(fend, probeLen))
		if err := readFull(r, last, base+fend-int64(len(last))); err != nil {
			return nil, err
		}
	}
	tl, err := frameTrailerLen(last, fend, h.headerLen)
	if err != nil {
		return nil, err
	}
	if tl > len(last) {
		last = make([]byte, tl)
		if err := readFull(r, last, base+fend-int64(tl)); err != nil {
			return nil, err
		}
	}
	trailerOff := fend - int64(tl)
	vl, err := parseFrameTrailer(bytes.Clone(last[len(last)-tl:]))
	if err != nil {
		return nil, err
	}
	for _, m := range vl {
		if _, err := ReadHeader(m.content); err != nil {
			return nil, fmt.Errorf("vlmetalayer %q: %w", m.name, err)
		}
	}
	if h.cbytes > trailerOff-int64(h.headerLen) {
		return nil, fmt.Errorf("%w: %d bytes of chunks do not fit between the header and the trailer", ErrCorrupt, h.cbytes)
	}
	idxStart := int64(h.headerLen) + h.cbytes
	idxLen := trailerOff - idxStart
	lazyN := lazyCount(&h)
	var idx []byte // the index, or its first bytes when read lazily
	whole := true
	if lastStart := fend - int64(len(last)); idxStart >= lastStart {
		idx = last[idxStart-lastStart : int64(len(last))-int64(tl)]
	} else {
		// The index alone, and at most what the header and trailer
		// allow: its own length is checked when it is parsed. An
		// index read lazily: its header and block starts.
		n := idxLen
		if lazyN > 0 && idxLen > probeLen {
			n, whole = probeLen, false
		}
		idx = make([]byte, n)
		if err := readFull(r, idx, base+idxStart); err != nil {
			return nil, err
		}
	}
	h.meta = cloneMeta(h.meta)
	s := &SChunk{hdr: h, vlmeta: vl, regionOwned: true}
	s.file = &frameFile{r: r, w: w, base: base, end: size, hlen: int64(h.headerLen), region: h.cbytes, head: bytes.Clone(head[:h.headerLen])}
	if lazyN > 0 {
		x, err := newLazyIndex(r, base+idxStart, idx, idxLen, whole, lazyN)
		if err != nil {
			return nil, err
		}
		if x != nil {
			s.offs = offsetIndex{lazy: x, n: lazyN}
			s.setOptions()
			return s, nil
		}
		if !whole {
			idx = make([]byte, idxLen)
			if err := readFull(r, idx, base+idxStart); err != nil {
				return nil, err
			}
		}
	}
	if err := s.readIndex(bytes.Clone(idx)); err != nil {
		return nil, err
	}
	s.setOptions()
	return s, nil
}

// lazyCount returns the number of chunks of a frame whose offsets index a
// file reads lazily (a fixed chunk size, more than lazyIndexMin of
// offsets), or 0.
func lazyCount(h *frameHeader) int {
	if h.chunksize <= 0 || h.nbytes <= 0 {
		return 0
	}
	n := (h.nbytes + int64(h.chunksize) - 1) / int64(h.chunksize)
	if 8*n <= lazyIndexMin || n > maxFrameChunks {
		return 0
	}
	return int(n)
}

func cloneMeta(m []metalayer) []metalayer {
	out := make([]metalayer, len(m))
	for i, x := range m {
		out[i] = metalayer{x.name, bytes.Clone(x.content)}
	}
	return out
}

// checkOffsetsLazy checks a file frame's offsets without reading the
// chunks: each lies inside the chunk bytes with room for a header, no two
// are equal, and the sorted starts give every chunk's extent.
func (s *SChunk) checkOffsetsLazy() error {
	f := s.file
	n := s.offs.len()
	if _, err := s.checkRepOffset(); err != nil {
		return err
	}
	if s.hdr.chunksize <= 0 {
		return fmt.Errorf("%w: frames of variable-size chunks are read from memory (ParseFrame)", ErrUnsupported)
	}
	starts := make([]int64, 0, min(n, 1<<16))
	for i := 0; i < n; i++ {
		off := s.offs.get(i)
		if off < 0 {
			if _, err := offsetKind(off); err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			continue
		}
		if off > f.region-header2Len {
			return fmt.Errorf("%w: chunk %d at offset %d, the chunk bytes end at %d", ErrCorrupt, i, off, f.region)
		}
		starts = append(starts, off)
		if s.offs.rep {
			break
		}
	}
	slices.Sort(starts)
	for i := 1; i < len(starts); i++ {
		if starts[i] == starts[i-1] {
			return fmt.Errorf("%w: two chunks at offset %d", ErrCorrupt, starts[i])
		}
	}
	f.starts = starts
	return nil
}

// readChunk reads the committed chunk at region offset off with one
// ReadAt: up to end, the next chunk's start when exact (or the end of the
// chunk bytes). When end is a guess (a lazily read index) and the chunk's
// header says it is longer, a second ReadAt takes the rest. The bytes go
// into buf when it has room (a stream's decoder reuses one per worker),
// else into a new buffer; used is the buffer read into, for the next call.
func (f *frameFile) readChunk(off, end int64, exact bool, buf []byte) (chunk, used []byte, err error) {
	if off >= f.region {
		b, err := f.readFlushed(off)
		return b, b, err
	}
	if off < 0 || end-off < header2Len || end > f.region {
		return nil, buf, fmt.Errorf("%w: chunk at offset %d", ErrCorrupt, off)
	}
	if fb, ok := f.r.(frameBytes); ok {
		return f.chunkInPlace(fb, off, end, exact, buf)
	}
	b := sized(buf, int(end-off))
	if err := readFull(f.r, b, f.base+f.hlen+off); err != nil {
		return nil, b, err
	}
	if cb := int64(chunkCbytes(b)); !exact && cb > int64(len(b)) && cb <= f.region-off {
		nb := sized(nil, int(cb))
		copy(nb, b)
		if err := readFull(f.r, nb[len(b):], f.base+f.hlen+off+int64(len(b))); err != nil {
			return nil, nb, err
		}
		b = nb
	}
	h, err := parseHeader2(b)
	if err != nil {
		return nil, b, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	return b[:h.cbytes:h.cbytes], b, nil
}

// chunkInPlace is readChunk for a frame in memory: the chunk is a slice
// of fb (buf, untouched, stays the caller's).
func (f *frameFile) chunkInPlace(fb frameBytes, off, end int64, exact bool, buf []byte) (chunk, used []byte, err error) {
	at := f.base + f.hlen
	if at+end > int64(len(fb)) {
		return nil, buf, fmt.Errorf("%w: chunk at offset %d past the frame's end", ErrCorrupt, off)
	}
	b := fb[at+off : at+end : at+end]
	if cb := int64(chunkCbytes(b)); !exact && cb > int64(len(b)) && cb <= f.region-off && at+off+cb <= int64(len(fb)) {
		b = fb[at+off : at+off+cb : at+off+cb]
	}
	h, err := parseHeader2(b)
	if err != nil {
		return nil, buf, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	return b[:h.cbytes:h.cbytes], buf, nil
}

// errBroken: a change of a frame file failed half-way; the file holds the
// frame as it was before, which a new OpenFrameFile reads.
var errBroken = fmt.Errorf("%w: a change of this frame file failed; open the file again", ErrUnsupported)

// extent returns where the committed chunk at off must end: the next
// chunk's start, or the end of the chunk bytes.
func (f *frameFile) extent(off int64) int64 {
	end := f.region
	if i, found := slices.BinarySearch(f.starts, off); found && i+1 < len(f.starts) {
		end = f.starts[i+1]
	}
	return end
}

// partialProbe is how much of a chunk's start one read takes for its
// header and block starts; chunks not much larger are read whole.
const partialProbe = 4 << 10

// readPartial decodes bytes [lo, hi) of the committed chunk at off (size
// bytes of data) into out, reading only its header, its block starts and
// the blocks holding the range (c-blosc2's lazy chunks). ok is false when
// the chunk is better read whole (small, special, dictionary or
// variable-length blocks).
func (f *frameFile) readPartial(e *engine, out []byte, off, ext int64, exact bool, lo, hi, size int) (ok bool, err error) {
	if !exact {
		// A lazy index's guess: the chunk's header tells its length.
		ext = f.region
	}
	if ext-off <= 2*partialProbe || ext > f.region {
		return false, nil
	}
	head := make([]byte, partialProbe)
	if err := readFull(f.r, head, f.base+f.hlen+off); err != nil {
		return true, err
	}
	raw := decodeHeader2(head)
	if raw.cbytes < header2Len || int64(raw.cbytes) > ext-off || raw.flags&flagsExtended != flagsExtended ||
		raw.special() != specialNone || raw.vlBlocks() || raw.useDict() || raw.blocksize <= 0 {
		return false, nil
	}
	buf := make([]byte, raw.cbytes)
	copy(buf, head)
	if raw.memcpyed() {
		if header2Len+hi > len(buf) {
			return true, fmt.Errorf("%w: chunk at offset %d", ErrCorrupt, off)
		}
		if err := readFull(f.r, buf[header2Len+lo:header2Len+hi], f.base+f.hlen+off+int64(header2Len+lo)); err != nil {
			return true, err
		}
	}
	h, err := parseHeader2(buf)
	if err != nil {
		return true, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	if h.nbytes != size {
		return true, fmt.Errorf("%w: chunk at offset %d holds %d bytes, the frame says %d", ErrCorrupt, off, h.nbytes, size)
	}
	if !h.memcpyed() {
		nblocks, _ := h.nblocks()
		dataStart := header2Len + 4*int64(nblocks)
		if dataStart > int64(len(buf)) {
			return true, fmt.Errorf("%w: %d block starts in a %d-byte chunk", ErrCorrupt, nblocks, len(buf))
		}
		if dataStart > partialProbe {
			if err := readFull(f.r, buf[partialProbe:dataStart], f.base+f.hlen+off+partialProbe); err != nil {
				return true, err
			}
		}
		starts := make([]int, nblocks)
		for i := range starts {
			starts[i] = le32(buf[header2Len+4*i:])
		}
		sorted := slices.Clone(starts)
		slices.Sort(sorted)
		bs := h.blocksize
		want := func(j int) error {
			a := starts[j]
			if a < int(dataStart) || a >= len(buf) {
				return fmt.Errorf("%w: block %d starts at %d", ErrCorrupt, j, a)
			}
			b := len(buf)
			if k, _ := slices.BinarySearch(sorted, a+1); k < len(sorted) {
				b = sorted[k]
			}
			// Bytes already read (the probe) need no second read.
			from := max(a, partialProbe)
			if from >= b {
				return nil
			}
			return readFull(f.r, buf[from:b], f.base+f.hlen+off+int64(from))
		}
		first, last := lo/bs, (hi-1)/bs
		if hasDelta(h.filters) && first > 0 {
			if err := want(0); err != nil {
				return true, err
			}
		}
		for j := first; j <= last && j < nblocks; j++ {
			if err := want(j); err != nil {
				return true, err
			}
		}
	}
	c, err := openChunk2Partial(buf)
	if err != nil {
		return true, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	_, err = e.getBytesChunk2(out[:0:len(out)], &c, lo, hi)
	return true, err
}

func hasDelta(f [MaxFilters]uint8) bool {
	for _, x := range f {
		if Filter(x) == Delta {
			return true
		}
	}
	return false
}

// sized returns buf[:n] when buf has room for n bytes, else a new buffer
// of n bytes.
func sized(buf []byte, n int) []byte {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]byte, n)
}

// readFlushed reads a chunk a change in progress has already written to
// the file (its header first, then the rest).
func (f *frameFile) readFlushed(off int64) ([]byte, error) {
	limit := f.end - f.hlen
	if off > limit-header2Len {
		return nil, fmt.Errorf("%w: chunk at offset %d", ErrCorrupt, off)
	}
	var hb [header2Len]byte
	if err := readFull(f.r, hb[:], f.base+f.hlen+off); err != nil {
		return nil, err
	}
	cb := int64(int32(binary.LittleEndian.Uint32(hb[12:])))
	if cb < header2Len || cb > limit-off {
		return nil, fmt.Errorf("%w: chunk at offset %d", ErrCorrupt, off)
	}
	b := make([]byte, cb)
	if err := readFull(f.r, b, f.base+f.hlen+off); err != nil {
		return nil, err
	}
	if _, err := parseHeader2(b); err != nil {
		return nil, frameChunkErr(fmt.Sprintf("chunk at offset %d", off), err)
	}
	return b, nil
}

// touch prepares a change of chunks, index or trailer: for a frame file
// the new chunk bytes start after the file's end.
func (s *SChunk) touch() error {
	if s.sparse != nil {
		return s.sparse.touch()
	}
	f := s.file
	if f == nil {
		return nil
	}
	if f.w == nil {
		return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
	}
	if f.broken {
		return errBroken
	}
	if err := s.loadIndex(); err != nil {
		return err
	}
	if !f.dirty {
		f.dirty = true
		f.start = f.end
		s.pendBase = f.end - f.hlen
		s.region = s.region[:0]
	}
	return nil
}

// commit writes a frame file's pending change with the protocol above.
// Until the record's removal is synced, a failing call is undone at once:
// the file goes back to its old header and length. Should the undo fail
// too, the record is there (put back first when its removal may have
// landed), and the next opener rolls back with it.
func (s *SChunk) commit() (err error) {
	f := s.file
	if f == nil || !(f.dirty || f.headerOnly || f.rewrite) {
		return nil
	}
	defer func() {
		if err == nil {
			f.dirty, f.headerOnly, f.rewrite = false, false, false
		}
	}()
	// start is the file's length before the change: a change streaming
	// its chunks to the file (flushPending) moved f.end already.
	start := f.end
	if f.dirty {
		start = f.start
	}
	old := make([]byte, f.hlen)
	if err := readFull(f.r, old, f.base); err != nil {
		return err
	}
	var tail []byte
	h := s.hdr
	h.hasVLMeta = len(s.vlmeta) > 0
	newEnd := f.end
	switch {
	case f.rewrite:
		if s.regionLen() != 0 {
			return fmt.Errorf("%w: the header's size changes, but the frame has chunks", ErrInvalidOptions)
		}
		frame, err := s.frameBytesMemory()
		if err != nil {
			return err
		}
		return s.rewriteFile(old, frame)
	case f.dirty:
		offs, err := s.offsetsChunk()
		if err != nil {
			return err
		}
		tail = slices.Concat(s.region, offs, appendFrameTrailer(nil, s.vlmeta))
		h.cbytes = s.pendBase + int64(len(s.region))
		h.frameLen = f.hlen + h.cbytes + int64(len(offs)) + int64(frameTrailerSize(s.vlmeta))
		newEnd = h.frameLen
	default: // header only
		h.cbytes = f.region
		h.frameLen = s.hdr.frameLen
	}
	nh := appendFrameHeader(nil, &h)
	if int64(len(nh)) != f.hlen {
		return fmt.Errorf("%w: the frame header would change size", ErrInvalidOptions)
	}
	// The record goes after the new bytes: its removal, a truncation to
	// where it starts, leaves the new frame.
	recAt := f.base + f.end + int64(len(tail))
	if recAt != f.base+newEnd {
		return fmt.Errorf("%w: the new frame would end at %d, its bytes at %d", ErrCorrupt, newEnd, recAt-f.base)
	}
	rb := rollback.Record{OldSize: f.base + start, NewHeader: nh, Ranges: []rollback.Range{{Off: f.base, Old: old}}}
	rec, err := rb.Encode(recAt)
	if err != nil {
		return f.undo(err, nil, start, nil, 0)
	}
	if _, err := f.w.WriteAt(append(tail, rec...), f.base+f.end); err != nil {
		return f.undo(err, nil, start, nil, 0)
	}
	if err := f.w.Sync(); err != nil {
		return f.undo(err, nil, start, nil, 0)
	}
	// Only the bytes that change are written (frame_len, nbytes, cbytes
	// and what else differs: some 30 bytes of a sector), so that a
	// reader that knows nothing of the record (c-blosc2) finds the old
	// header or the new one whole on storage writing a sector at once.
	if lo, hi := changedSpan(old, nh); lo < hi {
		if _, err := f.w.WriteAt(nh[lo:hi], f.base+int64(lo)); err != nil {
			return f.undo(err, old, start, nil, 0)
		}
	}
	if err := f.w.Sync(); err != nil {
		return f.undo(err, old, start, nil, 0)
	}
	// The commit: the record's removal, synced.
	if err := rollback.Remove(f.w, recAt); err != nil {
		return f.undo(err, old, start, rec, recAt)
	}
	fileEnd := newEnd
	// The new frame's state on file.
	if f.dirty {
		for i := 0; i < s.offs.len(); i++ {
			if o := s.offs.get(i); o >= 0 {
				f.starts = append(f.starts, o)
			}
		}
		f.starts = slices.Compact(slices.Sorted(slices.Values(f.starts)))
		f.region = h.cbytes
		s.region, s.pendBase = s.region[:0], 0
	}
	f.end = fileEnd
	f.head = nh
	s.hdr.frameLen = h.frameLen
	return nil
}

// undo puts a frame file back as it was before a change whose step failed
// with cause: the rollback record (rec at recAt, when its removal may
// have landed: a crash in what follows must find it), the old header
// (when the new one may have been written, in whole or in part) and the
// old length, each synced. If a call of the undo fails, the record is
// still there and the next opener rolls back with it; the file is left
// alone from then on (abandon cuts nothing). The frame is broken either
// way: its state in memory is the failed change's.
func (f *frameFile) undo(cause error, oldHeader []byte, oldSize int64, rec []byte, recAt int64) error {
	f.broken = true
	f.dirty = false
	if rec != nil {
		if _, err := f.w.WriteAt(rec, recAt); err != nil {
			return cause
		}
		if err := f.w.Sync(); err != nil {
			return cause
		}
	}
	if oldHeader != nil {
		if _, err := f.w.WriteAt(oldHeader, f.base); err != nil {
			return cause
		}
		if err := f.w.Sync(); err != nil {
			return cause
		}
	}
	if err := f.w.Truncate(f.base + oldSize); err == nil {
		f.w.Sync()
	}
	return cause
}

// changedSpan is the smallest range [lo, hi) outside which a and b, of
// equal length, hold the same bytes.
func changedSpan(a, b []byte) (lo, hi int) {
	hi = len(b)
	for lo < hi && a[lo] == b[lo] {
		lo++
	}
	for hi > lo && a[hi-1] == b[hi-1] {
		hi--
	}
	return lo, hi
}

// frameBytesMemory is the whole frame of a super-chunk without chunk
// bytes, for rewriting a small frame file.
func (s *SChunk) frameBytesMemory() ([]byte, error) {
	c := &SChunk{opts: s.opts, params: s.params, chunkSize: s.chunkSize, hdr: s.hdr,
		offs: s.offs, offsChunk: s.offsChunk, offsSlack: s.offsSlack, varStarts: s.varStarts, vlmeta: s.vlmeta}
	return c.appendFrame(nil)
}

// rewriteFile replaces a small frame whose header changes size: the
// record holds all the old bytes, past both the old and the new frame.
func (s *SChunk) rewriteFile(oldHeader, frame []byte) error {
	f := s.file
	oldAll := make([]byte, f.end)
	if err := readFull(f.r, oldAll, f.base); err != nil {
		return err
	}
	h, err := parseFrameHeader(frame)
	if err != nil {
		return err
	}
	at := max(f.end, int64(len(frame)))
	rb := rollback.Record{OldSize: f.base + f.end, NewHeader: frame[:h.headerLen], Ranges: []rollback.Range{{Off: f.base, Old: oldAll}}}
	rec, err := rb.Encode(f.base + at)
	if err != nil {
		return f.undo(err, nil, f.end, nil, 0)
	}
	if at > f.end {
		rec = append(make([]byte, at-f.end), rec...)
	}
	if _, err := f.w.WriteAt(rec, f.base+f.end); err != nil {
		return f.undo(err, nil, f.end, nil, 0)
	}
	if err := f.w.Sync(); err != nil {
		return f.undo(err, nil, f.end, nil, 0)
	}
	if _, err := f.w.WriteAt(frame, f.base); err != nil {
		return f.undo(err, oldAll, f.end, nil, 0)
	}
	if err := f.w.Sync(); err != nil {
		return f.undo(err, oldAll, f.end, nil, 0)
	}
	// The commit: the record's removal alone, so that a truncation half
	// done shows nothing but the record's own bytes; the old bytes past
	// the new frame go after it, as tidying (a reader ignores bytes past
	// a frame).
	if err := rollback.Remove(f.w, f.base+at); err != nil {
		return f.undo(err, oldAll, f.end, rec[at-f.end:], f.base+at)
	}
	fileEnd := at
	if at > int64(len(frame)) && rollback.Remove(f.w, f.base+int64(len(frame))) == nil {
		fileEnd = int64(len(frame))
	}
	f.hlen, f.end, f.region = int64(h.headerLen), fileEnd, 0
	f.head = frame[:h.headerLen:h.headerLen]
	s.hdr.headerLen = h.headerLen
	s.hdr.frameLen = int64(len(frame))
	return nil
}

// regionBytes returns the chunk bytes: the frame's own in memory, read
// from its file otherwise.
func (s *SChunk) regionBytes() ([]byte, error) {
	f := s.file
	if f == nil {
		return s.region, nil
	}
	b := make([]byte, f.region, s.regionLen())
	if err := readFull(f.r, b, f.base+f.hlen); err != nil {
		return nil, err
	}
	if f.dirty {
		b = b[:s.pendBase]
		if int64(len(b)) > f.region {
			if err := readFull(f.r, b[f.region:], f.base+f.hlen+f.region); err != nil {
				return nil, err
			}
		}
		b = append(b, s.region...)
	}
	return b, nil
}
