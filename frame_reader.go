package blosc

import (
	"errors"
	"fmt"
	"io"
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

// decodeFrom decodes into buf (grown if need be) the chunks from the one
// holding pos on, as many as Options().Threads (at least one), and says
// at which data offset they start.
func (s *SChunk) decodeFrom(buf []byte, pos int64) ([]byte, int64, error) {
	first := s.chunkAt(pos)
	n := min(max(resolveThreads(s.opts.Threads), 1), s.offs.len()-first)
	start, _ := s.chunkSpan(first)
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
	err := j.err
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
	if r.pos >= r.s.Nbytes() {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.pos < r.bufOff || r.pos >= r.bufOff+int64(len(r.buf)) {
		if err := r.fill(); err != nil {
			r.err = err
			return 0, err
		}
	}
	n := copy(p, r.buf[r.pos-r.bufOff:])
	r.pos += int64(n)
	return n, nil
}

// WriteTo writes the data from the current position to w. The chunks
// after those being written are decoded meanwhile, on a goroutine that
// ends before WriteTo returns.
func (r *FrameReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	if r.closed {
		return 0, errReaderClosed
	}
	if r.err != nil {
		return 0, r.err
	}
	if r.pos >= r.s.Nbytes() {
		return 0, nil
	}
	if r.pos < r.bufOff || r.pos >= r.bufOff+int64(len(r.buf)) {
		if err := r.fill(); err != nil {
			r.err = err
			return 0, err
		}
	}
	type decoded struct {
		buf []byte
		off int64
		err error
	}
	next := make(chan decoded, 1)
	var spare []byte
	for {
		end := r.bufOff + int64(len(r.buf))
		ahead := end < r.s.Nbytes()
		if ahead {
			go func(buf []byte) {
				b, off, err := r.s.decodeFrom(buf, end)
				next <- decoded{b, off, err}
			}(spare)
		}
		n, err := w.Write(r.buf[r.pos-r.bufOff:])
		r.pos += int64(n)
		total += int64(n)
		if !ahead {
			return total, err
		}
		d := <-next
		if err != nil {
			spare = d.buf
			return total, err
		}
		if d.err != nil {
			r.err = d.err
			return total, d.err
		}
		spare = r.buf
		r.buf, r.bufOff = d.buf, d.off
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
