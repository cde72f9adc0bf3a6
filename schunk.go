package blosc

import (
	"fmt"
	"io"
)

// DefaultChunkSize is the chunk size of a super-chunk whose options leave
// it at 0 (rounded down to whole elements). A 1 MiB chunk fits the 1-2 MiB
// L2 cache of one core of current x86-64 and arm64 servers, so its blocks
// are shuffled and coded while they are cache-resident, and a 64 MiB input
// still makes 64 chunks to spread over the workers; c-blosc2 and
// python-blosc2 likewise size chunks from the cache sizes.
const DefaultChunkSize = 1 << 20

// SChunkOptions configure a new super-chunk.
type SChunkOptions struct {
	// Options are the Blosc2 chunk options every chunk is compressed with
	// (Format is ignored: frames hold Blosc2 chunks). Threads is also the
	// number of chunks worked on at once.
	Options
	// ChunkSize is the size in bytes of every chunk AppendData writes
	// but the last, a multiple of Typesize. 0 takes the size of the first
	// chunk appended, or DefaultChunkSize for data.
	ChunkSize int
}

// ChunkInfo describes one chunk of a super-chunk.
type ChunkInfo struct {
	Index   int     `json:"index"`
	Nbytes  int     `json:"nbytes"`
	Cbytes  int     `json:"cbytes"`
	Special Special `json:"special"`
}

// SChunk is a Blosc2 super-chunk held as a contiguous frame: a sequence of
// Blosc2 chunks of one chunk size (the last may be shorter), with
// fixed-size and variable-length metalayers. It is laid out in memory as
// c-blosc2 lays out an in-memory contiguous frame (the chunk bytes in the
// order they were written, an offsets index, the metalayers), and its
// changes follow c-blosc2's, so that Frame returns the bytes c-blosc2
// writes for the same data and operations.
//
// Any number of goroutines may use an SChunk at once: reads (Chunk,
// DecompressChunk, ReadAt, GetItems, Decompress, the counters and
// metalayer getters) run together, and each change (AppendData,
// UpdateChunk, a whole Batch, ...) runs alone, so that every read sees
// the super-chunk before or after it. docs/concurrency.md has the rules,
// the cross-process lock and Refresh.
type SChunk struct {
	opts      Options
	params    params
	chunkSize int // for AppendData; 0 until known

	hdr frameHeader // header fields kept as read or as they will be written

	// region holds the chunk bytes from region offset pendBase on: all of
	// them for a frame in memory (pendBase 0); for a frame in a file, the
	// chunks written by the change in progress, after the file's bytes.
	region      []byte
	regionOwned bool // region's array may be written in place
	pendBase    int64
	file        *frameFile // the frame's file, nil for a frame in memory
	sparse      *sparseDir // the sparse frame's directory, or nil
	txDepth     int        // nesting of the public changes in progress
	offs        offsetIndex
	offsChunk   []byte // the offsets chunk as read, while the index is unchanged
	// offsSlack is how much larger than the index plus a header the
	// destination was when c-blosc2 last compressed it: after a delete it
	// passes the old index's size, which changes when the chunk falls back
	// to a copy.
	offsSlack int
	varStarts []int64

	vlmeta []metalayer

	// noCompress says why data cannot be compressed with the header's
	// settings (a frame read with a codec this package lacks).
	noCompress error

	// app is the state of a parallel AppendData (its ring of compressed
	// chunks' slots above all), kept for the next.
	app *appendJob

	sy     schunkSync // reads share s, a change has it alone (schunk_sync.go)
	flk    *fileLock  // the cross-process lock, nil without locking
	closer io.Closer  // the file OpenFile opened, for Close
}

// offsetIndex holds each chunk's offset into the region, or a special
// value (bit 63 set) for a chunk stored only in the index. A frame made by
// c-blosc2's fill_special stores one repeated offset for millions of
// chunks: rep keeps that form until a change needs the list.
type offsetIndex struct {
	vals   []int64
	rep    bool
	repVal int64
	n      int
	lazy   *lazyIndex // a frame file's index read as used, until a change
}

func (o *offsetIndex) len() int { return o.n }

// get returns offset i of an index held whole (never lazy: the read paths
// use SChunk.offsetAt, the changes read the index whole first).
func (o *offsetIndex) get(i int) int64 {
	if o.lazy != nil {
		panic("blosc: internal error: offsetIndex.get on a lazily read index")
	}
	if o.rep {
		return o.repVal
	}
	return o.vals[i]
}

func (o *offsetIndex) materialize() {
	if !o.rep {
		return
	}
	o.vals = make([]int64, o.n)
	for i := range o.vals {
		o.vals[i] = o.repVal
	}
	o.rep = false
}

const (
	offsetSpecialBit = -1 << 63
	// The special kind sits in bits 56-58 of an offset with bit 63 set.
	offsetKindShift = 56
)

func specialOffset(kind int) int64 { return offsetSpecialBit | int64(kind)<<offsetKindShift }

// offsetKind returns the special kind coded in a negative offset, or an
// error for a value c-blosc2 does not write.
func offsetKind(off int64) (int, error) {
	kind := int(uint64(off) >> offsetKindShift & 0x7f)
	if off != specialOffset(kind) {
		return 0, fmt.Errorf("%w: chunk offset %#x", ErrCorrupt, uint64(off))
	}
	switch kind {
	case specialZero, specialNaN, specialUninit:
		return kind, nil
	}
	return 0, fmt.Errorf("%w: chunk offset %#x codes special kind %d", ErrCorrupt, uint64(off), kind)
}

// NewSChunk returns an empty super-chunk.
func NewSChunk(opts SChunkOptions) (*SChunk, error) {
	o := opts.Options
	o.Format = FormatBlosc2
	p, err := o.params()
	if err != nil {
		return nil, err
	}
	if o.Codec == Snappy {
		return nil, fmt.Errorf("%w: Blosc2 frames have no Snappy codec", ErrInvalidOptions)
	}
	ts := p.typesize
	if opts.ChunkSize < 0 || opts.ChunkSize > MaxBufferSize || opts.ChunkSize%ts != 0 {
		return nil, fmt.Errorf("%w: chunk size %d (a multiple of typesize %d up to %d)", ErrInvalidOptions, opts.ChunkSize, ts, MaxBufferSize)
	}
	s := &SChunk{opts: o, params: p, chunkSize: opts.ChunkSize, regionOwned: true}
	h := &s.hdr
	h.generalFlags = frameOffsets64 | frameFormatRC1
	h.codecFlags = uint8(o.Codec) | uint8(o.Level)<<4
	if o.Codec >= firstPluginID {
		// c-blosc2 records a plugin codec as the user-codec format here
		// and its id in the udcodec byte.
		h.codecFlags = formatUser | uint8(o.Level)<<4
	}
	h.codecMeta = o.CodecMeta
	split := o.SplitMode
	if split == SplitDefault {
		split = SplitForwardCompat
	}
	h.otherFlags = uint8(split) - 1
	h.typesize = int32(ts)
	h.blocksize = int32(o.Blocksize)
	h.chunksize = -1
	// c-blosc2 records its contexts' thread counts; 1 keeps the frame's
	// bytes the same whatever Threads is.
	h.tcomp, h.tdecomp = 1, 1
	h.nfilters = MaxFilters
	for i := range o.Filters {
		h.filters[i] = uint8(o.Filters[i])
		h.filterMeta[i] = o.FilterMeta[i]
	}
	h.udcodec = uint8(o.Codec)
	if o.Dict {
		h.otherFlags2 = frameUseDict
	}
	return s, nil
}

// Nchunks returns the number of chunks.
func (s *SChunk) Nchunks() int {
	defer s.runlock(s.rlock())
	return s.nchunks()
}

func (s *SChunk) nchunks() int { return s.offs.len() }

// Nbytes returns the uncompressed size of all chunks.
func (s *SChunk) Nbytes() int64 {
	defer s.runlock(s.rlock())
	return s.nbytes()
}

func (s *SChunk) nbytes() int64 { return s.hdr.nbytes }

// Cbytes returns the bytes of chunk data the frame holds, including bytes
// left unreferenced by updates and deletes, as c-blosc2 counts them.
func (s *SChunk) Cbytes() int64 {
	defer s.runlock(s.rlock())
	return s.cbytes()
}

func (s *SChunk) cbytes() int64 { return s.regionLen() }

// regionLen is the length of the chunk bytes, the header's cbytes.
func (s *SChunk) regionLen() int64 {
	if s.sparse != nil {
		return s.sparse.cbytes
	}
	if s.file != nil && !s.file.dirty {
		return s.file.region
	}
	return s.pendBase + int64(len(s.region))
}

// Typesize returns the element size.
func (s *SChunk) Typesize() int {
	defer s.runlock(s.rlock())
	return s.typesize()
}

func (s *SChunk) typesize() int { return int(s.hdr.typesize) }

// ChunkSize returns the chunk size: the frame header's (-1 before the
// first chunk, 0 for frames of variable-size chunks c-blosc2 wrote).
func (s *SChunk) ChunkSize() int {
	defer s.runlock(s.rlock())
	return s.headerChunkSize()
}

func (s *SChunk) headerChunkSize() int { return int(s.hdr.chunksize) }

// Options returns the chunk options changes compress with.
func (s *SChunk) Options() Options {
	defer s.runlock(s.rlock())
	return s.options()
}

func (s *SChunk) options() Options { return s.opts }

// fixed reports whether every chunk but the last holds ChunkSize bytes.
func (s *SChunk) fixed() bool { return s.hdr.chunksize > 0 }

// chunkSpan returns the first byte of chunk i's data and its size.
func (s *SChunk) chunkSpan(i int) (int64, int) {
	if !s.fixed() {
		return s.varStarts[i], int(s.varStarts[i+1] - s.varStarts[i])
	}
	cs := int64(s.hdr.chunksize)
	start := int64(i) * cs
	return start, int(min(cs, s.hdr.nbytes-start))
}

// chunkAt returns the index of the chunk holding data byte off.
func (s *SChunk) chunkAt(off int64) int {
	if s.fixed() {
		return int(off / int64(s.hdr.chunksize))
	}
	lo, hi := 0, len(s.varStarts)-1
	for lo+1 < hi {
		m := (lo + hi) / 2
		if s.varStarts[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// typesize64 is Typesize as an int64.
func (s *SChunk) typesize64() int64 { return int64(s.hdr.typesize) }
