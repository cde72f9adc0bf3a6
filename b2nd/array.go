// Package b2nd reads and writes N-dimensional arrays stored as Blosc2
// super-chunks the way c-blosc2's b2nd API and python-blosc2's NDArray
// store them (.b2nd files): a contiguous or sparse frame whose "b2nd"
// metalayer gives the shape, the chunk shape, the block shape and the
// NumPy dtype, each chunk and block padded to those shapes.
//
// Reads decode only the chunks, and within them the blocks, that a slice
// touches; a frame opened from a file reads those chunks' bytes only.
package b2nd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/goblosc/blosc"
)

// Array is an N-dimensional array held in a Blosc2 super-chunk.
//
// Reads (GetSlice, Read and the getters) may run concurrently with each
// other; a change must not run concurrently with anything else.
type Array struct {
	sc      *blosc.SChunk
	meta    Meta
	g       *geom
	file    *os.File // opened by Open or Create, closed by Close
	opts    blosc.Options
	chunk   []byte    // a change's chunk buffers, one a thread, kept for the next
	comps   [][]byte  // and its compressed chunks
	readers sync.Pool // of *sliceReader
}

// FromSChunk returns the array a super-chunk holds: it must have a b2nd
// (or Caterva) metalayer whose shapes agree with its chunks.
func FromSChunk(sc *blosc.SChunk) (*Array, error) {
	raw, err := sc.Metalayer(MetaName)
	if errors.Is(err, blosc.ErrNotFound) {
		raw, err = sc.Metalayer(legacyMetaName)
	}
	if err != nil {
		return nil, fmt.Errorf("b2nd: %w", err)
	}
	m, err := ParseMeta(raw)
	if err != nil {
		return nil, err
	}
	a := &Array{sc: sc, meta: m}
	if err := a.setGeom(); err != nil {
		return nil, err
	}
	return a, nil
}

// setGeom lays the array out from its metalayer and checks that the
// super-chunk holds the chunks that layout needs.
func (a *Array) setGeom() error {
	m := &a.meta
	g, err := newGeom(m.Shape, m.ChunkShape, m.BlockShape, a.sc.Typesize())
	if err != nil {
		return fmt.Errorf("%w: b2nd metalayer: %v", blosc.ErrCorrupt, err)
	}
	sc := a.sc
	if int64(sc.Nchunks()) != g.nchunks {
		return fmt.Errorf("%w: the b2nd array of shape %v in chunks of %v needs %d chunks; the frame holds %d", blosc.ErrCorrupt, m.Shape, m.ChunkShape, g.nchunks, sc.Nchunks())
	}
	if g.nchunks > 0 {
		if sc.Nbytes() != g.nchunks*int64(g.chunkBytes) || sc.ChunkSize() != g.chunkBytes {
			return fmt.Errorf("%w: the b2nd array needs %d chunks of %d bytes; the frame holds %d bytes in chunks of %d", blosc.ErrCorrupt, g.nchunks, g.chunkBytes, sc.Nbytes(), sc.ChunkSize())
		}
	}
	a.g = g
	a.opts = sc.Options()
	a.opts.Format = blosc.FormatBlosc2
	a.opts.Typesize = g.itemsize
	a.opts.Blocksize = g.blockBytes
	return nil
}

// Open opens the array in a frame file, or in a sparse frame's directory,
// for reading; chunks are read from the file as they are used. Close
// releases the file.
func Open(name string) (*Array, error) { return openFile(name, false) }

// OpenWritable opens the array in a frame file or sparse frame's
// directory for reading and changing in place; changes go through the
// frame layer's crash-safe changes. Close releases the file.
func OpenWritable(name string) (*Array, error) { return openFile(name, true) }

func openFile(name string, writable bool) (*Array, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		open := blosc.OpenSparseFrame
		if writable {
			open = blosc.OpenSparseFrameWritable
		}
		sc, err := open(name)
		if err != nil {
			return nil, err
		}
		return FromSChunk(sc)
	}
	flag := os.O_RDONLY
	if writable {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		return nil, err
	}
	var sc *blosc.SChunk
	if writable {
		sc, err = blosc.OpenFrameFile(f)
	} else {
		sc, err = blosc.OpenFrame(f, st.Size())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	a, err := FromSChunk(sc)
	if err != nil {
		f.Close()
		return nil, err
	}
	a.file = f
	return a, nil
}

// OpenFrameFile opens the array in the frame that fills f for reading and
// changing in place (a change a crash interrupted is rolled back first,
// as blosc.OpenFrameFile does).
func OpenFrameFile(f blosc.WritableFile) (*Array, error) {
	sc, err := blosc.OpenFrameFile(f)
	if err != nil {
		return nil, err
	}
	return FromSChunk(sc)
}

// OpenReaderAt opens the read-only array in the frame of size bytes r
// holds, reading chunks as they are used.
func OpenReaderAt(r io.ReaderAt, size int64) (*Array, error) {
	sc, err := blosc.OpenFrame(r, size)
	if err != nil {
		return nil, err
	}
	return FromSChunk(sc)
}

// OpenBytes opens the read-only array in the frame b holds; b must not
// change while the array is in use.
func OpenBytes(b []byte) (*Array, error) {
	sc, err := blosc.OpenFrameBytes(b)
	if err != nil {
		return nil, err
	}
	return FromSChunk(sc)
}

// Close closes the file Open, OpenFile or Create opened, if any.
func (a *Array) Close() error {
	if a.file == nil {
		return nil
	}
	err := a.file.Close()
	a.file = nil
	return err
}

// SetThreads sets how many chunks a read decodes at once, and how many
// blocks a write compresses at once (0: runtime.GOMAXPROCS; an opened
// array starts at 0, a created one at its Options.Threads).
func (a *Array) SetThreads(n int) { a.opts.Threads = max(n, 0) }

// SChunk returns the super-chunk that holds the array.
func (a *Array) SChunk() *blosc.SChunk { return a.sc }

// NDim returns the number of dimensions (0 for a scalar).
func (a *Array) NDim() int { return len(a.meta.Shape) }

// Shape returns the array's shape.
func (a *Array) Shape() []int64 { return slices.Clone(a.meta.Shape) }

// ChunkShape returns the shape of the array's chunks.
func (a *Array) ChunkShape() []int32 { return slices.Clone(a.meta.ChunkShape) }

// BlockShape returns the shape of the chunks' blocks.
func (a *Array) BlockShape() []int32 { return slices.Clone(a.meta.BlockShape) }

// DType returns the NumPy dtype string ("<f8", "|S5", a structured
// dtype's descr), or "" when the metalayer holds none.
func (a *Array) DType() string { return a.meta.DType }

// Meta returns the array's metalayer as read or written.
func (a *Array) Meta() Meta {
	m := a.meta
	m.Shape, m.ChunkShape, m.BlockShape = a.Shape(), a.ChunkShape(), a.BlockShape()
	return m
}

// Itemsize returns the size of an element in bytes (the super-chunk's
// typesize, which c-blosc2 uses as the item size).
func (a *Array) Itemsize() int { return a.g.itemsize }

// Size returns the number of elements.
func (a *Array) Size() int64 { return a.g.nitems }

// Nbytes returns the size of the whole array in C order.
func (a *Array) Nbytes() int64 { return a.g.nitems * int64(a.g.itemsize) }
