package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Sparse frames: a directory holding chunks.b2frame, a frame of type 1
// with no chunk bytes whose offsets index holds chunk file numbers, and
// one file NNNNNNNN.chunk (the number in 8 upper-case hex digits) per
// stored chunk, as c-blosc2 writes them.
//
// Changes are crash-safe: a new or replaced chunk goes to a new file (a
// number no file had), the index is written to a temporary file, synced
// and renamed over chunks.b2frame (the commit point), the directory is
// synced, and only then are the files the index no longer names removed.
// A crash leaves the old index or the new one, and at worst chunk files
// nothing names, which readers ignore and the next change skips over.

const sparseIndexName = "chunks.b2frame"

// sparseDir is the directory behind a sparse frame.
type sparseDir struct {
	dir      string
	writable bool
	nextID   int64
	cbytes   int64   // the header's cbytes: the stored chunks' bytes
	drops    []int64 // chunk files to remove once the index commits
	dirty    bool
}

func chunkFileName(id int64) string { return fmt.Sprintf("%08X.chunk", uint32(id)) }

func (d *sparseDir) readChunk(id int64) ([]byte, error) {
	if id < 0 || id > 0xffffffff {
		return nil, fmt.Errorf("%w: chunk number %d", ErrCorrupt, id)
	}
	b, err := os.ReadFile(filepath.Join(d.dir, chunkFileName(id)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: chunk file %s is missing", ErrCorrupt, chunkFileName(id))
		}
		return nil, err
	}
	h, err := parseHeader2(b)
	if err != nil {
		return nil, frameChunkErr("chunk file "+chunkFileName(id), err)
	}
	return b[:h.cbytes:h.cbytes], nil
}

func (d *sparseDir) touch() error {
	if !d.writable {
		return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
	}
	d.dirty = true
	return nil
}

// writeChunk stores c in a new chunk file and returns its number.
func (d *sparseDir) writeChunk(c []byte) (int64, error) {
	id := d.nextID
	if id > 0xffffffff {
		return 0, fmt.Errorf("%w: chunk numbers exhausted", ErrTooLarge)
	}
	if err := writeSynced(filepath.Join(d.dir, chunkFileName(id)), c); err != nil {
		return 0, err
	}
	d.nextID++
	d.cbytes += int64(len(c))
	return id, nil
}

// drop forgets a chunk file, removed after the next commit.
func (d *sparseDir) drop(id int64) {
	if b, err := os.Stat(filepath.Join(d.dir, chunkFileName(id))); err == nil {
		d.cbytes -= b.Size()
	}
	d.drops = append(d.drops, id)
}

// sparseFault, when set (tests), is called before each step of a sparse
// frame's change; an error it returns stands for a crash there.
var sparseFault func(step string) error

func sparseStep(step string) error {
	if sparseFault != nil {
		return sparseFault(step)
	}
	return nil
}

// writeSynced writes a new file and syncs it.
func writeSynced(path string, b []byte) error {
	if err := sparseStep("write " + filepath.Base(path)); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// sparseIndex returns the bytes of chunks.b2frame for the super-chunk.
func (s *SChunk) sparseIndex() ([]byte, error) {
	offs, err := s.offsetsChunk()
	if err != nil {
		return nil, err
	}
	h := s.hdr
	h.frameType = 1
	h.cbytes = s.sparse.cbytes
	h.hasVLMeta = len(s.vlmeta) > 0
	trailer := appendFrameTrailer(nil, s.vlmeta)
	h.frameLen = int64(frameHeaderSize(h.meta) + len(offs) + len(trailer))
	b := appendFrameHeader(nil, &h)
	b = append(b, offs...)
	return append(b, trailer...), nil
}

// commitSparse writes the index of a changed sparse frame and removes the
// chunk files it no longer names.
func (s *SChunk) commitSparse() error {
	d := s.sparse
	if !d.dirty {
		return nil
	}
	d.dirty = false
	idx, err := s.sparseIndex()
	if err != nil {
		return err
	}
	tmp := filepath.Join(d.dir, "."+sparseIndexName+".tmp")
	if err := writeSynced(tmp, idx); err != nil {
		return err
	}
	if err := sparseStep("rename"); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(d.dir, sparseIndexName)); err != nil {
		return err
	}
	if err := syncDir(d.dir); err != nil {
		return err
	}
	for _, id := range d.drops {
		if err := sparseStep("remove"); err != nil {
			return err
		}
		os.Remove(filepath.Join(d.dir, chunkFileName(id)))
	}
	d.drops = d.drops[:0]
	return nil
}

// OpenSparseFrame opens the sparse frame in dir (a chunks.b2frame index
// beside one file a chunk) for reading: each chunk file is read when used.
// Changes return an error wrapping ErrUnsupported.
func OpenSparseFrame(dir string) (*SChunk, error) { return openSparseFrame(dir, false) }

// OpenSparseFrameWritable opens the sparse frame in dir for reading and
// changing in place; every change is crash-safe.
func OpenSparseFrameWritable(dir string) (*SChunk, error) { return openSparseFrame(dir, true) }

func openSparseFrame(dir string, writable bool) (*SChunk, error) {
	b, err := os.ReadFile(filepath.Join(dir, sparseIndexName))
	if err != nil {
		return nil, err
	}
	h, err := parseFrameHeader(b)
	if err != nil {
		return nil, err
	}
	if h.frameType != 1 {
		return nil, fmt.Errorf("%w: %s is a frame of type %d, not a sparse frame's index", ErrCorrupt, sparseIndexName, h.frameType)
	}
	if h.frameLen != int64(len(b)) || h.frameLen < int64(h.headerLen)+frameTrailerMinLen {
		return nil, fmt.Errorf("%w: sparse frame index of %d bytes says %d", ErrCorrupt, len(b), h.frameLen)
	}
	tl, err := frameTrailerLen(b, h.frameLen, h.headerLen)
	if err != nil {
		return nil, err
	}
	vl, err := parseFrameTrailer(b[len(b)-tl:])
	if err != nil {
		return nil, err
	}
	h.meta = cloneMeta(h.meta)
	s := &SChunk{hdr: h, vlmeta: cloneMeta(vl), regionOwned: true}
	s.sparse = &sparseDir{dir: dir, writable: writable, cbytes: h.cbytes}
	if err := s.readIndex(bytes.Clone(b[h.headerLen : len(b)-tl])); err != nil {
		return nil, err
	}
	// The next chunk number: past every number the index or the directory
	// holds (files a crashed change left included).
	for i := 0; i < s.offs.len(); i++ {
		if id := s.offs.get(i); id >= s.sparse.nextID {
			s.sparse.nextID = id + 1
		}
		if s.offs.rep {
			break
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		name := e.Name()
		if hexID, ok := strings.CutSuffix(name, ".chunk"); ok && len(hexID) == 8 {
			if id, err := strconv.ParseUint(hexID, 16, 32); err == nil && int64(id) >= s.sparse.nextID {
				s.sparse.nextID = int64(id) + 1
			}
		}
	}
	s.setOptions()
	return s, nil
}

// checkSparseIDs checks a sparse frame's chunk numbers: special values or
// numbers of 32 bits, no two equal.
func (s *SChunk) checkSparseIDs() error {
	n := s.offs.len()
	if s.hdr.chunksize <= 0 && n > 0 {
		return fmt.Errorf("%w: sparse frames of variable-size chunks", ErrUnsupported)
	}
	if s.offs.rep {
		_, err := s.checkRepOffset()
		return err
	}
	seen := make(map[int64]bool, n)
	for i, id := range s.offs.vals {
		if id < 0 {
			if _, err := offsetKind(id); err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			continue
		}
		if id > 0xffffffff || seen[id] {
			return fmt.Errorf("%w: chunk %d names file number %d", ErrCorrupt, i, id)
		}
		seen[id] = true
	}
	return nil
}

// CreateSparseFrame makes dir (which must not exist) a new, empty sparse
// frame and returns it for changing in place.
func CreateSparseFrame(dir string, opts SChunkOptions) (*SChunk, error) {
	s, err := NewSChunk(opts)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	s.sparse = &sparseDir{dir: dir, writable: true, dirty: true}
	if err := s.commitSparse(); err != nil {
		return nil, err
	}
	return s, nil
}

// contiguous returns the super-chunk as a frame in memory (for Frame and
// WriteTo of a sparse frame).
func (s *SChunk) contiguous() (*SChunk, error) {
	o := SChunkOptions{Options: s.opts, ChunkSize: max(int(s.hdr.chunksize), 0)}
	c, err := NewSChunk(o)
	if err != nil {
		// The header's settings may not compress (an unknown codec), but
		// the chunks are copied as they are.
		c = &SChunk{opts: s.opts, params: s.params, regionOwned: true}
	}
	c.hdr = s.hdr
	c.hdr.frameType = 0
	c.hdr.nbytes = 0
	c.hdr.meta = cloneMeta(s.hdr.meta)
	c.vlmeta = cloneMeta(s.vlmeta)
	c.offs = offsetIndex{}
	c.chunkSize = s.chunkSize
	for i := 0; i < s.offs.len(); i++ {
		ch, err := s.chunk(i)
		if err != nil {
			return nil, err
		}
		if err := c.AppendChunk(ch); err != nil {
			return nil, fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	return c, nil
}
