package blosc

import (
	"fmt"
	"io"
)

// Streaming into frame files. Data is compressed a few chunks at a time
// (several at once, Options.Threads) and the chunks are written straight
// to the file, so memory stays at a few chunks whatever the input's size;
// the offsets index, trailer and header are written once, at the end,
// with the commit protocol of frame_file.go. A crash before that leaves
// the file as it was before (for a new file: an empty frame).
//
// A stream's batches overlap: while one batch is compressed and written
// on a goroutine of its own, the caller reads the next into a second
// buffer. Only one batch is ever in flight, so chunks are made and
// written in the order of the input, and the file sees the same writes
// in the same order as without the overlap.

// overlap runs a batch's work in the background while the caller fills
// the other of two buffers. Its goroutine ends with its batch; wait
// collects the result, so nothing outlives the call that waits last.
type overlap struct {
	size   int
	fill   []byte // the buffer being filled
	other  []byte // the buffer of the batch in flight, or a spare
	done   chan error
	flying bool
}

func newOverlap(size int) *overlap {
	return &overlap{size: size, fill: make([]byte, size), done: make(chan error, 1)}
}

// wait returns the result of the batch in flight, if any.
func (o *overlap) wait() error {
	if !o.flying {
		return nil
	}
	o.flying = false
	return <-o.done
}

// start waits for the batch in flight, then hands fill[:n] to do on a new
// goroutine and makes the other buffer the one to fill.
func (o *overlap) start(n int, do func([]byte) error) error {
	if err := o.wait(); err != nil {
		return err
	}
	b := o.fill[:n]
	if o.other == nil {
		o.other = make([]byte, o.size)
	}
	o.fill, o.other = o.other, o.fill
	o.flying = true
	done := o.done
	go func() { done <- do(b) }()
	return nil
}

// flushPending writes the chunk bytes of the change in progress to the
// file, after its end, and forgets them: the change's bytes are then on
// file but referenced only once the change commits.
func (s *SChunk) flushPending() error {
	f := s.file
	if f == nil || !f.dirty || len(s.region) == 0 {
		return nil
	}
	if _, err := f.w.WriteAt(s.region, f.base+f.end); err != nil {
		return err
	}
	f.end += int64(len(s.region))
	s.pendBase += int64(len(s.region))
	s.region = s.region[:0]
	return nil
}

// streamBatch is how many chunks of input a stream compresses at once.
func (s *SChunk) streamBatch(cs int) int {
	return cs * max(2*resolveThreads(s.opts.Threads), 2)
}

// AppendFrom appends everything r yields, as AppendData would, as one
// change: for a frame file the chunks go to the file as they are made and
// the frame references them once r is drained, so a crash or an error
// leaves the frame as it was. Memory is bounded by a few chunks.
func (s *SChunk) AppendFrom(r io.Reader) (n int64, err error) {
	defer s.change(&err)()
	cs := s.chunkSize
	if s.hdr.chunksize > 0 {
		cs = int(s.hdr.chunksize)
	}
	if cs == 0 {
		cs = max(DefaultChunkSize/int(s.hdr.typesize)*int(s.hdr.typesize), int(s.hdr.typesize))
	}
	ov := newOverlap(s.streamBatch(cs))
	// The background batch and this goroutine never touch s at once: s is
	// used only by the batch in flight, and here only after wait.
	appendBatch := func(b []byte) error {
		if err := s.AppendData(b); err != nil {
			return err
		}
		return s.flushPending()
	}
	fail := func(err error) (int64, error) {
		ov.wait()
		s.abandon()
		return n, err
	}
	// Refill a short last chunk first, so that every batch after it is
	// whole chunks.
	first := ov.size
	if k := s.offs.len(); k > 0 {
		if _, size := s.chunkSpan(k - 1); size < cs {
			first = cs - size
		}
	}
	for {
		m, rerr := io.ReadFull(r, ov.fill[:first])
		first = ov.size
		if m > 0 {
			if err := ov.start(m, appendBatch); err != nil {
				return fail(err)
			}
		}
		switch rerr {
		case nil:
			n += int64(m)
			continue
		case io.EOF, io.ErrUnexpectedEOF:
			if err := ov.wait(); err != nil {
				return fail(err)
			}
			return n + int64(m), nil
		}
		return fail(rerr)
	}
}

// abandon drops a frame file's change in progress after an error: the
// file keeps its committed frame, and the super-chunk must be opened
// again to be used.
func (s *SChunk) abandon() {
	if s.file != nil {
		s.file.dirty, s.file.headerOnly, s.file.rewrite = false, false, false
		s.file.broken = true
	}
}

// FrameWriter compresses a stream of any length into a new frame: Write
// (or ReadFrom, which io.Copy uses) takes data, and finished chunks go to
// the destination right after the place kept for the header while the
// next input is taken; Close writes the offsets index, the trailer and
// then the header. The bytes are those Frame writes for the same data
// (AppendData). Until Close has written the header the destination holds
// no frame. An error met by a batch in the background is returned by a
// later Write or by Close; a FrameWriter must be closed, which also ends
// its background work.
type FrameWriter struct {
	s    *SChunk
	w    io.WriterAt
	hlen int64
	ov   *overlap
	n    int // bytes in ov.fill
	err  error
	done bool
}

// NewFrameWriter returns a writer of a new frame into w (an *os.File, for
// one). Metalayers are added through SChunk before the first Write.
func NewFrameWriter(w io.WriterAt, opts SChunkOptions) (*FrameWriter, error) {
	s, err := NewSChunk(opts)
	if err != nil {
		return nil, err
	}
	cs := opts.ChunkSize
	if cs == 0 {
		ts := max(opts.Typesize, 1)
		cs = max(DefaultChunkSize/ts*ts, ts)
	}
	s.chunkSize = cs
	return &FrameWriter{s: s, w: w, ov: newOverlap(s.streamBatch(cs))}, nil
}

// SChunk returns the super-chunk being written: add metalayers through it
// before the first Write, read its counters after Close.
func (w *FrameWriter) SChunk() *SChunk { return w.s }

func (w *FrameWriter) check() error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return fmt.Errorf("%w: write after Close", ErrInvalidOptions)
	}
	return nil
}

// Write compresses p into the frame's chunks.
func (w *FrameWriter) Write(p []byte) (int, error) {
	if err := w.check(); err != nil {
		return 0, err
	}
	total := len(p)
	for len(p) > 0 {
		k := copy(w.ov.fill[w.n:], p)
		w.n += k
		p = p[k:]
		if w.n == len(w.ov.fill) {
			if err := w.send(); err != nil {
				return total - len(p), err
			}
		}
	}
	return total, nil
}

// ReadFrom compresses everything r yields into the frame's chunks,
// reading straight into the batch buffers.
func (w *FrameWriter) ReadFrom(r io.Reader) (int64, error) {
	if err := w.check(); err != nil {
		return 0, err
	}
	var total int64
	for {
		m, err := io.ReadFull(r, w.ov.fill[w.n:])
		w.n += m
		total += int64(m)
		if w.n == len(w.ov.fill) {
			if err := w.send(); err != nil {
				return total, err
			}
		}
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return total, nil
		default:
			return total, err
		}
	}
}

// send hands the full buffer to the background; the place kept for the
// header is known from the first batch on (metalayers are added before).
func (w *FrameWriter) send() error {
	if w.hlen == 0 {
		w.hlen = int64(frameHeaderSize(w.s.hdr.meta))
	}
	n := w.n
	w.n = 0
	if err := w.ov.start(n, w.batch); err != nil {
		w.err = err
		return err
	}
	return nil
}

// batch compresses one batch of input and writes its chunks.
func (w *FrameWriter) batch(b []byte) error {
	s := w.s
	if len(b) > 0 {
		if err := s.AppendData(b); err != nil {
			return err
		}
	}
	if len(s.region) > 0 {
		if _, err := w.w.WriteAt(s.region, w.hlen+s.pendBase); err != nil {
			return err
		}
		s.pendBase += int64(len(s.region))
		s.region = s.region[:0]
	}
	return nil
}

// Close compresses what is buffered, writes the offsets index, the
// trailer and the header, and reports the first error of the stream.
func (w *FrameWriter) Close() error {
	if w.done {
		return w.err
	}
	w.done = true
	if err := w.ov.wait(); err != nil && w.err == nil {
		w.err = err
	}
	if w.err != nil {
		return w.err
	}
	if w.hlen == 0 {
		w.hlen = int64(frameHeaderSize(w.s.hdr.meta))
	}
	if err := w.batch(w.ov.fill[:w.n]); err != nil {
		w.err = err
		return err
	}
	w.n = 0
	hdr, offs, trailer, err := w.s.frameParts()
	if err != nil {
		w.err = err
		return err
	}
	if int64(len(hdr)) != w.hlen {
		w.err = fmt.Errorf("%w: the frame header changed size while streaming", ErrInvalidOptions)
		return w.err
	}
	at := w.hlen + w.s.pendBase
	for _, part := range [][]byte{offs, trailer} {
		if _, err := w.w.WriteAt(part, at); err != nil {
			w.err = err
			return err
		}
		at += int64(len(part))
	}
	if _, err := w.w.WriteAt(hdr, 0); err != nil {
		w.err = err
		return err
	}
	return nil
}
