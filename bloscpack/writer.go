package bloscpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/goblosc/blosc"
)

// DefaultChunkSize is the reference's default chunk size, 1 MiB.
const DefaultChunkSize = 1 << 20

// Options configure writing a file.
type Options struct {
	// Blosc compresses each chunk; its Format is ignored (Bloscpack holds
	// Blosc1 chunks) and its Typesize also goes to the file header.
	Blosc blosc.Options
	// ChunkSize is the uncompressed size of each chunk; 0 means 1 MiB.
	ChunkSize int
	Checksum  Checksum
	// Offsets writes the offsets table; it needs the input size and a
	// destination that can seek back (io.WriterAt or io.WriteSeeker).
	Offsets bool
	// MaxAppChunks is the number of free slots kept for Append; a
	// negative value means ten times the chunk count (the reference's
	// default). Only with Offsets.
	MaxAppChunks int64
	// Metadata, when set, is stored in a metadata section.
	Metadata *Metadata
	Meta     MetaOptions
	// Threads is the number of chunks compressed at once; 0 means
	// runtime.GOMAXPROCS(0). The file is the same at any value.
	Threads int
}

// DefaultOptions are the reference's (blpk compress): BloscLZ level 7,
// byte shuffle, typesize 8, 1 MiB chunks, adler32, offsets with ten times
// the chunk count free for appending, metadata zlib-compressed with
// adler32.
func DefaultOptions() Options {
	o := Options{
		Blosc:        blosc.Options{Codec: blosc.BloscLZ, Level: 7, Typesize: 8},
		ChunkSize:    DefaultChunkSize,
		Checksum:     Adler32,
		Offsets:      true,
		MaxAppChunks: -1,
		Meta:         DefaultMetaOptions(),
	}
	o.Blosc.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
	return o
}

// chunking is the reference's calculate_nchunks: an empty input is one
// empty chunk; a chunk size above the input is cut down to it.
func chunking(size int64, chunkSize int) (n int64, cs, last int) {
	if size == 0 {
		return 1, 0, 0
	}
	c := int64(chunkSize)
	if c > size {
		c = size
	}
	n = (size + c - 1) / c
	last = int(size - (n-1)*c)
	return n, int(c), last
}

// Writer packs a stream into a Bloscpack file. Chunks are compressed by a
// bounded set of goroutines, at most 2×Threads chunks in memory, and
// written in order. Close flushes the last chunk, fills in the offsets
// and header, and stops the goroutines; it reports the first error.
type Writer struct {
	w    io.Writer
	at   io.WriterAt
	ws   io.WriteSeeker
	o    Options
	size int64 // -1: unknown

	h       Header
	chunkSz int
	start   int64 // where the file starts in w (WriteSeeker)
	pos     int64 // bytes written
	table   int64 // offsets table position
	offsets []int64

	buf     []byte
	written int64
	nextSeq int64

	threads int
	jobs    chan *job
	wg      sync.WaitGroup
	pending []*job
	single  *worker
	err     error
	closed  bool
}

type job struct {
	seq      int64
	in       []byte
	borrowed bool // in is the caller's: done before Write returns
	out      []byte
	err      error
	done     chan struct{}
}

type worker struct {
	opts blosc.Options
	c    *blosc.Compressor
	hs   *hasher
}

// Jobs (with their buffers) and workers (with their compressors' tables)
// outlive a Writer, so packing many files does not allocate them anew.
var (
	jobPool    sync.Pool
	workerPool sync.Pool
)

func getJob() *job {
	if j, ok := jobPool.Get().(*job); ok {
		return j
	}
	return &job{}
}

func putJob(j *job) {
	if j.borrowed {
		j.in = nil
	}
	j.borrowed, j.err, j.done = false, nil, nil
	jobPool.Put(j)
}

func getWorker(o blosc.Options, c Checksum) (*worker, error) {
	wk, _ := workerPool.Get().(*worker)
	if wk == nil || wk.opts != o {
		comp, err := blosc.NewCompressor(o)
		if err != nil {
			return nil, err
		}
		wk = &worker{opts: o, c: comp}
	}
	if wk.hs == nil || wk.hs.c != c {
		wk.hs = newHasher(c)
	}
	return wk, nil
}

func (wk *worker) run(j *job) {
	out, err := wk.c.Compress(j.out[:0], j.in)
	if err == nil {
		out = wk.hs.sum(out, out)
	}
	j.out, j.err = out, err
}

// NewWriter starts a file of size bytes (negative: unknown) on w. With an
// unknown size the chunk count is unknown: the offsets table cannot be
// sized, so Offsets must be off, and the header's nchunks and last_chunk
// stay -1 (the format's marker for a stream) unless w can seek back.
func NewWriter(w io.Writer, size int64, o Options) (*Writer, error) {
	if o.ChunkSize == 0 {
		o.ChunkSize = DefaultChunkSize
	}
	if o.ChunkSize < 1 || o.ChunkSize > maxChunkSize {
		return nil, invalidf("chunk size %d (want 1..%d)", o.ChunkSize, maxChunkSize)
	}
	if o.Checksum >= numChecksums {
		return nil, invalidf("checksum id %d", o.Checksum)
	}
	o.Blosc.Format = blosc.FormatBlosc1
	if o.Blosc.Typesize == 0 {
		o.Blosc.Typesize = 1
	}
	if o.Threads < 0 {
		return nil, invalidf("threads %d", o.Threads)
	}
	z := &Writer{w: w, o: o, size: size}
	z.at, _ = w.(io.WriterAt)
	if z.at == nil {
		z.ws, _ = w.(io.WriteSeeker)
	}
	if o.Offsets && size < 0 {
		return nil, invalidf("offsets need the input size in advance")
	}
	if o.Offsets && z.at == nil && z.ws == nil {
		return nil, invalidf("offsets need a destination that can seek back (io.WriterAt or io.WriteSeeker)")
	}
	if z.ws != nil {
		p, err := z.ws.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, fmt.Errorf("bloscpack: %w", err)
		}
		z.start = p
	}
	h := Header{Version: FormatVersion, Offsets: o.Offsets, Metadata: o.Metadata != nil,
		Checksum: o.Checksum, Typesize: o.Blosc.Typesize, ChunkSize: o.ChunkSize, LastChunk: -1, NChunks: -1}
	z.chunkSz = o.ChunkSize
	if size >= 0 {
		n, cs, last := chunking(size, o.ChunkSize)
		h.NChunks, h.ChunkSize, h.LastChunk = n, cs, last
		if cs > 0 {
			z.chunkSz = cs
		}
		if o.Offsets {
			h.MaxAppChunks = o.MaxAppChunks
			if h.MaxAppChunks < 0 {
				h.MaxAppChunks = 10 * n
			}
			if h.MaxAppChunks > 1<<62-n {
				return nil, invalidf("max_app_chunks %d", o.MaxAppChunks)
			}
		}
	}
	z.h = h
	// Check the Blosc options before writing anything.
	if _, err := blosc.NewCompressor(o.Blosc); err != nil {
		return nil, err
	}
	var err error
	var meta []byte
	if o.Metadata != nil {
		meta, _, err = encodeMetadata(o.Metadata, o.Meta)
		if err != nil {
			return nil, err
		}
	}
	z.threads = o.Threads
	if z.threads == 0 {
		z.threads = runtime.GOMAXPROCS(0)
	}
	if z.threads == 1 {
		if z.single, err = getWorker(o.Blosc, o.Checksum); err != nil {
			return nil, err
		}
	}
	if err := z.write(h.encode()); err != nil {
		return nil, err
	}
	if err := z.write(meta); err != nil {
		return nil, err
	}
	z.table = z.pos
	if slots := h.slots(); slots > 0 {
		// -1 in every slot until the chunks are written, as the reference.
		neg := make([]byte, 8*min(slots, 1<<13))
		for i := range neg {
			neg[i] = 0xff
		}
		for left := slots; left > 0; {
			k := min(left, int64(len(neg)/8))
			if err := z.write(neg[:8*k]); err != nil {
				return nil, err
			}
			left -= k
		}
	}
	return z, nil
}

func (z *Writer) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	n, err := z.w.Write(b)
	z.pos += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}

// Write buffers p and submits every full chunk for compression. Whole
// chunks of p are compressed where they are, without a copy; Write then
// waits for them before it returns, as io.Writer requires.
func (z *Writer) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.closed {
		return 0, fmt.Errorf("bloscpack: write after Close")
	}
	if z.size >= 0 && int64(len(p)) > z.size-z.written {
		z.err = invalidf("more than the %d bytes the writer was created for", z.size)
		return 0, z.err
	}
	n := 0
	borrowed := false
	for len(p) > 0 {
		if len(z.buf) == 0 && len(p) >= z.chunkSz {
			if err := z.submit(p[:z.chunkSz], true); err != nil {
				return n, err
			}
			p, n, z.written, borrowed = p[z.chunkSz:], n+z.chunkSz, z.written+int64(z.chunkSz), true
			continue
		}
		if z.buf == nil {
			z.buf = z.newBuf()
		}
		k := min(len(p), z.chunkSz-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		n += k
		z.written += int64(k)
		if len(z.buf) == z.chunkSz {
			b := z.buf
			z.buf = nil
			if err := z.submit(b, false); err != nil {
				return n, err
			}
		}
	}
	if borrowed {
		for len(z.pending) > 0 {
			if err := z.emitOldest(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

func (z *Writer) newBuf() []byte {
	if b, ok := bufPool.Get().(*[]byte); ok && cap(*b) >= z.chunkSz {
		return (*b)[:0]
	}
	return make([]byte, 0, z.chunkSz)
}

var bufPool sync.Pool

func recycleBuf(b []byte) {
	b = b[:0]
	bufPool.Put(&b)
}

// submit hands a chunk to a worker, first writing out the oldest chunks
// while too many are in flight.
func (z *Writer) submit(in []byte, borrowed bool) error {
	j := getJob()
	j.seq, j.in, j.borrowed, j.err = z.nextSeq, in, borrowed, nil
	z.nextSeq++
	if z.single != nil {
		z.single.run(j)
		return z.emit(j)
	}
	if z.jobs == nil {
		z.jobs = make(chan *job, z.threads)
		for t := 0; t < z.threads; t++ {
			wk, err := getWorker(z.withThreads(1), z.o.Checksum)
			if err != nil {
				return err
			}
			z.wg.Add(1)
			go func() {
				defer z.wg.Done()
				defer workerPool.Put(wk)
				for j := range z.jobs {
					wk.run(j)
					close(j.done)
				}
			}()
		}
	}
	j.done = make(chan struct{})
	z.pending = append(z.pending, j)
	z.jobs <- j
	for len(z.pending) >= 2*z.threads {
		if err := z.emitOldest(); err != nil {
			return err
		}
	}
	return nil
}

func (z *Writer) withThreads(t int) blosc.Options {
	o := z.o.Blosc
	o.Threads = t
	return o
}

func (z *Writer) emitOldest() error {
	j := z.pending[0]
	<-j.done
	z.pending = z.pending[1:]
	return z.emit(j)
}

// emit writes a compressed chunk and its digest, recording its offset.
func (z *Writer) emit(j *job) error {
	defer func() {
		if !j.borrowed {
			recycleBuf(j.in)
		}
		putJob(j)
	}()
	if z.err != nil {
		return z.err
	}
	if j.err != nil {
		z.err = fmt.Errorf("bloscpack: chunk %d: %w", j.seq, j.err)
		return z.err
	}
	if z.h.Offsets {
		z.offsets = append(z.offsets, z.pos)
	}
	if err := z.write(j.out); err != nil {
		z.err = err
		return err
	}
	return nil
}

// Close writes the last chunk, the offsets and the final header. It
// returns the first error of the whole stream and leaves no goroutine
// running.
func (z *Writer) Close() error {
	if z.closed {
		return z.err
	}
	z.closed = true
	if z.err == nil {
		switch {
		case z.size >= 0 && z.written != z.size:
			z.err = invalidf("%d bytes written, the writer was created for %d", z.written, z.size)
		case len(z.buf) > 0 || z.nextSeq == 0:
			if z.buf == nil {
				z.buf = z.newBuf()
			}
			b := z.buf
			z.buf = nil
			z.submit(b, false)
		}
	}
	for len(z.pending) > 0 {
		z.emitOldest()
	}
	if z.jobs != nil {
		close(z.jobs)
		z.wg.Wait()
		z.jobs = nil
	}
	if z.single != nil {
		workerPool.Put(z.single)
		z.single = nil
	}
	if z.err != nil {
		return z.err
	}
	if z.size < 0 {
		last := int(z.written - (z.nextSeq-1)*int64(z.chunkSz))
		z.h.NChunks, z.h.LastChunk = z.nextSeq, last
		if z.nextSeq == 1 {
			z.h.ChunkSize = last
		}
		if z.at == nil && z.ws == nil {
			return nil // a pure stream keeps the -1 markers
		}
		z.err = z.patch(0, z.h.encode())
		return z.err
	}
	if z.h.Offsets {
		b := make([]byte, 8*len(z.offsets))
		for i, o := range z.offsets {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(o))
		}
		z.err = z.patch(z.table, b)
	}
	return z.err
}

// patch overwrites bytes already written at file position p.
func (z *Writer) patch(p int64, b []byte) error {
	if z.at != nil {
		if _, err := z.at.WriteAt(b, z.start+p); err != nil {
			return fmt.Errorf("bloscpack: %w", err)
		}
		return nil
	}
	if _, err := z.ws.Seek(z.start+p, io.SeekStart); err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	_, err := z.ws.Write(b)
	if _, err2 := z.ws.Seek(z.start+z.pos, io.SeekStart); err == nil {
		err = err2
	}
	if err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}

// memFile is an in-memory destination that can seek back.
type memFile struct{ b []byte }

func (m *memFile) Write(p []byte) (int, error) { m.b = append(m.b, p...); return len(p), nil }

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(m.b)) || int64(len(p)) > int64(len(m.b))-off {
		return 0, errors.New("write past the end")
	}
	return copy(m.b[off:], p), nil
}

// Pack returns src packed into a file.
func Pack(src []byte, o Options) ([]byte, error) {
	m := &memFile{b: make([]byte, 0, len(src)/2+1024)}
	w, err := NewWriter(m, int64(len(src)), o)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(src); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return m.b, nil
}
