package blosc

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/internal/codec"
)

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
		copyOut(out[blosc1HeaderLen:], src, false)
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
	ntbytes := blosc1HeaderLen + 4*l.nblocks
	if ntbytes > len(out) {
		return 0, nil
	}
	c := &e.c1
	c.p, c.l, c.src = p, *l, src
	e.blocks.begin(out, blosc1HeaderLen, ntbytes, l.nblocks,
		blockWorstCase(p, l, l.blocksize, false),
		blockWorstCase(p, l, l.blockLen(l.nblocks-1), l.leftover > 0))
	n, err := e.writeBlocks(c, e.blockThreads(p.threads, l.nblocks, l.nbytes, p.codec))
	*c = compress1Call{}
	return n, err
}

// compress1Call is the Blosc1 chunk being compressed.
type compress1Call struct {
	p   *params
	l   layout
	src []byte
}

func (c *compress1Call) encodeBlock(ws *workerState, j int, out []byte) (int, error) {
	l := &c.l
	bsize := l.blockLen(j)
	lastPartial := j == l.nblocks-1 && l.leftover > 0
	return compressBlock(ws, c.p, l, c.src[j*l.blocksize:j*l.blocksize+bsize], lastPartial, out)
}

// blockThreads is how many goroutines a chunk's blocks get.
func (e *engine) blockThreads(opt, nblocks, nbytes int, c Codec) int {
	// runtime.GOMAXPROCS takes the runtime's global scheduler lock: ask it
	// only for chunks that may go parallel, not on every small call.
	if nblocks > 1 && e.parallelAt(nbytes, c, true) {
		return resolveThreads(opt)
	}
	return 1
}

// blockCoder writes one block's streams in its chunk format (blosc_c).
type blockCoder interface {
	// encodeBlock writes block j's streams into out, each budget cut to
	// the room len(out) leaves, and returns their length, 0 if they do
	// not fit.
	encodeBlock(ws *workerState, j int, out []byte) (int, error)
}

// blockWriter places the blocks of a chunk in either format: block j's
// offset goes at table+4*j and its streams right after block j-1's.
// Serially, each block is compressed in place with the room left as its
// budget. In parallel, each block is compressed into its own slot with the
// budgets it would get if everything before it compressed to nothing; that
// is the serial result wherever the room left would not have cut those
// budgets, and the serial pass redoes the block otherwise.
//
// A block's place is known only once every block before it is placed.
// Placing them all in one serial pass after the parallel work left the
// other threads idle while it copied, a visible share of a 64 MiB chunk's
// time at two threads (BenchmarkBlosc2Threads in blosc2_bench_test.go).
// Instead, whoever finishes a
// block places every block that has become placeable while the others go
// on compressing.
//
// An engine keeps one from call to call for its slots.
type blockWriter struct {
	out       []byte
	table     int // where the block offsets start in out
	nblocks   int
	worst     int // the room a block needs for uncut budgets
	worstLast int // the same for the last block

	// Parallel only.
	coder   blockCoder
	scratch []byte // block j's slot at j*stride
	stride  int
	mu      sync.Mutex
	res     []blockResult // guarded by mu until the batch ends
	next    int           // blocks before next are placed (mu)
	pos     int           // the chunk's length after them (mu)
	stop    bool          // block next needs the serial pass (mu)
}

func (w *blockWriter) begin(out []byte, table, pos, nblocks, worst, worstLast int) {
	w.out, w.table, w.pos, w.nblocks = out, table, pos, nblocks
	w.worst, w.worstLast = worst, worstLast
	w.next, w.stop = 0, false
}

func (w *blockWriter) worstCase(j int) int {
	if j == w.nblocks-1 {
		return w.worstLast
	}
	return w.worst
}

func (w *blockWriter) slot(j int) []byte { return w.scratch[j*w.stride : (j+1)*w.stride] }

// writeBlocks places every block of the chunk begun in e.blocks, encoded
// by coder, and returns the chunk length, or 0 if it would not fit.
func (e *engine) writeBlocks(coder blockCoder, threads int) (int, error) {
	w := &e.blocks
	defer func() { w.out = nil }()
	start := 0
	stride := max(w.worst, w.worstLast)
	parallel := threads > 1 && w.nblocks > 1 &&
		int64(stride)*int64(w.nblocks) <= math.MaxInt/2 // else the slots would not be addressable (32-bit)
	if parallel {
		w.stride = stride
		w.scratch = grow(w.scratch, stride*w.nblocks)
		if cap(w.res) < w.nblocks {
			w.res = make([]blockResult, w.nblocks)
		}
		w.res = w.res[:w.nblocks]
		clear(w.res)
		w.coder = coder
		runBlocks(&e.batch, compressTask{w}, w.nblocks, threads, &e.ws)
		w.coder = nil
		// The workers have placed blocks 0..next-1 as the loop below
		// would have; it goes on from there.
		start = w.next
	}
	out, pos := w.out, w.pos
	for j := start; j < w.nblocks; j++ {
		binary.LittleEndian.PutUint32(out[w.table+4*j:], uint32(pos))
		var n int
		if parallel && w.worstCase(j) <= len(out)-pos {
			r := w.res[j]
			if r.err != nil {
				return 0, r.err
			}
			n = copy(out[pos:], w.slot(j)[:r.n])
		} else {
			var err error
			n, err = coder.encodeBlock(&e.ws, j, out[pos:])
			if err != nil {
				return 0, err
			}
		}
		if n == 0 {
			return 0, nil
		}
		pos += n
	}
	return pos, nil
}

type compressTask struct{ w *blockWriter }

func (t compressTask) doBlock(ws *workerState, j int) {
	w := t.w
	n, err := w.coder.encodeBlock(ws, j, w.slot(j))
	w.place(j, blockResult{n: n, err: err, done: true})
}

// place records block j's result and places the blocks it unblocks.
func (w *blockWriter) place(j int, r blockResult) {
	w.mu.Lock()
	w.res[j] = r
	from, pos := w.next, w.pos
	for !w.stop && w.next < w.nblocks && w.res[w.next].done {
		k := w.next
		rk := w.res[k]
		// The serial pass's rules: a block whose budget the room left
		// would cut is redone there, an error or a block that does not
		// fit ends the chunk there.
		if rk.err != nil || rk.n == 0 || w.worstCase(k) > len(w.out)-w.pos {
			w.stop = true
			break
		}
		binary.LittleEndian.PutUint32(w.out[w.table+4*k:], uint32(w.pos))
		w.pos += rk.n
		w.next++
	}
	to := w.next
	w.mu.Unlock()
	// The places are fixed: copy outside the lock, concurrently with
	// other placements.
	for k := from; k < to; k++ {
		n := w.res[k].n
		copy(w.out[pos:pos+n], w.scratch[k*w.stride:k*w.stride+n])
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
// its streams into out. len(out) is the room left in the chunk; 0 is
// returned when the block cannot fit.
func compressBlock(ws *workerState, p *params, l *layout, in []byte, lastPartial bool, out []byte) (int, error) {
	data := filterBlock(ws, p.filter, p.typesize, in)
	nsplits := 1
	if l.split && !lastPartial {
		nsplits = p.typesize
	}
	sc := streamCoder{codec: p.codec, clevel: p.clevel, split: l.flags&flagDontSplit == 0}
	return sc.write(ws, out, data, nsplits)
}

// streamCoder writes the streams of a filtered block in either format.
type streamCoder struct {
	codec  Codec
	clevel int
	split  bool // the chunk's split flag, which the LZ4 and BloscLZ encoders read
	// blosc2 writes a stream of one repeated byte as a run and BloscLZ
	// as c-blosc2's BloscLZ 2.5.3, which writes other bytes than c-blosc
	// 1.21's 2.5.1.
	blosc2 bool
	zenc   *zstdDictEncoder // Blosc2 with a dictionary
	// Blosc2 plugin codecs: what CodecParams passes on.
	codecMeta uint8
	typesize  int
}

// writeRun writes stream into out as a run if every byte of it is the
// same, returning whether it is one and the bytes written, 0 if they do
// not fit. It is kept out of write, whose many live values would
// otherwise push the scan's registers to the stack (arange_i64 blocks,
// mostly zero runs after the shuffle, show it in BenchmarkCompress).
func writeRun(out, stream []byte) (n int, run bool) {
	if !isRun(stream) {
		return 0, false
	}
	v := stream[0]
	if runStreamLen(v) > len(out) {
		return 0, true
	}
	return putRun(out, v), true
}

// write splits data into ns equal streams and writes each into out as an
// int32 size and the codec's bytes, or the bytes themselves when the codec
// does not make them smaller (a reader recognises them by the size).
// Each stream's budget is cut to the room left, as in C; 0 is returned
// when the streams do not fit.
func (sc *streamCoder) write(ws *workerState, out, data []byte, ns int) (int, error) {
	neblock := len(data) / ns
	id := codec.ID(sc.codec)
	pos := 0
	for k := 0; k < ns; k++ {
		stream := data[k*neblock : (k+1)*neblock]
		if sc.blosc2 {
			if n, run := writeRun(out[pos:], stream); run {
				if n == 0 {
					return 0, nil
				}
				pos += n
				continue
			}
		}
		pos += 4
		maxout := min(codec.MaxOut(id, neblock), len(out)-pos)
		if maxout <= 0 {
			return 0, nil
		}
		dst := out[pos : pos+maxout]
		var cbytes int
		var err error
		switch {
		case sc.zenc != nil:
			cbytes = sc.zenc.compress(dst, stream)
		case sc.blosc2 && sc.codec == BloscLZ:
			cbytes = ws.codec.CompressBloscLZ2(dst, stream, sc.clevel)
		case sc.codec >= firstPluginID:
			cbytes, err = sc.compressPlugin(dst, stream)
		default:
			cbytes, err = ws.codec.Compress(id, sc.clevel, dst, stream, sc.split)
		}
		if err != nil {
			return 0, fmt.Errorf("blosc: %s: %w", sc.codec, err)
		}
		if cbytes == 0 || cbytes == neblock {
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

// compressPlugin compresses one stream with a registered codec.
func (sc *streamCoder) compressPlugin(dst, stream []byte) (int, error) {
	e := lookupCodec(sc.codec)
	if e == nil {
		return 0, unsupportedCodec(uint8(sc.codec))
	}
	n, err := e.c.Compress(dst, stream, CodecParams{Meta: sc.codecMeta, Level: sc.clevel, Typesize: sc.typesize})
	if err != nil {
		return 0, err
	}
	if n < 0 || n > len(dst) {
		return 0, fmt.Errorf("%w: codec %d (%s) returned %d bytes for a %d-byte buffer", ErrShortBuffer, uint8(sc.codec), e.name, n, len(dst))
	}
	if n >= len(stream) {
		return 0, nil // stored as it is
	}
	return n, nil
}
