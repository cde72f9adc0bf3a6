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
	buf := make([]byte, s.streamBatch(cs))
	// Refill a short last chunk first, so that every batch after it is
	// whole chunks.
	first := buf
	if k := s.offs.len(); k > 0 {
		if _, size := s.chunkSpan(k - 1); size < cs {
			first = buf[:cs-size]
		}
	}
	for {
		m, rerr := io.ReadFull(r, first)
		first = buf
		if m > 0 {
			if err := s.AppendData(buf[:m]); err != nil {
				s.abandon()
				return n, err
			}
			n += int64(m)
			if err := s.flushPending(); err != nil {
				s.abandon()
				return n, err
			}
		}
		switch rerr {
		case nil:
			continue
		case io.EOF, io.ErrUnexpectedEOF:
			return n, nil
		}
		s.abandon()
		return n, rerr
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
// takes data and sends finished chunks to the destination right after the
// place kept for the header; Close writes the offsets index, the trailer
// and then the header. The bytes are those Frame writes for the same data
// (AppendData). Until Close has written the header the destination holds
// no frame.
type FrameWriter struct {
	s    *SChunk
	w    io.WriterAt
	hlen int64
	buf  []byte
	n    int
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
	return &FrameWriter{s: s, w: w, buf: make([]byte, s.streamBatch(cs))}, nil
}

// SChunk returns the super-chunk being written: add metalayers through it
// before the first Write, read its counters after Close.
func (w *FrameWriter) SChunk() *SChunk { return w.s }

// Write compresses p into the frame's chunks.
func (w *FrameWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.done {
		return 0, fmt.Errorf("%w: write after Close", ErrInvalidOptions)
	}
	total := len(p)
	for len(p) > 0 {
		k := copy(w.buf[w.n:], p)
		w.n += k
		p = p[k:]
		if w.n == len(w.buf) {
			if err := w.flush(); err != nil {
				return total - len(p), err
			}
		}
	}
	return total, nil
}

// flush compresses the buffered input and sends the chunks out.
func (w *FrameWriter) flush() error {
	if w.n > 0 {
		if err := w.s.AppendData(w.buf[:w.n]); err != nil {
			w.err = err
			return err
		}
		w.n = 0
	}
	s := w.s
	if w.hlen == 0 {
		w.hlen = int64(frameHeaderSize(s.hdr.meta))
	}
	if len(s.region) > 0 {
		if _, err := w.w.WriteAt(s.region, w.hlen+s.pendBase); err != nil {
			w.err = err
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
	if w.err != nil {
		return w.err
	}
	if err := w.flush(); err != nil {
		return err
	}
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
