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
	"bytes"
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
// Any number of goroutines may use an Array: reads (GetSlice, Read,
// AppendFrame, WriteTo and the getters) run together, and each change
// (SetSlice, Resize, Insert, Append, Delete) runs alone, so that every
// read sees the array before or after each change (docs/concurrency.md).
type Array struct {
	sc      *blosc.SChunk
	meta    Meta
	g       *geom
	file    *os.File // opened by Create, closed by Close
	ownSC   bool     // sc was opened by OpenFile: Close closes it
	opts    blosc.Options
	chunk   []byte    // a change's chunk buffers, one a thread, kept for the next
	comps   [][]byte  // and its compressed chunks
	readers sync.Pool // of *sliceReader

	mu      sync.RWMutex // reads share the array, a change has it alone
	rawMeta []byte       // the metalayer the layout was made from
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
	a := &Array{sc: sc, meta: m, rawMeta: raw}
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
	return OpenFile(name, blosc.FileOptions{Writable: writable})
}

// OpenFile opens the array in a frame file or sparse frame's directory
// as blosc.OpenFile does: read-only or writable, with c-blosc2's
// cross-process lock when opts.Locking or BLOSC_LOCKING asks for it.
// Close releases the file and the lock.
func OpenFile(name string, opts blosc.FileOptions) (*Array, error) {
	sc, err := blosc.OpenFile(name, opts)
	if err != nil {
		return nil, err
	}
	a, err := FromSChunk(sc)
	if err != nil {
		sc.Close()
		return nil, err
	}
	a.ownSC = true
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

// Close closes the file Open, OpenFile or Create opened, if any, and
// the super-chunk's lock.
func (a *Array) Close() error {
	var err error
	if a.ownSC {
		err = a.sc.Close()
		a.ownSC = false
	}
	if a.file != nil {
		if cerr := a.file.Close(); err == nil {
			err = cerr
		}
		a.file = nil
	}
	return err
}

// Refresh brings the array up to date with changes another handle or
// process made to its file (its shape included), as c-blosc2's
// b2nd_refresh, and reports whether there were any. See
// blosc.SChunk.Refresh.
func (a *Array) Refresh() (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	changed, err := a.sc.Refresh()
	if err != nil || !changed {
		return changed, err
	}
	return true, a.resync()
}

// Lock and Unlock bracket several changes as one step for every other
// handle and process that locks (blosc.SChunk.Lock).
func (a *Array) Lock() error { return a.sc.Lock() }

// Unlock ends the bracket Lock began.
func (a *Array) Unlock() error { return a.sc.Unlock() }

// SetThreads sets how many chunks a read decodes at once, and how many
// blocks a write compresses at once (0: runtime.GOMAXPROCS; an opened
// array starts at 0, a created one at its Options.Threads).
func (a *Array) SetThreads(n int) {
	a.mu.Lock()
	a.opts.Threads = max(n, 0)
	a.mu.Unlock()
}

// SChunk returns the super-chunk that holds the array.
func (a *Array) SChunk() *blosc.SChunk { return a.sc }

// NDim returns the number of dimensions (0 for a scalar).
func (a *Array) NDim() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.meta.Shape)
}

// Shape returns the array's shape.
func (a *Array) Shape() []int64 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return slices.Clone(a.meta.Shape)
}

// ChunkShape returns the shape of the array's chunks.
func (a *Array) ChunkShape() []int32 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return slices.Clone(a.meta.ChunkShape)
}

// BlockShape returns the shape of the chunks' blocks.
func (a *Array) BlockShape() []int32 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return slices.Clone(a.meta.BlockShape)
}

// DType returns the NumPy dtype string ("<f8", "|S5", a structured
// dtype's descr), or "" when the metalayer holds none.
func (a *Array) DType() string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.meta.DType
}

// Meta returns the array's metalayer as read or written.
func (a *Array) Meta() Meta {
	a.mu.RLock()
	defer a.mu.RUnlock()
	m := a.meta
	m.Shape, m.ChunkShape, m.BlockShape = slices.Clone(a.meta.Shape), slices.Clone(a.meta.ChunkShape), slices.Clone(a.meta.BlockShape)
	return m
}

// Itemsize returns the size of an element in bytes (the super-chunk's
// typesize, which c-blosc2 uses as the item size).
func (a *Array) Itemsize() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.g.itemsize
}

// Size returns the number of elements.
func (a *Array) Size() int64 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.g.nitems
}

// Nbytes returns the size of the whole array in C order.
func (a *Array) Nbytes() int64 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.g.nitems * int64(a.g.itemsize)
}

// rlock takes the array for a read. With c-blosc2's lock on, it holds the
// frame's shared lock for the whole read, and an array whose layout
// another process changed (its super-chunk refreshed under the lock) is
// laid out again first.
func (a *Array) rlock() error {
	for {
		a.mu.RLock()
		if err := a.sc.RLock(); err != nil {
			a.mu.RUnlock()
			return err
		}
		if !a.sc.Locking() || a.metaCurrent() {
			return nil
		}
		a.sc.RUnlock()
		a.mu.RUnlock()
		a.mu.Lock()
		err := a.resync()
		a.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

func (a *Array) runlock() {
	a.sc.RUnlock()
	a.mu.RUnlock()
}

// lock takes the array for a change: with c-blosc2's lock on, the frame's
// exclusive lock for the whole change, after which the layout is brought
// up to date with other processes' changes.
func (a *Array) lock() error {
	a.mu.Lock()
	if err := a.sc.Lock(); err != nil {
		a.mu.Unlock()
		return err
	}
	if a.sc.Locking() && !a.metaCurrent() {
		if err := a.resync(); err != nil {
			a.sc.Unlock()
			a.mu.Unlock()
			return err
		}
	}
	return nil
}

func (a *Array) unlock(err *error) {
	if raw, merr := a.metalayer(); merr == nil {
		a.rawMeta = raw
	}
	if uerr := a.sc.Unlock(); uerr != nil && *err == nil {
		*err = uerr
	}
	a.mu.Unlock()
}

func (a *Array) metalayer() ([]byte, error) {
	raw, err := a.sc.Metalayer(MetaName)
	if errors.Is(err, blosc.ErrNotFound) {
		raw, err = a.sc.Metalayer(legacyMetaName)
	}
	return raw, err
}

// metaCurrent reports whether the super-chunk's metalayer is the one the
// layout was made from.
func (a *Array) metaCurrent() bool {
	raw, err := a.metalayer()
	return err == nil && bytes.Equal(raw, a.rawMeta)
}

// resync lays the array out again from its super-chunk's metalayer.
func (a *Array) resync() error {
	raw, err := a.metalayer()
	if err != nil {
		return fmt.Errorf("b2nd: %w", err)
	}
	m, err := ParseMeta(raw)
	if err != nil {
		return err
	}
	a.meta, a.rawMeta = m, raw
	return a.setGeom()
}
