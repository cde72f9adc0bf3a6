package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goblosc/blosc/internal/fsys"
	"github.com/goblosc/blosc/internal/rollback"
)

// Sparse frames: a directory holding chunks.b2frame, a frame of type 1
// with no chunk bytes whose offsets index holds chunk file numbers, and
// one file NNNNNNNN.chunk (the number in 8 upper-case hex digits) per
// stored chunk, as c-blosc2 writes them.
//
// A change never writes over a file the index names. New and replaced
// chunks go to new files (numbers no file in the directory had), each
// synced; the new index is written to a temporary file and the old one
// kept in a rollback file (.chunks.b2frame.rollback), each synced; the
// directory is synced, so that all their names are durable before
// anything refers to them; the new index is renamed over chunks.b2frame
// and the directory synced; the rollback file's removal, synced, is the
// commit point. Only then are the files the index no longer names
// removed. A failure before the rename leaves the old index, and the
// change's new files are removed; a failure after it puts the old index
// back. A valid rollback file means a change that did not commit: a
// reader reads the index it keeps, a writer's open puts it back. A crash
// leaves the old index or the new one, and at worst files nothing names
// (chunk files, the temporary index, a rollback file cut short), which
// readers ignore and the next writer's open removes; it leaves any other
// file (c-blosc2's .b2lock) alone. docs/durability.md states the
// contract.
//
// Every call on the directory goes through fsys.Default, which tests
// replace to fail each of them in turn.

const (
	sparseIndexName    = "chunks.b2frame"
	sparseTempName     = "." + sparseIndexName + ".tmp"
	sparseRollbackName = "." + sparseIndexName + ".rollback"
)

// sparseDir is the directory behind a sparse frame.
type sparseDir struct {
	fs        fsys.FS
	dir       string
	writable  bool
	used      map[int64]bool // chunk numbers with a file (or one being made)
	low       int64          // no number below it is free
	cbytes    int64          // the header's cbytes: the stored chunks' bytes
	drops     []int64        // chunk files to remove once the index commits
	made      []int64        // chunk files the change in progress wrote
	committed []byte         // the index on file (nil: none yet), to undo a commit
	// A read-only handle without the lock: the name of the file its view
	// was read from (the index, or the rollback file of a change in
	// progress) and that file, kept open; nil when no check is needed.
	view     string
	viewFile fsys.File
	dirty    bool
	keepMade bool // a failed commit may have left the new index in place
	broken   bool // a change failed: open the directory again
}

func chunkFileName(id int64) string { return fmt.Sprintf("%08X.chunk", uint32(id)) }

func (d *sparseDir) path(name string) string { return filepath.Join(d.dir, name) }

// errSparseStale: a read-only sparse frame's index was replaced while a
// chunk was read; the read is run again on the frame refreshed.
var errSparseStale = errors.New("blosc: the sparse frame changed while it was read")

// current reports whether the index file a read-only handle's view came
// from is still the one it read. A writer never changes or removes a
// chunk file the current index names (new chunks go to fresh files, old
// ones are removed after the commit), so a chunk read while the view's
// file stands is the view's chunk, even when it was read just as a
// writer replaced the index: current then says no and the read runs
// again on the new view.
//
// The handle keeps the view's file open, so that its inode, and the
// number the file system gave it, cannot be taken by a later index or
// rollback file: the same file is the same view.
func (d *sparseDir) current() bool {
	fi, err := d.fs.Stat(d.path(d.view))
	if err != nil {
		return false
	}
	vi, err := d.viewFile.Stat()
	return err == nil && os.SameFile(fi, vi)
}

// closeView stops checking the view (a handle that locks, or one closed
// or refreshed).
func (d *sparseDir) closeView() {
	if d != nil && d.viewFile != nil {
		d.viewFile.Close()
		d.viewFile = nil
	}
}

// openSparseView reads a read-only handle's view of the sparse frame in
// dir: the index a change in progress keeps in its rollback file, or else
// chunks.b2frame; the file read stays open (see current).
func openSparseView(fsy fsys.FS, dir string) (b []byte, f fsys.File, name string, err error) {
	rb, err := fsy.OpenFile(filepath.Join(dir, sparseRollbackName), os.O_RDONLY, 0)
	switch {
	case err == nil:
		data, err := io.ReadAll(rb)
		if err != nil {
			rb.Close()
			return nil, nil, "", err
		}
		if old, found := parseSparseRollback(data); found {
			if old == nil {
				rb.Close()
				return nil, nil, "", fmt.Errorf("%w: %s: the change that made the sparse frame did not commit", fs.ErrNotExist, dir)
			}
			return old, rb, sparseRollbackName, nil
		}
		rb.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, "", err
	}
	ix, err := fsy.OpenFile(filepath.Join(dir, sparseIndexName), os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, "", err
	}
	if b, err = io.ReadAll(ix); err != nil {
		ix.Close()
		return nil, nil, "", err
	}
	return b, ix, sparseIndexName, nil
}

func (d *sparseDir) readChunk(id int64) ([]byte, error) {
	if d.broken {
		return nil, errBrokenSparse
	}
	if id < 0 || id > 0xffffffff {
		return nil, fmt.Errorf("%w: chunk number %d", ErrCorrupt, id)
	}
	b, err := d.fs.ReadFile(d.path(chunkFileName(id)))
	if d.viewFile != nil && !d.current() {
		return nil, errSparseStale
	}
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

// errBrokenSparse: a change of a sparse frame failed; the directory holds
// the frame as it was before, which a new OpenSparseFrame reads.
var errBrokenSparse = fmt.Errorf("%w: a change of this sparse frame failed; open the directory again", ErrUnsupported)

func (d *sparseDir) touch() error {
	if !d.writable {
		return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
	}
	if d.broken {
		return errBrokenSparse
	}
	d.dirty = true
	return nil
}

// writeChunk stores c in a new chunk file and returns its number.
func (d *sparseDir) writeChunk(c []byte) (int64, error) {
	id := d.freeID()
	if id > 0xffffffff {
		return 0, fmt.Errorf("%w: chunk numbers exhausted", ErrTooLarge)
	}
	if err := sparseStep("write " + chunkFileName(id)); err != nil {
		return 0, err
	}
	// The number is taken even if the write fails: a file of that name
	// may be left.
	d.used[id] = true
	if err := fsys.WriteSynced(d.fs, d.path(chunkFileName(id)), c, true); err != nil {
		return 0, err
	}
	d.made = append(d.made, id)
	d.cbytes += int64(len(c))
	return id, nil
}

// drop forgets a chunk file, removed after the next commit.
func (d *sparseDir) drop(id int64) {
	if st, err := d.fs.Stat(d.path(chunkFileName(id))); err == nil {
		d.cbytes -= st.Size()
	}
	d.drops = append(d.drops, id)
}

// abandon drops a change that failed: its new chunk files go (unless
// keepMade: the new index may be in place), and the super-chunk is
// broken.
func (d *sparseDir) abandon() {
	if d.dirty && !d.keepMade {
		for _, id := range d.made {
			d.fs.Remove(d.path(chunkFileName(id)))
		}
	}
	d.made, d.drops = d.made[:0], d.drops[:0]
	d.dirty, d.keepMade = false, false
	d.broken = true
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
// chunk files it no longer names. The old index is kept in the rollback
// file until the commit, that file's durable removal. On failure the
// directory's index is the old one (its new chunk files go when the
// change is abandoned), unless even the undo failed: then keepMade is
// set, and the rollback file, still there, makes every opener read the
// old index.
func (s *SChunk) commitSparse() error {
	d := s.sparse
	if !d.dirty {
		return nil
	}
	idx, err := s.sparseIndex()
	if err != nil {
		return err
	}
	tmp, index, rb := d.path(sparseTempName), d.path(sparseIndexName), d.path(sparseRollbackName)
	keep, err := sparseRollbackBytes(d.committed, idx[:s.hdr.headerLen])
	if err != nil {
		return err
	}
	if err := sparseStep("write " + sparseTempName); err != nil {
		return err
	}
	if err := fsys.WriteSynced(d.fs, tmp, idx, false); err != nil {
		return err
	}
	if err := sparseStep("write " + sparseRollbackName); err != nil {
		return err
	}
	if err := fsys.WriteSynced(d.fs, rb, keep, false); err != nil {
		d.fs.Remove(tmp)
		return err
	}
	// The new chunk files' names and the rollback file, durable before
	// the index names the chunks.
	if err := d.fs.SyncDir(d.dir); err != nil {
		d.fs.Remove(tmp)
		d.fs.Remove(rb)
		return err
	}
	if err := sparseStep("rename"); err != nil {
		return err
	}
	if err := d.fs.Rename(tmp, index); err != nil {
		d.fs.Remove(tmp)
		d.fs.Remove(rb)
		return err
	}
	if err := d.fs.SyncDir(d.dir); err != nil {
		return d.undo(err, keep)
	}
	// The commit: the rollback file's durable removal.
	if err := sparseStep("commit"); err != nil {
		return err
	}
	if err := d.fs.Remove(rb); err != nil {
		return d.undo(err, keep)
	}
	if err := d.fs.SyncDir(d.dir); err != nil {
		return d.undo(err, keep)
	}
	// Committed and durable.
	d.committed = idx
	d.made, d.dirty = d.made[:0], false
	drops := d.drops
	d.drops = d.drops[:0]
	for _, id := range drops {
		if err := sparseStep("remove"); err != nil {
			return err
		}
		// A file left by a failed removal is a stray the next writer's
		// open removes; its number stays taken until then.
		if d.fs.Remove(d.path(chunkFileName(id))) == nil {
			d.release(id)
		}
	}
	return nil
}

// undo puts the old index back after a step of the commit failed with
// cause, once the new index may be in place: the rollback file first
// (keep, written again if its removal may have landed), then the old
// index, then the rollback file's removal. Should a call fail, keepMade
// is set: the rollback file makes the next opener restore the old index.
func (d *sparseDir) undo(cause error, keep []byte) error {
	rb := d.path(sparseRollbackName)
	if _, err := d.fs.Stat(rb); err != nil {
		if fsys.WriteSynced(d.fs, rb, keep, false) != nil || d.fs.SyncDir(d.dir) != nil {
			d.keepMade = true
			return cause
		}
	}
	if restoreIndex(d.fs, d.dir, d.committed) != nil {
		d.keepMade = true
		return cause
	}
	if d.fs.Remove(rb) == nil {
		d.fs.SyncDir(d.dir)
	}
	return cause
}

// sparseRollbackBytes is the rollback file for the index old (nil: the
// directory had none): old, then a rollback record (internal/rollback)
// holding it, so that only a whole file counts.
func sparseRollbackBytes(old, newHeader []byte) ([]byte, error) {
	rec := rollback.Record{OldSize: int64(len(old)), NewHeader: newHeader}
	if old != nil {
		rec.Ranges = []rollback.Range{{Off: 0, Old: old}}
	}
	b, err := rec.Encode(int64(len(old)))
	if err != nil {
		return nil, err
	}
	return append(bytes.Clone(old), b...), nil
}

// readSparseRollback reads dir's rollback file: found is false when there
// is none or only part of one; old is the index it keeps (nil: none).
func readSparseRollback(fsy fsys.FS, dir string) (old []byte, found bool, err error) {
	b, err := fsy.ReadFile(filepath.Join(dir, sparseRollbackName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	old, found = parseSparseRollback(b)
	return old, found, nil
}

// parseSparseRollback returns the index a rollback file's bytes keep (nil:
// none, the frame was being created), or found false for a file that is
// not a whole record.
func parseSparseRollback(b []byte) (old []byte, found bool) {
	rec, _ := rollback.Read(bytes.NewReader(b), int64(len(b)), rollback.None)
	switch {
	case rec == nil:
	case rec.OldSize == 0 && len(rec.Ranges) == 0:
		return nil, true
	case len(rec.Ranges) == 1 && rec.Ranges[0].Off == 0 && int64(len(rec.Ranges[0].Old)) == rec.OldSize:
		return rec.Ranges[0].Old, true
	}
	return nil, false
}

// recoverSparse rolls back a change of the sparse frame in dir that did
// not commit: the index its rollback file keeps (old; nil: none) is put
// back, durably, then the rollback file goes, durably.
func recoverSparse(fsy fsys.FS, dir string, old []byte) error {
	if err := restoreIndex(fsy, dir, old); err != nil {
		return err
	}
	if err := fsy.Remove(filepath.Join(dir, sparseRollbackName)); err != nil {
		return err
	}
	return fsy.SyncDir(dir)
}

// freeID returns the smallest chunk number without a file. Numbers are
// reused once their files are gone, so they stay below the count of
// chunk files: c-blosc2 checks a sparse frame's chunk numbers as it
// checks a contiguous frame's offsets, against cbytes, and refuses
// numbers that only grow (a frame of small chunks after some updates).
func (d *sparseDir) freeID() int64 {
	for d.used[d.low] {
		d.low++
	}
	return d.low
}

// release frees the number of a removed chunk file.
func (d *sparseDir) release(id int64) {
	delete(d.used, id)
	d.low = min(d.low, id)
}

// restoreIndex makes old (nil: none) the index of the sparse frame in
// dir again, durably.
func restoreIndex(fsy fsys.FS, dir string, old []byte) error {
	index := filepath.Join(dir, sparseIndexName)
	if old == nil {
		if err := fsy.Remove(index); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fsy.SyncDir(dir)
	}
	tmp := filepath.Join(dir, sparseTempName)
	if err := fsys.WriteSynced(fsy, tmp, old, false); err != nil {
		return err
	}
	if err := fsy.Rename(tmp, index); err != nil {
		fsy.Remove(tmp)
		return err
	}
	return fsy.SyncDir(dir)
}

// OpenSparseFrame opens the sparse frame in dir (a chunks.b2frame index
// beside one file a chunk) for reading: each chunk file is read when used.
// Changes return an error wrapping ErrUnsupported.
// With BLOSC_LOCKING set, it takes c-blosc2's cross-process lock
// (DIR/.b2lock; see FileOptions).
func OpenSparseFrame(dir string) (*SChunk, error) {
	return openSparseLocked(dir, false, lockingRequested())
}

// OpenSparseFrameWritable opens the sparse frame in dir for reading and
// changing in place; every change is crash-safe. It first rolls back a
// change that did not commit, and removes the files a failed or
// interrupted change left that the index does not name. With
// BLOSC_LOCKING set, it takes c-blosc2's cross-process lock.
func OpenSparseFrameWritable(dir string) (*SChunk, error) {
	return openSparseLocked(dir, true, lockingRequested())
}

func openSparseFrame(dir string, writable bool) (*SChunk, error) {
	fsy := fsys.Default
	var b []byte
	var view fsys.File
	var viewName string
	if writable {
		// A change that did not commit left its rollback file: the
		// index it keeps is the frame's, put back by a writer.
		old, found, err := readSparseRollback(fsy, dir)
		if err != nil {
			return nil, err
		}
		if found {
			if err := recoverSparse(fsy, dir, old); err != nil {
				return nil, err
			}
		}
		if b, err = fsy.ReadFile(filepath.Join(dir, sparseIndexName)); err != nil {
			return nil, err
		}
	} else {
		var err error
		if b, view, viewName, err = openSparseView(fsy, dir); err != nil {
			return nil, err
		}
	}
	ok := false
	defer func() {
		if !ok && view != nil {
			view.Close()
		}
	}()
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
	d := &sparseDir{fs: fsy, dir: dir, writable: writable, cbytes: h.cbytes, committed: b, used: map[int64]bool{}}
	s.sparse = d
	d.view, d.viewFile = viewName, view
	if err := s.readIndex(bytes.Clone(b[h.headerLen : len(b)-tl])); err != nil {
		return nil, err
	}
	if !writable {
		s.setOptions()
		ok = true
		return s, nil
	}
	// The next chunk number: past every number the index or the directory
	// holds (files a failed change left included).
	named := make(map[int64]bool)
	for i := 0; i < s.offs.len(); i++ {
		id := s.offs.get(i)
		if id >= 0 {
			named[id] = true
		}
		if id >= 0 {
			d.used[id] = true
		}
		if s.offs.rep {
			break
		}
	}
	ents, err := fsy.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var strays []string
	for _, e := range ents {
		name := e.Name()
		if name == sparseTempName || name == sparseRollbackName {
			// The rollback file is here only if it was not valid (a
			// valid one was removed above).
			strays = append(strays, name)
		}
		if hexID, ok := strings.CutSuffix(name, ".chunk"); ok && len(hexID) == 8 {
			if id, err := strconv.ParseUint(hexID, 16, 32); err == nil {
				d.used[int64(id)] = true
				if !named[int64(id)] {
					strays = append(strays, name)
				}
			}
		}
	}
	// The index read is made durable before the files it does not name
	// go: a crash could otherwise bring back an older index that names
	// them. Removing strays is tidying; a failure is no error.
	if len(strays) > 0 && s.checkSparseIDs() == nil && fsy.SyncDir(dir) == nil {
		for _, name := range strays {
			if fsy.Remove(filepath.Join(dir, name)) == nil {
				if id, err := strconv.ParseUint(strings.TrimSuffix(name, ".chunk"), 16, 32); err == nil && name != sparseTempName {
					d.release(int64(id))
				}
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
	fsy := fsys.Default
	if err := fsy.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	s.sparse = &sparseDir{fs: fsy, dir: dir, writable: true, dirty: true, used: map[int64]bool{}}
	if err := s.commitSparse(); err != nil {
		if !s.sparse.keepMade {
			fsy.Remove(dir)
		}
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
