package blosc

// Appending data: compressed into chunks in parallel, and runs of special
// values.

import (
	"fmt"
	"math"
	"sync"
)

// AppendData appends p, compressed into chunks of the chunk size. A short
// last chunk is first refilled (decoded, extended and compressed again),
// so every chunk but the last holds exactly the chunk size. Chunks are
// compressed several at once (Options.Threads); the frame is the same
// whatever the thread count.
func (s *SChunk) AppendData(p []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.appendData(p)
}

func (s *SChunk) appendData(p []byte) (err error) {
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
			if _, err := s.decompressChunk(buf[:size], n-1); err != nil {
				return err
			}
			copy(buf[size:], p[:take])
			c, err := s.compressOne(buf)
			if err != nil {
				return err
			}
			if err := s.updateChunk(n-1, c); err != nil {
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
		if err := s.appendChunk(c); err != nil {
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
	return s.appendChunk(c)
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
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.appendSpecial(kind, nitems, value)
}

func (s *SChunk) appendSpecial(kind Special, nitems int64, value []byte) (err error) {
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
			if err := s.appendData(buf); err != nil {
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
			if err := s.appendData(buf[:k]); err != nil {
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
		if err := s.appendChunk(full); err != nil {
			return err
		}
	}
	if total > 0 {
		if short, err = mk(int(total)); err != nil {
			return err
		}
		return s.appendChunk(short)
	}
	return nil
}

// fillValue writes into buf the bytes of a special run from its byte lo.
func (s *SChunk) fillValue(buf []byte, kind Special, value []byte, lo int64) {
	h := header2{typesize: uint8(s.hdr.typesize), b2flags: uint8(kind) << b2SpecialShift, cbytes: header2Len + len(value)}
	src := append(make([]byte, header2Len), value...)
	_ = expandSpecialAt(buf, &h, src, int(lo%s.typesize64()))
}
