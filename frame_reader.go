package blosc

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// FrameReader reads a super-chunk's decompressed bytes as a stream: an
// io.Reader, io.Seeker, io.ReaderAt and io.WriterTo. Sequential reads
// decode several chunks at once (Options().Threads) on the package's
// persistent workers, so it starts no goroutine of its own; memory holds
// that many chunks.
type FrameReader struct {
	s      *SChunk
	pos    int64
	buf    []byte // decoded chunks [bufFirst, bufFirst+bufN)
	bufOff int64  // data offset of buf[0]
	closed bool
	err    error
}

// NewFrameReader returns a reader over s's data, positioned at 0.
func NewFrameReader(s *SChunk) *FrameReader { return &FrameReader{s: s} }

var errReaderClosed = errors.New("blosc: read from a closed FrameReader")

// fill decodes the chunks from the one holding r.pos on, as many as
// Options().Threads (at least one).
func (r *FrameReader) fill() error {
	buf, off, err := r.s.decodeFrom(r.buf, r.pos)
	r.buf, r.bufOff = buf, off
	return err
}

// pieceBytes bounds what a stream decodes at once of a special chunk
// (zeros, NaN, a repeated value, uninitialised: data made, not stored).
// Such a chunk of more than this is streamed in pieces of this size, so
// memory follows the frame's real bytes, not what its chunks say they
// hold: a 172-byte frame of 1,024 special chunks of 1 GiB each took a
// gigabyte a chunk decoded whole. Other chunks are decoded whole; their
// data was compressed from real bytes.
var pieceBytes = 1 << 20 // a variable: fuzzing makes pieces of small frames

// inPieces reports whether chunk i, of size bytes of data, streams in
// pieces: larger than pieceBytes and special. Only chunks that large are
// looked at, with a read of their header (none for a chunk the offsets
// index codes, a frame in memory or a mapped one).
func (s *SChunk) inPieces(i, size int) (bool, error) {
	if size <= pieceBytes {
		return false, nil
	}
	off, err := s.offsetAt(i)
	if err != nil {
		return false, err
	}
	if off < 0 {
		return true, nil
	}
	var hb []byte
	f := s.file
	switch {
	case s.sparse != nil:
		// A special chunk's file is a header and at most one value.
		st, err := s.sparse.fs.Stat(s.sparse.path(chunkFileName(off)))
		if err != nil || st.Size() > header2Len+MaxTypesize {
			return false, nil // the decoding reports a missing file
		}
		if hb, _, err = s.stored(i); err != nil {
			return false, err
		}
	case f != nil && (off < s.pendBase || !f.dirty) && !f.broken && off <= f.region-header2Len:
		var b [header2Len]byte
		if err := readFull(f.r, b[:], f.base+f.hlen+off); err != nil {
			return false, fmt.Errorf("chunk %d: %w", i, err)
		}
		hb = b[:]
	default:
		if hb, _, err = s.stored(i); err != nil {
			return false, err
		}
	}
	if len(hb) < header2Len {
		return false, nil
	}
	h := decodeHeader2(hb)
	if h.nbytes != size {
		// Refused before a buffer of the frame's chunk size is made for it.
		return false, fmt.Errorf("%w: chunk %d holds %d bytes, the frame says %d", ErrCorrupt, i, h.nbytes, size)
	}
	return h.special() != specialNone, nil
}

// decodeFrom decodes into buf (grown if need be) the chunks from the one
// holding pos on, as many as Options().Threads (at least one), and says
// at which data offset they start. A chunk streamed in pieces is decoded
// alone, the piece holding pos.
func (s *SChunk) decodeFrom(buf []byte, pos int64) ([]byte, int64, error) {
	first := s.chunkAt(pos)
	start, size := s.chunkSpan(first)
	piece, err := s.inPieces(first, size)
	if err != nil {
		return buf[:0], start, err
	}
	if piece {
		pb := int64(pieceBytes)
		lo := start + (pos-start)/pb*pb
		n := int(min(start+int64(size)-lo, pb))
		buf = sized(buf, n)
		e := enginePool.Get().(*engine)
		err := s.readRange(e, buf, lo)
		enginePool.Put(e)
		return buf, lo, err
	}
	n := 1
	for want := min(max(resolveThreads(s.opts.Threads), 1), s.offs.len()-first); n < want; n++ {
		_, size := s.chunkSpan(first + n)
		if p, err := s.inPieces(first+n, size); err != nil || p {
			break // decoded on its own, or its error met then
		}
	}
	lastStart, lastSize := s.chunkSpan(first + n - 1)
	total := int(lastStart + int64(lastSize) - start)
	if cap(buf) < total {
		buf = make([]byte, total)
	}
	buf = buf[:total]
	if n == 1 {
		e := enginePool.Get().(*engine)
		err := s.decodeChunkInto(e, buf, first, resolveThreads(s.opts.Threads))
		enginePool.Put(e)
		return buf, start, err
	}
	j := jobPool.Get().(*chunkJob)
	j.s, j.out, j.err = s, buf, nil
	runBlocks(&j.batch, readChunksTask{j: j, first: first, base: start}, n, n, &j.ws)
	err = j.err
	j.s, j.out, j.err = nil, nil, nil
	jobPool.Put(j)
	return buf, start, err
}

// readChunksTask decodes chunk first+i into its place in j.out.
type readChunksTask struct {
	j     *chunkJob
	first int
	base  int64
}

func (t readChunksTask) doBlock(_ *workerState, i int) {
	s := t.j.s
	start, size := s.chunkSpan(t.first + i)
	e := enginePool.Get().(*engine)
	if err := s.decodeChunkInto(e, t.j.out[start-t.base:start-t.base+int64(size)], t.first+i, 1); err != nil {
		t.j.setErr(err)
	}
	enginePool.Put(e)
}

// Read reads the next decompressed bytes.
func (r *FrameReader) Read(p []byte) (int, error) {
	if r.closed {
		return 0, errReaderClosed
	}
	if r.err != nil {
		return 0, r.err
	}
	var n int
	err := r.s.readData(func() error {
		if r.pos >= r.s.nbytes() {
			return io.EOF
		}
		if len(p) == 0 {
			return nil
		}
		if r.pos < r.bufOff || r.pos >= r.bufOff+int64(len(r.buf)) {
			if err := r.fill(); err != nil {
				return err
			}
		}
		n = copy(p, r.buf[r.pos-r.bufOff:])
		return nil
	})
	if err == io.EOF {
		return 0, err
	}
	if err != nil {
		r.err = err
		return 0, err
	}
	r.pos += int64(n)
	return n, nil
}

// WriteTo writes the data from the current position to w. Chunks are
// decoded ahead, Options().Threads at once each on a goroutine of its
// own, into a ring of a few buffers that w drains in order, so decoding
// never waits for a batch to finish and overlaps the writes; the
// goroutines end before WriteTo returns. Memory holds the ring: two
// units of about 256 KiB or one chunk, whichever is larger, per thread
// (a special chunk's unit is a piece of at most pieceBytes).
func (r *FrameReader) WriteTo(w io.Writer) (int64, error) {
	if r.closed {
		return 0, errReaderClosed
	}
	if r.err != nil {
		return 0, r.err
	}
	s := r.s
	locked, err := s.beginRead()
	if err != nil {
		return 0, err
	}
	defer s.endRead(locked)
	if r.pos >= s.nbytes() {
		return 0, nil
	}
	threads := max(resolveThreads(s.opts.Threads), 1)
	ring := writeRing{s: s, per: 1, slots: max(2*threads, 2)}
	if s.fixed() {
		ring.per = max(1, unitBytes/int(s.hdr.chunksize))
	}
	ring.plan.chunk = s.chunkAt(r.pos)
	start, _ := s.chunkSpan(ring.plan.chunk)
	ring.plan.at = start + (r.pos-start)/int64(pieceBytes)*int64(pieceBytes)
	// Few units of whole chunks: threads inside each chunk.
	units := (s.offs.len() - ring.plan.chunk + ring.per - 1) / ring.per
	decoders := max(min(threads, units), 1)
	ring.inner = max(threads/decoders, 1)
	ring.start(threads)
	defer ring.stop()
	var total int64
	end := s.nbytes()
	for u := 0; r.pos < end; u++ {
		d := <-ring.ready[u%ring.slots]
		// The position may fall inside the first unit; a unit that failed
		// to decode holds its chunks before the bad one.
		if out := d.buf[min(r.pos-d.off, int64(len(d.buf))):]; len(out) > 0 {
			n, err := w.Write(out)
			r.pos += int64(n)
			total += int64(n)
			if err == nil && n < len(out) {
				err = io.ErrShortWrite
			}
			if err != nil {
				return total, err
			}
		}
		if d.err != nil {
			r.err = d.err
			return total, d.err
		}
		ring.written(u + 1)
	}
	return total, nil
}

// unitBytes is about how much a decoder of WriteTo takes at once when
// chunks are small: enough that handing units over costs little.
const unitBytes = 256 << 10

// writeRing is WriteTo's decoders: the u-th unit the plan makes (up to
// per whole chunks, or a piece of a special chunk) is decoded into slot
// u%slots once unit u-slots has been written, and sent on ready[u%slots],
// which therefore never holds two units.
type writeRing struct {
	s          *SChunk
	per, slots int
	inner      int // threads decoding one chunk
	bufs       [][]byte
	ready      []chan decodedUnit
	mu         sync.Mutex
	cond       sync.Cond
	plan       unitPlan // the next unit to claim (mu)
	next       int      // its number (mu)
	done       int      // units written (mu)
	halt       bool
	wg         sync.WaitGroup
}

// unitPlan walks the data in units: from chunk on, at data offset at
// (inside the chunk when it streams in pieces).
type unitPlan struct {
	chunk int
	at    int64
}

// unit is one unit of WriteTo: chunks [lo, hi) whole, or when piece the
// data bytes [off, off+n) of chunk lo.
type unit struct {
	lo, hi int
	piece  bool
	off    int64
	n      int
	err    error
}

// take returns the plan's next unit and moves past it; ok is false at
// the end.
func (p *unitPlan) take(s *SChunk, per int) (u unit, ok bool) {
	nc := s.offs.len()
	if p.chunk >= nc {
		return u, false
	}
	start, size := s.chunkSpan(p.chunk)
	piece, err := s.inPieces(p.chunk, size)
	if err != nil {
		p.chunk = nc
		return unit{lo: nc, err: err}, true
	}
	if piece {
		at := max(p.at, start)
		u = unit{lo: p.chunk, piece: true, off: at, n: int(min(start+int64(size)-at, int64(pieceBytes)))}
		if p.at = at + int64(u.n); p.at >= start+int64(size) {
			p.chunk++
		}
		return u, true
	}
	u = unit{lo: p.chunk, hi: p.chunk + 1}
	for u.hi < min(p.chunk+per, nc) {
		_, size := s.chunkSpan(u.hi)
		if pc, err := s.inPieces(u.hi, size); err != nil || pc {
			break
		}
		u.hi++
	}
	p.chunk, p.at = u.hi, 0
	return u, true
}

type decodedUnit struct {
	buf []byte // the unit's data, or its chunks before a bad one
	off int64  // data offset of buf[0]
	err error
}

func (g *writeRing) start(decoders int) {
	g.cond.L = &g.mu
	g.bufs = make([][]byte, g.slots)
	g.ready = make([]chan decodedUnit, g.slots)
	for i := range g.ready {
		g.ready[i] = make(chan decodedUnit, 1)
	}
	g.wg.Add(decoders)
	for range decoders {
		go g.decode()
	}
}

// written records that units [0, n) are out, freeing their slots.
func (g *writeRing) written(n int) {
	g.mu.Lock()
	g.done = n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// stop makes the decoders quit after their unit in hand and waits for
// them.
func (g *writeRing) stop() {
	g.mu.Lock()
	g.halt = true
	g.mu.Unlock()
	g.cond.Broadcast()
	g.wg.Wait()
}

func (g *writeRing) decode() {
	defer g.wg.Done()
	e := enginePool.Get().(*engine)
	defer enginePool.Put(e)
	s := g.s
	for {
		g.mu.Lock()
		un, ok := g.plan.take(s, g.per)
		u := g.next
		g.next++
		for ok && g.done <= u-g.slots && !g.halt {
			g.cond.Wait()
		}
		halt := g.halt
		g.mu.Unlock()
		if !ok || halt {
			return
		}
		slot := u % g.slots
		if un.err != nil {
			g.ready[slot] <- decodedUnit{nil, 0, un.err}
			return
		}
		var start int64
		var n int
		if un.piece {
			start, n = un.off, un.n
		} else {
			start, _ = s.chunkSpan(un.lo)
			lastStart, lastSize := s.chunkSpan(un.hi - 1)
			n = int(lastStart + int64(lastSize) - start)
		}
		buf := g.bufs[slot]
		if cap(buf) < n {
			buf = make([]byte, n)
		} else {
			buf = buf[:n]
		}
		g.bufs[slot] = buf
		good := len(buf)
		var err error
		if un.piece {
			if err = s.readRange(e, buf, start); err != nil {
				good = 0
			}
		}
		for i := un.lo; i < un.hi && !un.piece; i++ {
			cstart, size := s.chunkSpan(i)
			if err = s.decodeChunkInto(e, buf[cstart-start:cstart-start+int64(size)], i, g.inner); err != nil {
				good = int(cstart - start)
				break
			}
		}
		g.ready[slot] <- decodedUnit{buf[:good], start, err}
	}
}

// Seek sets the position for the next Read.
func (r *FrameReader) Seek(offset int64, whence int) (int64, error) {
	if r.closed {
		return 0, errReaderClosed
	}
	switch whence {
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.s.Nbytes()
	case io.SeekStart:
	default:
		return r.pos, fmt.Errorf("%w: whence %d", ErrInvalidOptions, whence)
	}
	if offset < 0 {
		return r.pos, fmt.Errorf("%w: seek to %d", ErrRange, offset)
	}
	r.pos = offset
	return offset, nil
}

// ReadAt reads len(p) bytes at off without moving the position.
func (r *FrameReader) ReadAt(p []byte, off int64) (int, error) {
	if r.closed {
		return 0, errReaderClosed
	}
	return r.s.ReadAt(p, off)
}

// Close releases the buffer; later calls fail. It reports the first
// error a read met.
func (r *FrameReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.buf = nil
	return r.err
}
