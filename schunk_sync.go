package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Sharing a super-chunk. In one process, reads (of data and of counters
// and metalayers) share it and a change has it to itself: each read sees
// the super-chunk before or after each change. A change is the call of an
// exported method that changes s, or a whole Batch; its goroutine may read
// s inside it (Batch's fn reading what it changed), and any other
// goroutine's call waits for it. Across processes, c-blosc2's opt-in lock
// (frame_lock.go) brackets the same calls, and Refresh brings a handle up
// to date with another one's changes. docs/concurrency.md tells which
// calls may run together.

// schunkSync is a super-chunk's in-process lock.
type schunkSync struct {
	mu       sync.RWMutex
	changing atomic.Bool  // a change holds mu for writing
	owner    atomic.Int64 // the goroutine running it
	cache    sync.Mutex   // the offsets chunk a read computes (offsChunk)
}

// goroutineID returns the running goroutine's number, parsed from the
// first line of its stack trace ("goroutine 18 [running]:"). Only a call
// made while a change is in progress needs it.
func goroutineID() int64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	var id int64
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// inChange reports whether the calling goroutine runs the change in
// progress.
func (s *SChunk) inChange() bool {
	return s.sy.changing.Load() && s.sy.owner.Load() == goroutineID()
}

// rlock takes s for a read of its counters or metalayers, and returns
// whether it did (a read inside the caller's own change does not).
func (s *SChunk) rlock() bool {
	if s.inChange() {
		return false
	}
	s.sy.mu.RLock()
	return true
}

func (s *SChunk) runlock(locked bool) {
	if locked {
		s.sy.mu.RUnlock()
	}
}

// beginRead takes s for a read of its data: with locking, the frame's
// shared lock too, and when another handle changed the frame since s was
// read, s is refreshed first. endRead(locked) ends it.
func (s *SChunk) beginRead() (locked bool, err error) {
	if s.inChange() {
		return false, nil
	}
	l := s.flk
	if l == nil {
		s.sy.mu.RLock()
		return true, nil
	}
	if err := l.enterShared(); err != nil {
		return false, err
	}
	for {
		s.sy.mu.RLock()
		if !l.isStale() {
			return true, nil
		}
		s.sy.mu.RUnlock()
		s.sy.mu.Lock()
		err := s.refreshIfStale()
		s.sy.mu.Unlock()
		if err != nil {
			l.exitShared()
			return false, err
		}
	}
}

func (s *SChunk) endRead(locked bool) {
	if !locked {
		return
	}
	s.sy.mu.RUnlock()
	if s.flk != nil {
		s.flk.exitShared()
	}
}

// refreshIfStale refreshes s when the lock's counter says another handle
// changed the frame; the caller holds s for writing.
func (s *SChunk) refreshIfStale() error {
	if !s.flk.isStale() {
		return nil
	}
	if _, err := s.refresh(); err != nil {
		return err
	}
	s.flk.clearStale()
	return nil
}

// begin starts a change: s for writing and, with locking, the frame's
// exclusive lock (refreshing s first if another handle changed the
// frame). A change begun inside the caller's own change nests in it.
// Use as
//
//	if err := s.begin(); err != nil {
//		return err
//	}
//	defer s.end(&err)
func (s *SChunk) begin() error {
	if s.inChange() {
		s.txDepth++
		return nil
	}
	s.sy.mu.Lock()
	if l := s.flk; l != nil {
		if err := l.enterExclusive(); err != nil {
			s.sy.mu.Unlock()
			return err
		}
		if err := s.refreshIfStale(); err != nil {
			l.exitExclusive()
			s.sy.mu.Unlock()
			return err
		}
	}
	s.sy.owner.Store(goroutineID())
	s.sy.changing.Store(true)
	s.txDepth = 1
	return nil
}

// end finishes the change begun by begin: the outermost one commits a
// file's change (or abandons it after an error) and releases s.
func (s *SChunk) end(err *error) {
	s.txDepth--
	if s.txDepth > 0 {
		return
	}
	defer func() {
		s.sy.changing.Store(false)
		s.sy.owner.Store(0)
		if l := s.flk; l != nil {
			if uerr := l.exitExclusive(); uerr != nil && *err == nil {
				*err = uerr
			}
		}
		s.sy.mu.Unlock()
	}()
	if s.file == nil && s.sparse == nil {
		return
	}
	if *err != nil {
		// A change that failed leaves the file as it was: what it
		// wrote is not referenced, and the super-chunk, whose state in
		// memory is the change's, must be opened again.
		s.abandon()
		return
	}
	commit := s.commit
	if s.sparse != nil {
		commit = s.commitSparse
	}
	if cerr := commit(); cerr != nil {
		s.abandon()
		*err = cerr
	}
}

// Lock takes the frame's exclusive cross-process lock and holds it until
// Unlock, so that several changes (and the reads between them) are one
// step for every other handle and process that locks, as c-blosc2's
// blosc2_schunk_lock. Brackets nest. Without locking (FileOptions.Locking
// or BLOSC_LOCKING) it does nothing. Goroutines of this process still
// read s between the changes inside the bracket: each change is one step
// for them, as always.
func (s *SChunk) Lock() error {
	if s.flk == nil {
		return nil
	}
	own := s.inChange()
	if !own {
		s.sy.mu.Lock()
		defer s.sy.mu.Unlock()
	}
	if err := s.flk.enterExclusive(); err != nil {
		return err
	}
	if err := s.refreshIfStale(); err != nil {
		s.flk.exitExclusive()
		return err
	}
	return nil
}

// Unlock ends the bracket Lock began.
func (s *SChunk) Unlock() error {
	if s.flk == nil {
		return nil
	}
	if !s.inChange() {
		s.sy.mu.Lock()
		defer s.sy.mu.Unlock()
	}
	s.flk.mu.Lock()
	held := s.flk.excl > 0
	s.flk.mu.Unlock()
	if !held {
		return fmt.Errorf("%w: Unlock without Lock", ErrInvalidOptions)
	}
	return s.flk.exitExclusive()
}

// RLock takes the frame's shared cross-process lock and holds it until
// RUnlock, so that several reads see one state of the frame: no other
// handle or process that locks changes it meanwhile (this handle's own
// changes still may). Reading a whole frame that a c-blosc2 process
// changes in place needs it. Without locking it does nothing.
func (s *SChunk) RLock() error {
	if s.flk == nil {
		return nil
	}
	locked, err := s.beginRead()
	if err != nil {
		return err
	}
	// Keep the shared hold, not the in-process read lock.
	if locked {
		s.sy.mu.RUnlock()
	} else {
		return s.flk.enterShared()
	}
	return nil
}

// RUnlock ends the bracket RLock began.
func (s *SChunk) RUnlock() error {
	if s.flk == nil {
		return nil
	}
	s.flk.mu.Lock()
	held := s.flk.shared > 0
	s.flk.mu.Unlock()
	if !held {
		return fmt.Errorf("%w: RUnlock without RLock", ErrInvalidOptions)
	}
	s.flk.exitShared()
	return nil
}

// Locking reports whether s takes c-blosc2's cross-process frame lock.
func (s *SChunk) Locking() bool { return s.flk != nil }

// Refresh brings s up to date with changes another handle or process made
// to its file: it re-reads the header, the offsets index and the
// metalayers when they changed, and reports whether they had. With
// locking, the lock's generation counter says so exactly; without, the
// file's length and header do (this package's changes always move them).
// A read-only handle of a frame file that a writer of this package
// changes needs no lock: every change leaves the bytes the old state
// refers to untouched, so a handle reads the state it last saw until it
// refreshes, and a refresh sees the frame before or after each change.
// Frames in memory (ParseFrame, OpenFrameBytes, NewSChunk) never change
// behind s: Refresh reports false.
func (s *SChunk) Refresh() (bool, error) {
	if s.inChange() {
		return false, fmt.Errorf("%w: Refresh inside a change", ErrInvalidOptions)
	}
	if l := s.flk; l != nil {
		if err := l.enterShared(); err != nil {
			return false, err
		}
		defer l.exitShared()
	}
	s.sy.mu.Lock()
	defer s.sy.mu.Unlock()
	if s.file == nil && s.sparse == nil {
		return false, nil
	}
	if _, ok := s.file.readerOf().(frameBytes); ok && s.sparse == nil {
		return false, nil
	}
	changed, err := s.refresh()
	if err == nil && s.flk != nil {
		s.flk.clearStale()
	}
	return changed, err
}

// readerOf returns the file's reader, nil for none.
func (f *frameFile) readerOf() io.ReaderAt {
	if f == nil {
		return nil
	}
	return f.r
}

// statter is what a frame's reader offers to tell the file's length.
type statter interface {
	Stat() (fs.FileInfo, error)
}

// refresh re-reads s from its file when the file changed since s read
// it, under s's write lock. It reports whether it changed.
func (s *SChunk) refresh() (bool, error) {
	if s.file != nil && (s.file.dirty || s.file.headerOnly || s.file.rewrite) {
		return false, fmt.Errorf("%w: refresh during a change", ErrInvalidOptions)
	}
	var fresh *SChunk
	var err error
	switch {
	case s.sparse != nil:
		d := s.sparse
		b, rerr := d.fs.ReadFile(d.path(sparseIndexName))
		if rerr != nil {
			return false, rerr
		}
		// Equal bytes are not enough for a handle that checks its
		// view: a delete and an append reusing the freed chunk number
		// rewrite the same index, and the view's file is then gone.
		if bytes.Equal(b, d.committed) && (d.viewFile == nil || d.current()) {
			return false, nil
		}
		fresh, err = openSparseFrame(d.dir, d.writable)
	default:
		f := s.file
		var size int64
		if st, ok := f.r.(statter); ok {
			fi, serr := st.Stat()
			if serr != nil {
				return false, serr
			}
			size = fi.Size() - f.base
		} else {
			// No length to ask: the header's frame length tells.
			var hb [frameLenPos + 8]byte
			if err := readFull(f.r, hb[:], f.base); err != nil {
				return false, err
			}
			size = int64(binary.BigEndian.Uint64(hb[frameLenPos:]))
		}
		head := make([]byte, f.hlen)
		if err := readFull(f.r, head, f.base); err != nil && size >= f.hlen {
			return false, err
		}
		if size == f.end && bytes.Equal(head, f.head) && (s.flk == nil || !s.flk.isStale()) {
			return false, nil
		}
		if f.w != nil && s.flk != nil && s.flk.excl > 0 {
			// Another writer's change a crash or failure left: this
			// handle holds the exclusive lock, so it rolls it back.
			if err := recoverFrameFile(f.w, f.base+size); err != nil {
				return false, err
			}
			if fi, err := f.w.Stat(); err == nil {
				size = fi.Size() - f.base
			}
		}
		fresh, err = openWhileCut(f.r, f.w, f.base, size)
	}
	if err != nil {
		return false, err
	}
	same := s.sameState(fresh)
	s.adoptState(fresh)
	return !same, nil
}

// sameState reports whether fresh, just read, holds the frame s holds.
func (s *SChunk) sameState(fresh *SChunk) bool {
	if s.sparse != nil {
		return bytes.Equal(s.sparse.committed, fresh.sparse.committed)
	}
	return bytes.Equal(s.file.head, fresh.file.head) && s.file.end == fresh.file.end
}

// adoptState takes the state fresh read of the same file as s's, keeping s's
// locks, its lock sidecar and its threads.
func (s *SChunk) adoptState(fresh *SChunk) {
	threads := s.opts.Threads
	s.opts = fresh.opts
	s.opts.Threads = threads
	s.params = fresh.params
	s.chunkSize = fresh.chunkSize
	s.hdr = fresh.hdr
	s.region = fresh.region
	s.regionOwned = fresh.regionOwned
	s.pendBase = fresh.pendBase
	s.file = fresh.file
	if s.sparse != fresh.sparse {
		s.sparse.closeView()
	}
	s.sparse = fresh.sparse
	s.offs = fresh.offs
	s.offsChunk = fresh.offsChunk
	s.offsSlack = fresh.offsSlack
	s.varStarts = fresh.varStarts
	s.vlmeta = fresh.vlmeta
	s.noCompress = fresh.noCompress
	s.app = nil
	if s.flk != nil {
		s.sparse.closeView()
	}
	if s.closer == nil {
		s.closer = fresh.closer
	}
}

// FileOptions configure OpenFile.
type FileOptions struct {
	// Writable opens the frame for changes in place.
	Writable bool
	// Locking takes c-blosc2's cross-process lock around every read of
	// data and every change: a sidecar NAME.b2lock beside a frame file,
	// DIR/.b2lock in a sparse frame's directory, shared for reads and
	// exclusive for changes, interoperable with c-blosc2 processes that
	// lock (blosc2_stdio_params.locking, BLOSC_LOCKING). The variable
	// BLOSC_LOCKING set to anything but "" or "0" turns it on too, for
	// every frame opened by its name (OpenFile, OpenSparseFrame, and
	// OpenFrame and OpenFrameFile of an *os.File).
	Locking bool
	// Threads is Options.Threads for the frame's changes and reads: how
	// many goroutines compress or decode its chunks at once (0: all
	// cores, as for a frame opened otherwise).
	Threads int
}

// OpenFile opens the frame at name: a contiguous frame file or a sparse
// frame's directory, read-only or writable, locking as opts and
// BLOSC_LOCKING ask. Close releases the file and the lock.
func OpenFile(name string, opts FileOptions) (*SChunk, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if opts.Threads < 0 {
		return nil, fmt.Errorf("%w: %d threads", ErrInvalidOptions, opts.Threads)
	}
	locking := opts.Locking || lockingRequested()
	if st.IsDir() {
		s, err := openSparseLocked(name, opts.Writable, locking)
		if err == nil {
			s.opts.Threads = opts.Threads
		}
		return s, err
	}
	flag := os.O_RDONLY
	if opts.Writable {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		return nil, err
	}
	s, err := openFileLocked(f, opts.Writable, locking)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.closer = f
	s.opts.Threads = opts.Threads
	return s, nil
}

// namer is a file that knows its name (an *os.File).
type namer interface{ Name() string }

// openFileLocked opens the frame that fills f, under the frame's lock
// when locking and f has a name to put the sidecar beside.
func openFileLocked(f io.ReaderAt, writable, locking bool) (*SChunk, error) {
	n, named := f.(namer)
	if !named {
		locking = false
	}
	var lockPath string
	if locking {
		lockPath = n.Name() + lockSidecarSuffix
	}
	return openLocked(lockPath, writable, locking, func() (*SChunk, error) {
		if !writable {
			size, err := readerSize(f)
			if err != nil {
				return nil, err
			}
			return openWhileCut(f, nil, 0, size)
		}
		w, ok := f.(WritableFile)
		if !ok {
			return nil, fmt.Errorf("%w: a writable frame needs a WritableFile", ErrInvalidOptions)
		}
		return openFrameFileRecover(w)
	})
}

// openLocked runs open under the frame's lock at lockPath when locking
// (exclusive for a writable open, which may roll back a change) and hands
// the lock to the super-chunk it opened.
func openLocked(lockPath string, writable, locking bool, open func() (*SChunk, error)) (*SChunk, error) {
	if !locking {
		return open()
	}
	l, err := newFileLock(lockPath)
	if err != nil {
		return nil, err
	}
	if err := l.take(writable); err != nil {
		l.close()
		return nil, err
	}
	defer unlockFile(l.f)
	s, err := open()
	if err != nil {
		l.close()
		return nil, err
	}
	l.stale = false
	s.flk = l
	if s.sparse != nil {
		s.sparse.closeView() // the lock keeps writers out of its reads
	}
	return s, nil
}

// openWhileCut is openFrameFile for a file another handle may be changing
// without a lock: a change ends by cutting the file (its rollback record's
// removal), so a length taken before the cut and reads after it disagree.
// When the open fails and the file's length has moved, it opens again at
// the new length (bench swmr met this in a reader's Refresh).
func openWhileCut(r io.ReaderAt, w WritableFile, base, size int64) (*SChunk, error) {
	s, err := openFrameFile(r, w, base, size)
	for try := 0; err != nil && try < maxStaleTries; try++ {
		n, serr := readerSize(r)
		if serr != nil || n-base == size {
			break
		}
		size = n - base
		s, err = openFrameFile(r, w, base, size)
	}
	return s, err
}

// readerSize returns the length of a file that can tell it.
func readerSize(r io.ReaderAt) (int64, error) {
	st, ok := r.(statter)
	if !ok {
		return 0, fmt.Errorf("%w: the frame's length is unknown", ErrInvalidOptions)
	}
	fi, err := st.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// openSparseLocked opens a sparse frame under its lock when locking.
func openSparseLocked(dir string, writable, locking bool) (*SChunk, error) {
	return openLocked(filepath.Join(dir, lockSidecarSuffix), writable, locking, func() (*SChunk, error) {
		return openSparseFrame(dir, writable)
	})
}

// Close releases what OpenFile opened (the file) and the lock sidecar of
// a frame opened with locking. A super-chunk opened from the caller's
// file or bytes keeps them open; Close then only releases the lock.
func (s *SChunk) Close() error {
	s.sy.mu.Lock()
	defer s.sy.mu.Unlock()
	var err error
	s.sparse.closeView()
	if s.flk != nil {
		err = s.flk.close()
		s.flk = nil
	}
	if s.closer != nil {
		if cerr := s.closer.Close(); err == nil {
			err = cerr
		}
		s.closer = nil
	}
	return err
}

// readData runs read, a read of s's data, under beginRead. A read-only
// sparse frame whose index a writer replaced meanwhile is refreshed and
// read again (see sparseDir.current), so the read sees one state.
func (s *SChunk) readData(read func() error) error {
	for try := 0; ; try++ {
		locked, err := s.beginRead()
		if err != nil {
			return err
		}
		err = read()
		s.endRead(locked)
		if !errors.Is(err, errSparseStale) || !locked {
			return err
		}
		if try == maxStaleTries {
			return fmt.Errorf("%w: the sparse frame changed under %d reads in a row", ErrUnsupported, try+1)
		}
		s.sy.mu.Lock()
		_, err = s.refresh()
		s.sy.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

// maxStaleTries bounds the reads readData runs again.
const maxStaleTries = 100
