package blosc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// c-blosc2's cross-process frame lock (blosc/frame.c, 3.2 and later): an
// advisory lock on a sidecar file beside the frame (NAME.b2lock) or inside
// a sparse frame's directory (DIR/.b2lock), shared for reads and
// exclusive for changes, with a generation counter at byte 8 of the
// sidecar that every exclusive locker increments, so that a handle learns
// at its next lock that another one changed the frame. The counter is a
// uint64 in the host's byte order, as c-blosc2 writes it with pwrite.

const (
	lockSidecarSuffix = ".b2lock"
	lockSeqOffset     = 8
	lockingEnv        = "BLOSC_LOCKING"
)

// lockingRequested reports whether BLOSC_LOCKING asks for locking: set,
// not empty and not "0", as c-blosc2 reads it.
func lockingRequested() bool {
	v := os.Getenv(lockingEnv)
	return v != "" && v != "0"
}

// fileLock is a handle's hold on the sidecar lock. A handle's goroutines
// share one descriptor, and flock(2) knows one lock per descriptor, so the
// holds of the handle's goroutines are counted here: the first shared
// hold takes the lock, the last one drops it, and an exclusive hold (a
// change, or a Lock bracket) covers the shared ones while it lasts.
type fileLock struct {
	path   string
	mu     sync.Mutex
	f      *os.File
	shared int    // shared holds of reads and RLock brackets
	excl   int    // exclusive holds: a change, Lock brackets
	seq    uint64 // the counter as this handle last saw or set it
	stale  bool   // the counter moved since the state in memory was read
}

// newFileLock opens (creating it as c-blosc2 does, mode 0666 before the
// umask) the sidecar at path.
func newFileLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("frame lock: %w", err)
	}
	return &fileLock{path: path, f: f}, nil
}

func (l *fileLock) readSeq() (uint64, error) {
	var b [8]byte
	n, err := l.f.ReadAt(b[:], lockSeqOffset)
	if n < len(b) {
		// A fresh (short) sidecar reads as 0, as in c-blosc2.
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("frame lock %s: %w", l.path, err)
		}
		return 0, nil
	}
	return binary.NativeEndian.Uint64(b[:]), nil
}

func (l *fileLock) writeSeq(v uint64) error {
	var b [8]byte
	binary.NativeEndian.PutUint64(b[:], v)
	if _, err := l.f.WriteAt(b[:], lockSeqOffset); err != nil {
		return fmt.Errorf("frame lock %s: %w", l.path, err)
	}
	return nil
}

// take locks the sidecar (shared or exclusive) and reads the counter,
// marking the state stale when it moved; an exclusive taker increments it.
func (l *fileLock) take(exclusive bool) error {
	if err := flockFile(l.f, exclusive); err != nil {
		return fmt.Errorf("frame lock %s: %w", l.path, err)
	}
	seq, err := l.readSeq()
	if err == nil && exclusive {
		err = l.writeSeq(seq + 1)
	}
	if err != nil {
		unlockFile(l.f)
		return err
	}
	if seq != l.seq {
		l.stale = true
	}
	if exclusive {
		seq++
	}
	l.seq = seq
	return nil
}

// enterShared takes a shared hold.
func (l *fileLock) enterShared() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shared == 0 && l.excl == 0 {
		if err := l.take(false); err != nil {
			return err
		}
	}
	l.shared++
	return nil
}

// exitShared drops a shared hold.
func (l *fileLock) exitShared() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shared--
	if l.shared == 0 && l.excl == 0 {
		unlockFile(l.f)
	}
}

// enterExclusive takes an exclusive hold. The caller holds the handle's
// state for writing, so no read of the handle is under way: turning a
// shared lock into an exclusive one (which flock may do by dropping it
// first) exposes no read to another process's change.
func (l *fileLock) enterExclusive() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.excl == 0 {
		if err := l.take(true); err != nil {
			return err
		}
	}
	l.excl++
	return nil
}

// exitExclusive drops an exclusive hold (under the handle's write lock, as
// enterExclusive): the lock goes back to shared while shared holds remain,
// and a change another process made in that moment marks the state stale.
func (l *fileLock) exitExclusive() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.excl--
	if l.excl > 0 {
		return nil
	}
	if l.shared == 0 {
		return unlockFile(l.f)
	}
	seq := l.seq
	if err := l.take(false); err != nil {
		return err
	}
	if l.seq != seq {
		l.stale = true
	}
	return nil
}

// isStale reports whether another handle changed the frame since the
// state in memory was read.
func (l *fileLock) isStale() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stale
}

func (l *fileLock) clearStale() {
	l.mu.Lock()
	l.stale = false
	l.mu.Unlock()
}

func (l *fileLock) close() error { return l.f.Close() }
