package blosc

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/internal/codec"
)

// CompressBound returns the largest chunk Compress can write for n input
// bytes in either format: n plus the header, since a chunk that does not
// compress is stored as a copy.
func CompressBound(n int) int { return n + MaxOverhead }

// Compress writes src as one chunk in the format opts select and returns
// it.
//
// A Blosc2 chunk is what c-blosc2's blosc2_compress_ctx writes into a
// destination of len(src)+32 bytes: its block-size tuner, split rule,
// filter pipeline, byte-run streams and zero-special chunks (see
// compress2).
//
// A Blosc1 chunk is what c-blosc 1.21 writes with the same settings: the same
// block size, split layout and flags, stored as a copy (memcpyed) when the
// level is 0, the input is under 128 bytes or the streams would not be
// smaller than the input. With one thread it is byte for byte C's chunk
// wherever the Go codec writes the C codec's bytes (LZ4 does); the output
// is the same whatever opts.Threads is.
//
// If cap(dst) >= CompressBound(len(src)) the chunk is written into dst's array and no
// memory is allocated (after the first calls have set up encoders);
// otherwise a new buffer is allocated. dst and src must not overlap.
func Compress(dst, src []byte, opts Options) ([]byte, error) {
	p, err := opts.params()
	if err != nil {
		return nil, err
	}
	e := enginePool.Get().(*engine)
	out, err := e.compress(dst, src, &p)
	enginePool.Put(e)
	return out, err
}

func (e *engine) compress(dst, src []byte, p *params) ([]byte, error) {
	if p.format == FormatBlosc2 {
		return e.compress2(dst, src, p)
	}
	nbytes := len(src)
	if nbytes > MaxBufferSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, nbytes)
	}
	maxbytes := nbytes + blosc1HeaderLen
	out := dst[:cap(dst)]
	if len(out) < maxbytes {
		out = make([]byte, maxbytes)
	}
	out = out[:maxbytes]

	l := p.layout(nbytes)
	ntbytes := blosc1HeaderLen
	if !l.memcpyed {
		var err error
		ntbytes, err = e.compressBlocks(out, src, p, &l)
		if err != nil {
			return nil, err
		}
		if ntbytes == 0 {
			// Streams did not fit in the input's size: store a copy,
			// keeping the other flags as c-blosc does.
			l.flags |= flagMemcpyed
			l.memcpyed = true
		}
	}
	if l.memcpyed {
		copy(out[blosc1HeaderLen:], src)
		ntbytes = maxbytes
	}
	out[0] = blosc1Version
	out[1] = versionLZ
	out[2] = l.flags
	out[3] = uint8(p.typesize)
	binary.LittleEndian.PutUint32(out[4:], uint32(nbytes))
	binary.LittleEndian.PutUint32(out[8:], uint32(l.blocksize))
	binary.LittleEndian.PutUint32(out[12:], uint32(ntbytes))
	return out[:ntbytes], nil
}

// compressBlocks writes the offsets and streams of every block into out
// and returns the chunk length, or 0 if it would not fit in len(out).
func (e *engine) compressBlocks(out, src []byte, p *params, l *layout) (int, error) {
	maxbytes := len(out)
	ntbytes := blosc1HeaderLen + 4*l.nblocks
	if ntbytes > maxbytes {
		return 0, nil
	}
	start := 0
	// runtime.GOMAXPROCS takes the runtime's global scheduler lock: ask it
	// only for chunks that may go parallel, not on every small call.
	threads := 1
	if l.nblocks > 1 && e.parallelAt(l.nbytes) {
		threads = resolveThreads(p.threads)
	}
	parallel := threads > 1
	if parallel && int64(blockWorstCase(p, l, l.blocksize, false))*int64(l.nblocks) > math.MaxInt/2 {
		parallel = false // the per-block slots would not be addressable (32-bit)
	}
	if parallel {
		// Each block is compressed with the budgets it would get if
		// everything before it compressed to nothing, into its own slot.
		e.p, e.l, e.src = p, *l, src
		e.stride = blockWorstCase(p, l, l.blocksize, false)
		e.scratch = grow(e.scratch, e.stride*l.nblocks)
		if cap(e.res) < l.nblocks {
			e.res = make([]blockResult, l.nblocks)
		}
		e.res = e.res[:l.nblocks]
		clear(e.res)
		e.commit = blockCommit{out: out, next: 0, pos: ntbytes}
		runBlocks(&e.batch, compressTask{e}, l.nblocks, threads, &e.ws)
		e.src = nil
		// The workers have placed blocks 0..next-1 as the loop below
		// would have; it goes on from there.
		start, ntbytes = e.commit.next, e.commit.pos
		e.commit = blockCommit{}
	}
	for j := start; j < l.nblocks; j++ {
		binary.LittleEndian.PutUint32(out[blosc1HeaderLen+4*j:], uint32(ntbytes))
		bsize := l.blockLen(j)
		lastPartial := j == l.nblocks-1 && l.leftover > 0
		room := maxbytes - ntbytes
		var n int
		// A block done in parallel is what the serial pass would write
		// here only if no budget would have been cut by the room left;
		// otherwise it is redone with the real budgets.
		if parallel && blockWorstCase(p, l, bsize, lastPartial) <= room {
			r := e.res[j]
			if r.err != nil {
				return 0, r.err
			}
			n = r.n
			if n > 0 {
				copy(out[ntbytes:], e.scratch[j*e.stride:j*e.stride+n])
			}
		} else {
			var err error
			n, err = compressBlock(&e.ws, p, l, src[j*l.blocksize:j*l.blocksize+bsize], lastPartial, out[ntbytes:])
			if err != nil {
				return 0, err
			}
		}
		if n == 0 {
			return 0, nil
		}
		ntbytes += n
	}
	return ntbytes, nil
}

type compressTask struct{ e *engine }

func (t compressTask) doBlock(ws *workerState, j int) {
	e := t.e
	l := &e.l
	bsize := l.blockLen(j)
	lastPartial := j == l.nblocks-1 && l.leftover > 0
	out := e.scratch[j*e.stride : (j+1)*e.stride]
	n, err := compressBlock(ws, e.p, l, e.src[j*l.blocksize:j*l.blocksize+bsize], lastPartial, out)
	e.commitBlock(j, blockResult{n: n, err: err, done: true})
}

// blockCommit is the in-order placement of parallel blocks in the chunk.
// A block's place is known only once every block before it is placed.
// Placing them all in one serial pass after the parallel work left the
// other threads idle while it copied: 2.9 ms of a 64 MiB f32_noise LZ4
// chunk, a tenth of its time at two threads. Instead, whoever finishes a
// block places every block that has become placeable while the others go
// on compressing.
type blockCommit struct {
	mu   sync.Mutex
	out  []byte
	next int  // blocks before next are placed
	pos  int  // the chunk's length after them
	stop bool // block next needs the serial pass
}

// commitBlock records block j's result and places the blocks it unblocks.
func (e *engine) commitBlock(j int, r blockResult) {
	c := &e.commit
	l := &e.l
	c.mu.Lock()
	e.res[j] = r
	from, pos := c.next, c.pos
	for !c.stop && c.next < l.nblocks && e.res[c.next].done {
		k := c.next
		rk := e.res[k]
		lastPartial := k == l.nblocks-1 && l.leftover > 0
		// The serial pass's rules: a block whose budget the room left
		// would cut is redone there, an error or a block that does not
		// fit ends the chunk there.
		if rk.err != nil || rk.n == 0 || blockWorstCase(e.p, l, l.blockLen(k), lastPartial) > len(c.out)-c.pos {
			c.stop = true
			break
		}
		binary.LittleEndian.PutUint32(c.out[blosc1HeaderLen+4*k:], uint32(c.pos))
		c.pos += rk.n
		c.next++
	}
	to := c.next
	c.mu.Unlock()
	// The places are fixed: copy outside the lock, concurrently with
	// other placements.
	for k := from; k < to; k++ {
		n := e.res[k].n
		copy(c.out[pos:pos+n], e.scratch[k*e.stride:k*e.stride+n])
		pos += n
	}
}

// blockWorstCase is the most bytes a block's streams can take: each
// stream's size field plus the codec's budget.
func blockWorstCase(p *params, l *layout, bsize int, lastPartial bool) int {
	nsplits := 1
	if l.split && !lastPartial {
		nsplits = p.typesize
	}
	return nsplits * (4 + codec.MaxOut(codec.ID(p.codec), bsize/nsplits))
}

// filterBlock applies the chunk's shuffle to one block as c-blosc 1.x
// does, returning the bytes to compress (in may be returned unchanged).
func filterBlock(ws *workerState, filter Filter, typesize int, in []byte) []byte {
	bsize := len(in)
	switch {
	case filter == ByteShuffle && typesize > 1:
		ws.tmp = grow(ws.tmp, bsize)
		Shuffle(ws.tmp, in, typesize)
		return ws.tmp
	case filter == BitShuffle && bsize >= typesize && (bsize/typesize)%8 == 0:
		ws.tmp = grow(ws.tmp, bsize)
		bitshuffle.Shuffle(ws.tmp, in, typesize)
		return ws.tmp
	}
	return in
}

// compressBlock is c-blosc 1.x's blosc_c: filter one block, then write
// its streams into out, each as an int32 size and the codec's bytes, or the
// raw bytes when the codec does not make them smaller. len(out) is the
// room left in the chunk; each stream's budget is cut to it, as in C, and
// 0 is returned when the block cannot fit.
func compressBlock(ws *workerState, p *params, l *layout, in []byte, lastPartial bool, out []byte) (int, error) {
	data := filterBlock(ws, p.filter, p.typesize, in)
	bsize := len(in)
	nsplits := 1
	if l.split && !lastPartial {
		nsplits = p.typesize
	}
	neblock := bsize / nsplits
	id := codec.ID(p.codec)
	splitFlag := l.flags&flagDontSplit == 0
	pos := 0
	for k := 0; k < nsplits; k++ {
		pos += 4
		maxout := codec.MaxOut(id, neblock)
		if room := len(out) - pos; maxout > room {
			maxout = room
			if maxout <= 0 {
				return 0, nil
			}
		}
		stream := data[k*neblock : (k+1)*neblock]
		cbytes, err := ws.codec.Compress(id, p.clevel, out[pos:pos+maxout], stream, splitFlag)
		if err != nil {
			return 0, fmt.Errorf("blosc: %s: %w", p.codec, err)
		}
		if cbytes == 0 || cbytes == neblock {
			// Not compressible: store the bytes themselves, which a reader
			// recognises by the size.
			if pos+neblock > len(out) {
				return 0, nil
			}
			copy(out[pos:], stream)
			cbytes = neblock
		}
		binary.LittleEndian.PutUint32(out[pos-4:], uint32(cbytes))
		pos += cbytes
	}
	return pos, nil
}
