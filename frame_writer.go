package blosc

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
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
	if err := s.begin(); err != nil {
		return 0, err
	}
	defer s.end(&err)
	return s.appendFrom(r)
}

func (s *SChunk) appendFrom(r io.Reader) (n int64, err error) {
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
		if err := s.appendData(b); err != nil {
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
	if f := s.file; f != nil && (f.dirty || f.headerOnly || f.rewrite || f.broken) {
		if f.dirty && f.w != nil {
			// Chunks the change streamed to the file (or a part of them
			// a failed write left): nothing refers to them, and the file
			// keeps its old length.
			if f.w.Truncate(f.base+f.start) == nil {
				f.end = f.start
			}
		}
		f.dirty, f.headerOnly, f.rewrite = false, false, false
		f.broken = true
	}
	if d := s.sparse; d != nil && (d.dirty || d.broken) {
		d.abandon()
	}
}

// FrameWriter compresses a stream of any length into a new frame: Write
// (or ReadFrom, which io.Copy uses) takes data, and finished chunks go to
// the destination right after the place kept for the header while the
// next input is taken; Close writes the offsets index, the trailer and
// then the header. The bytes are those Frame writes for the same data
// (AppendData). Until Close has written the header the destination holds
// no frame. An error met in the background is returned by a later Write
// or by Close; a FrameWriter must be closed, which also ends its
// background work (one dropped unclosed has its goroutines ended once the
// garbage collector finds it unreachable, and leaves no frame).
//
// The work is a pipeline over a ring of a few units of input (a chunk,
// or several small ones): the caller fills one unit while Threads
// goroutines compress others, each unit's chunks on one of them, and one
// more goroutine appends the compressed chunks in order and writes them.
// No stage waits for a whole batch, so reading, compressing and writing
// overlap and the cores stay busy; memory holds the ring.
type FrameWriter struct {
	s    *SChunk
	w    io.WriterAt
	hlen int64
	pipe *chunkPipe // started by the first Write or ReadFrom
	n    int        // bytes in the unit being filled
	err  error
	done bool
	// stopPipe ends the pipeline's goroutines should the FrameWriter be
	// dropped without Close.
	stopPipe runtime.Cleanup
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
	return &FrameWriter{s: s, w: w}, nil
}

// SChunk returns the super-chunk being written: add metalayers through it
// before the first Write, read its counters after Close.
func (w *FrameWriter) SChunk() *SChunk { return w.s }

// unit returns the input unit to fill, starting the pipeline first; the
// place kept for the header is known from then on (metalayers are added
// before).
func (w *FrameWriter) unit() ([]byte, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	if w.pipe == nil {
		if w.s.noCompress != nil {
			return nil, w.s.noCompress
		}
		w.hlen = int64(frameHeaderSize(w.s.hdr.meta))
		w.pipe = newChunkPipe(w.s, w.w, w.hlen)
		w.stopPipe = runtime.AddCleanup(w, (*chunkPipe).abandon, w.pipe)
	}
	return w.pipe.unit(), nil
}

func (w *FrameWriter) check() error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return fmt.Errorf("%w: write after Close", ErrInvalidOptions)
	}
	return nil
}

// send hands the unit filled so far to the compressors and reports an
// error the pipeline has met.
func (w *FrameWriter) send() error {
	w.pipe.submit(w.n)
	w.n = 0
	if err := w.pipe.failed(); err != nil {
		w.err = err
		return err
	}
	return nil
}

// Write compresses p into the frame's chunks. Whole units of p, from a
// unit's start, are compressed where they lie rather than copied first;
// Write then returns once they are compressed, so that it keeps nothing
// of p (large writes, a mapped file's, gain most).
func (w *FrameWriter) Write(p []byte) (int, error) {
	total := len(p)
	defer func() {
		if w.pipe != nil {
			w.pipe.direct.Wait()
		}
	}()
	for len(p) > 0 {
		u, err := w.unit()
		if err != nil {
			return total - len(p), err
		}
		if w.n == 0 && len(p) >= len(u) {
			w.pipe.submitFrom(p[:len(u)])
			p = p[len(u):]
			if err := w.pipe.failed(); err != nil {
				w.err = err
				return total - len(p), err
			}
			continue
		}
		k := copy(u[w.n:], p)
		w.n += k
		p = p[k:]
		if w.n == len(u) {
			if err := w.send(); err != nil {
				return total - len(p), err
			}
		}
	}
	return total, nil
}

// ReadFrom compresses everything r yields into the frame's chunks,
// reading straight into the pipeline's input units.
func (w *FrameWriter) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for {
		u, err := w.unit()
		if err != nil {
			return total, err
		}
		m, rerr := io.ReadFull(r, u[w.n:])
		w.n += m
		total += int64(m)
		if w.n == len(u) {
			if err := w.send(); err != nil {
				return total, err
			}
		}
		switch rerr {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return total, nil
		default:
			return total, rerr
		}
	}
}

// Close compresses what is buffered, writes the offsets index, the
// trailer and the header, and reports the first error of the stream.
func (w *FrameWriter) Close() error {
	if w.done {
		return w.err
	}
	w.done = true
	if w.pipe != nil {
		w.stopPipe.Stop()
		if w.n > 0 && w.err == nil {
			w.pipe.submit(w.n)
			w.n = 0
		}
		if err := w.pipe.finish(); err != nil && w.err == nil {
			w.err = err
		}
		w.pipe = nil
	}
	if w.err != nil {
		return w.err
	}
	if w.hlen == 0 {
		w.hlen = int64(frameHeaderSize(w.s.hdr.meta))
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

// pipeUnitBytes is about how much input a compressor of the pipeline takes
// at once when chunks are small: enough that handing units over costs
// little beside compressing them.
const pipeUnitBytes = 256 << 10

// pipeBudget bounds the ring of input and output units a FrameWriter
// keeps, unless its chunks are too big for the minimum of units.
const pipeBudget = 64 << 20

// chunkPipe is FrameWriter's pipeline. Unit q lives in slot q%slots; the
// caller fills it once it holds one of the slots tokens (a slot's token
// comes back when the writer is done with its unit, and units are done in
// order, so the free slot is always the next one); the compressors take
// unit numbers from work and post each result on ready[q%slots], which
// thus never holds two; the writer takes unit numbers, in order, from
// order.
type chunkPipe struct {
	s      *SChunk
	dst    io.WriterAt
	hlen   int64
	p      params
	cs     int // chunk size
	slots  int
	in     [][]byte // input units, per chunks each
	out    [][]byte // compressed chunks of a unit, end to end
	tokens chan struct{}
	work   chan pipeUnit
	order  chan int
	ready  []chan pipeResult
	next   int            // the unit being filled
	held   bool           // the caller holds unit next's token
	direct sync.WaitGroup // units of a caller's bytes not yet compressed
	wg     sync.WaitGroup
	wrote  chan struct{} // closed when the writer ends
	mu     sync.Mutex
	err    error
}

// pipeUnit is unit q: n bytes of its slot's input, or src, a caller's
// bytes compressed in place.
type pipeUnit struct {
	q, n int
	src  []byte
}

type pipeResult struct {
	ends []int // where each chunk ends in out[slot]
	err  error
}

func newChunkPipe(s *SChunk, dst io.WriterAt, hlen int64) *chunkPipe {
	threads := max(resolveThreads(s.opts.Threads), 1)
	c := &chunkPipe{s: s, dst: dst, hlen: hlen, p: s.params, cs: s.chunkSize}
	c.p.threads = 1 // the chunks are the parallel work; their bytes do not depend on it
	per := max(1, pipeUnitBytes/c.cs)
	// A unit for each compressor, one being filled and one being
	// written, and as many again to absorb uneven units while the ring
	// stays under pipeBudget; big chunks get the minimum.
	c.slots = threads + 2
	if 2*(2*threads+2)*per*c.cs <= pipeBudget {
		c.slots = 2*threads + 2
	}
	c.in = make([][]byte, c.slots)
	c.out = make([][]byte, c.slots)
	c.tokens = make(chan struct{}, c.slots)
	c.work = make(chan pipeUnit, c.slots)
	c.order = make(chan int, c.slots)
	c.ready = make([]chan pipeResult, c.slots)
	for i := range c.slots {
		c.in[i] = make([]byte, per*c.cs)
		c.ready[i] = make(chan pipeResult, 1)
		c.tokens <- struct{}{}
	}
	c.wrote = make(chan struct{})
	c.wg.Add(threads)
	for range threads {
		go c.compress()
	}
	go c.write()
	return c
}

// unit returns the input unit to fill, waiting for its slot to be free.
func (c *chunkPipe) unit() []byte {
	if !c.held {
		<-c.tokens
		c.held = true
	}
	return c.in[c.next%c.slots]
}

// submit hands the unit being filled, n bytes of it, down the pipeline.
func (c *chunkPipe) submit(n int) { c.send(pipeUnit{q: c.next, n: n}) }

// submitFrom hands src down the pipeline as the next unit, to be
// compressed where it lies: the caller keeps it unchanged until direct
// says it is done.
func (c *chunkPipe) submitFrom(src []byte) {
	c.direct.Add(1)
	c.send(pipeUnit{q: c.next, n: len(src), src: src})
}

func (c *chunkPipe) send(u pipeUnit) {
	c.unit()
	c.work <- u
	c.order <- u.q
	c.next++
	c.held = false
}

func (c *chunkPipe) setErr(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

// failed returns the first error the pipeline has met.
func (c *chunkPipe) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// finish waits for everything submitted to be written and ends the
// goroutines.
func (c *chunkPipe) finish() error {
	close(c.work)
	close(c.order)
	c.wg.Wait()
	<-c.wrote
	return c.failed()
}

// errAbandoned ends the pipeline of a FrameWriter dropped without Close.
var errAbandoned = fmt.Errorf("%w: FrameWriter dropped without Close", ErrInvalidOptions)

// abandon ends the goroutines of a pipeline whose FrameWriter is gone
// (nothing more can be submitted): what is queued is dropped, nothing more
// is written.
func (c *chunkPipe) abandon() {
	c.setErr(errAbandoned)
	close(c.work)
	close(c.order)
}

func (c *chunkPipe) compress() {
	defer c.wg.Done()
	e := enginePool.Get().(*engine)
	defer enginePool.Put(e)
	for u := range c.work {
		slot := u.q % c.slots
		var r pipeResult
		if c.failed() == nil {
			in := c.in[slot][:u.n]
			if u.src != nil {
				in = u.src
			}
			out := c.out[slot][:0]
			for src := in; len(src) > 0; src = src[min(c.cs, len(src)):] {
				k := min(c.cs, len(src))
				if cap(out)-len(out) < CompressBound(k) {
					grown := make([]byte, len(out), len(out)+(len(src)+c.cs-1)/c.cs*CompressBound(c.cs))
					copy(grown, out)
					out = grown
				}
				chunk, err := e.compress(out[len(out):], src[:k], &c.p)
				if err != nil {
					r.err = err
					break
				}
				out = out[:len(out)+len(chunk)]
				r.ends = append(r.ends, len(out))
			}
			c.out[slot] = out
		}
		if u.src != nil {
			c.direct.Done()
		}
		c.ready[slot] <- r
	}
}

// write appends the compressed chunks to the super-chunk in order, writes
// them after the place kept for the header and frees their slots.
func (c *chunkPipe) write() {
	defer close(c.wrote)
	for q := range c.order {
		slot := q % c.slots
		r := <-c.ready[slot]
		if r.err != nil {
			c.setErr(r.err)
		}
		if c.failed() == nil {
			if err := c.appendUnit(c.out[slot], r.ends); err != nil {
				c.setErr(err)
			}
		}
		c.tokens <- struct{}{}
	}
}

// appendUnit appends a unit's chunks and writes their bytes. The unit's
// buffer stands in for the super-chunk's region while its chunks are
// appended, so that they are taken where they lie (as AppendData's are,
// compressed in place) rather than copied; the region lets go of the
// buffer before its slot is freed.
func (c *chunkPipe) appendUnit(out []byte, ends []int) (err error) {
	s := c.s
	if len(s.region) != 0 {
		return fmt.Errorf("%w: %d chunk bytes pending before a unit", ErrInvalidOptions, len(s.region))
	}
	s.region = out[:0]
	defer func() {
		if err != nil {
			s.region = bytes.Clone(s.region) // its slot is about to be reused
		} else {
			s.region = nil
		}
	}()
	start := 0
	for _, end := range ends {
		if err := s.appendChunk(out[start:end]); err != nil {
			return err
		}
		start = end
	}
	if len(s.region) > 0 {
		if _, err := c.dst.WriteAt(s.region, c.hlen+s.pendBase); err != nil {
			return err
		}
		s.pendBase += int64(len(s.region))
		s.region = s.region[:0]
	}
	return nil
}
