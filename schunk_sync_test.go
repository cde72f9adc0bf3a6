package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// idChunk compresses a chunk of cs bytes whose every 8-byte item is id.
func idChunk(t testing.TB, o Options, cs int, id uint64) []byte {
	b := make([]byte, cs)
	for i := 0; i < cs; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], id)
	}
	c, err := Compress(nil, b, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stateKey names a super-chunk whose chunks hold ids (one id a chunk).
func stateKey(ids []uint64) string { return fmt.Sprint(ids) }

// idsOf splits data into chunks of cs bytes and returns each one's id, or
// an error when a chunk is not one id throughout (a torn chunk).
func idsOf(data []byte, cs int) ([]uint64, error) {
	var ids []uint64
	for len(data) > 0 {
		n := min(cs, len(data))
		id := binary.LittleEndian.Uint64(data)
		for i := 8; i < n; i += 8 {
			if v := binary.LittleEndian.Uint64(data[i:]); v != id {
				return nil, fmt.Errorf("chunk %d holds ids %d and %d", len(ids), id, v)
			}
		}
		ids = append(ids, id)
		data = data[n:]
	}
	return ids, nil
}

// stateLog keeps every state the writer made (recorded before the change
// that makes it, so that a reader never sees one not yet recorded).
type stateLog struct {
	mu     sync.Mutex
	states map[string]bool
	ids    map[uint64]bool
}

func (l *stateLog) add(ids []uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.states[stateKey(ids)] = true
	for _, id := range ids {
		l.ids[id] = true
	}
}

func (l *stateLog) has(ids []uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.states[stateKey(ids)]
}

func (l *stateLog) hasID(id uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ids[id]
}

// TestSChunkSharedByGoroutines runs one goroutine changing a frame file or
// a sparse frame (appends, inserts, updates, deletes, batches that read
// what they changed) while others read it through the same handle and
// through a second, read-only handle without a lock that refreshes: every whole read must be a
// state the writer made, every item an id it wrote, and the race
// detector must stay quiet. -short runs it for 300 ms, else for 3 s.
func TestSChunkSharedByGoroutines(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		name := "file"
		if sparse {
			name = "sparse"
		}
		t.Run(name, func(t *testing.T) { testSharedByGoroutines(t, sparse) })
	}
}

func testSharedByGoroutines(t *testing.T, sparse bool) {
	dur := 3 * time.Second
	if testing.Short() {
		dur = 300 * time.Millisecond
	}
	const cs = 4 << 10
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{MaxFilters - 1: ByteShuffle}, Threads: 1}
	path := filepath.Join(t.TempDir(), "shared.b2frame")
	var s *SChunk
	if sparse {
		var err error
		if s, err = CreateSparseFrame(path, SChunkOptions{Options: o, ChunkSize: cs}); err != nil {
			t.Fatal(err)
		}
	} else {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if s, err = CreateFrameFile(f, SChunkOptions{Options: o, ChunkSize: cs}); err != nil {
			t.Fatal(err)
		}
	}
	ro, err := OpenFile(path, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	log := &stateLog{states: map[string]bool{}, ids: map[uint64]bool{}}
	log.add(nil)

	var stop atomic.Bool
	var changes atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	fail := func(err error) {
		select {
		case errc <- err:
		default:
		}
		stop.Store(true)
	}
	wg.Go(func() {
		defer stop.Store(true)
		rng := rand.New(rand.NewPCG(1, 2))
		var ids []uint64
		next := uint64(1)
		// At least minChanges changes, however slow the machine.
		const minChanges = 40
		deadline := time.Now().Add(dur)
		for (time.Now().Before(deadline) || changes.Load() < minChanges) && !stop.Load() {
			n := len(ids)
			want := append([]uint64(nil), ids...)
			var err error
			switch op := rng.IntN(6); {
			case n < 4 || op == 0 && n < 48:
				want = append(want, next)
				log.add(want)
				err = s.AppendChunk(idChunk(t, o, cs, next))
			case op == 1 && n < 48:
				i := rng.IntN(n + 1)
				want = append(want[:i], append([]uint64{next}, want[i:]...)...)
				log.add(want)
				err = s.InsertChunk(i, idChunk(t, o, cs, next))
			case op == 2:
				i := rng.IntN(n)
				want = append(want[:i], want[i+1:]...)
				log.add(want)
				err = s.DeleteChunk(i)
			case op == 3:
				// Two updates as one change, reading back the first
				// from inside it.
				i, j := rng.IntN(n), rng.IntN(n)
				want[i], want[j] = next, next+1
				log.add(want)
				err = s.Batch(func() error {
					if err := s.UpdateChunk(i, idChunk(t, o, cs, next)); err != nil {
						return err
					}
					d, err := s.DecompressChunk(nil, i)
					if err != nil {
						return err
					}
					if got, _ := idsOf(d, cs); len(got) != 1 || got[0] != next {
						return fmt.Errorf("inside the batch, chunk %d holds %v, want id %d", i, got, next)
					}
					return s.UpdateChunk(j, idChunk(t, o, cs, next+1))
				})
				next++
			default:
				i := rng.IntN(n)
				want[i] = next
				log.add(want)
				err = s.UpdateChunk(i, idChunk(t, o, cs, next))
			}
			next++
			if err != nil {
				fail(fmt.Errorf("change: %w", err))
				return
			}
			ids = want
			changes.Add(1)
		}
	})
	var reads atomic.Int64
	reader := func(h *SChunk, refresh bool, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var buf []byte
		for !stop.Load() {
			if refresh {
				if _, err := h.Refresh(); err != nil {
					fail(fmt.Errorf("refresh: %w", err))
					return
				}
			}
			if rng.IntN(2) == 0 {
				d, err := h.Decompress(buf)
				if err != nil {
					fail(fmt.Errorf("decompress: %w", err))
					return
				}
				buf = d
				ids, err := idsOf(d, cs)
				if err != nil {
					fail(err)
					return
				}
				if !log.has(ids) {
					fail(fmt.Errorf("a read saw %v, a state the writer never made", ids))
					return
				}
			} else if nb := h.Nbytes(); nb > 0 {
				k := rng.Int64N(nb / 8)
				item, err := h.GetItems(nil, k, 1)
				if errors.Is(err, ErrRange) {
					continue // a delete came between Nbytes and GetItems
				}
				if err != nil {
					fail(fmt.Errorf("item %d: %w", k, err))
					return
				}
				if id := binary.LittleEndian.Uint64(item); !log.hasID(id) {
					fail(fmt.Errorf("item %d holds %d, an id never written", k, id))
					return
				}
			}
			reads.Add(1)
		}
	}
	for g := range 3 {
		wg.Go(func() { reader(s, false, uint64(g)) })
	}
	for g := range 2 {
		wg.Go(func() { reader(ro, true, uint64(10+g)) })
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	t.Logf("%d changes, %d reads", changes.Load(), reads.Load())
	if changes.Load() < 10 || reads.Load() < 10 {
		t.Errorf("too little happened to check: %d changes, %d reads", changes.Load(), reads.Load())
	}
	// The file reopens to the writer's last state.
	s2, err := OpenFile(path, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	d1, err1 := s.Decompress(nil)
	d2, err2 := s2.Decompress(nil)
	if err1 != nil || err2 != nil || string(d1) != string(d2) {
		t.Fatalf("reopened frame differs from the writer's: %v %v", err1, err2)
	}
}

// TestLockingSidecar: with locking, the sidecar is NAME.b2lock (DIR/.b2lock
// for a sparse frame), every change moves its counter by one, and a
// handle whose counter moved refreshes before it reads: a second handle
// sees another's append without calling Refresh.
func TestLockingSidecar(t *testing.T) {
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Threads: 1}
	const cs = 4 << 10
	dir := t.TempDir()
	path := filepath.Join(dir, "f.b2frame")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFrameFile(f, SChunkOptions{Options: o, ChunkSize: cs}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	w, err := OpenFile(path, FileOptions{Writable: true, Locking: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r, err := OpenFile(path, FileOptions{Locking: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	seq := func() uint64 {
		b, err := os.ReadFile(path + ".b2lock")
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 16 {
			return 0
		}
		return binary.NativeEndian.Uint64(b[8:])
	}
	s0 := seq()
	for i := range 3 {
		if err := w.AppendChunk(idChunk(t, o, cs, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	if got := seq(); got != s0+3 {
		t.Fatalf("counter %d after three appends from %d", got, s0)
	}
	// r reads data: its lock sees the counter moved and refreshes.
	d, err := r.Decompress(nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := idsOf(d, cs); err != nil || len(ids) != 3 {
		t.Fatalf("the reader saw %v (%v), want three chunks", ids, err)
	}
	// A bracket: one counter step for two changes.
	if err := w.Lock(); err != nil {
		t.Fatal(err)
	}
	if err := w.AppendChunk(idChunk(t, o, cs, 9)); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteChunk(0); err != nil {
		t.Fatal(err)
	}
	if err := w.Unlock(); err != nil {
		t.Fatal(err)
	}
	if got := seq(); got != s0+4 {
		t.Fatalf("counter %d after a bracket, want %d", got, s0+4)
	}
	if err := w.Unlock(); err == nil {
		t.Fatal("Unlock without Lock succeeded")
	}
	changed, err := r.Refresh()
	if err != nil || !changed || r.Nchunks() != 3 {
		t.Fatalf("Refresh: %v %v, %d chunks; want a change to 3", changed, err, r.Nchunks())
	}
	if changed, err := r.Refresh(); err != nil || changed {
		t.Fatalf("second Refresh: %v %v, want no change", changed, err)
	}

	// Sparse frames lock DIR/.b2lock, which the writer's tidying keeps.
	sdir := filepath.Join(dir, "s.b2frame")
	sp, err := CreateSparseFrame(sdir, SChunkOptions{Options: o, ChunkSize: cs})
	if err != nil {
		t.Fatal(err)
	}
	_ = sp
	sw, err := OpenFile(sdir, FileOptions{Writable: true, Locking: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sw.Close()
	if err := sw.AppendChunk(idChunk(t, o, cs, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sdir, ".b2lock")); err != nil {
		t.Fatal(err)
	}
	sw2, err := OpenFile(sdir, FileOptions{Writable: true, Locking: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sw2.Close()
	if _, err := os.Stat(filepath.Join(sdir, ".b2lock")); err != nil {
		t.Fatalf("a writable open removed the lock sidecar: %v", err)
	}
	if err := sw2.AppendChunk(idChunk(t, o, cs, 2)); err != nil {
		t.Fatal(err)
	}
	// sw refreshes at its next lock and appends after sw2's chunk.
	if err := sw.AppendChunk(idChunk(t, o, cs, 3)); err != nil {
		t.Fatal(err)
	}
	d, err = sw2.Decompress(nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := idsOf(d, cs); err != nil || stateKey(ids) != "[1 2 3]" {
		t.Fatalf("sparse frame holds %v (%v), want [1 2 3]", ids, err)
	}
	if !strings.HasSuffix(sw.flk.path, filepath.Join("s.b2frame", ".b2lock")) {
		t.Fatalf("sparse lock at %s", sw.flk.path)
	}
}

// TestLockingEnv: BLOSC_LOCKING turns locking on for frames opened by
// name, "" and "0" leave it off, as in c-blosc2.
func TestLockingEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.b2frame")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFrameFile(f, SChunkOptions{Options: Options{Typesize: 4}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    string
		want bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(lockingEnv, c.v)
		s, err := OpenFrameFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.Locking() != c.want {
			t.Errorf("BLOSC_LOCKING=%q: locking %v", c.v, s.Locking())
		}
		s.Close()
		r, err := OpenFrame(f, mustSize(t, f))
		if err != nil {
			t.Fatal(err)
		}
		if r.Locking() != c.want {
			t.Errorf("BLOSC_LOCKING=%q: read-only locking %v", c.v, r.Locking())
		}
		r.Close()
	}
	f.Close()
}

func mustSize(t *testing.T, f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestOpenFileThreads: FileOptions.Threads sets the opened frame's
// Options().Threads; negative counts are refused.
func TestOpenFileThreads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.b2frame")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFrameFile(f, SChunkOptions{Options: Options{Typesize: 4}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, n := range []int{0, 1, 3} {
		s, err := OpenFile(path, FileOptions{Writable: true, Threads: n})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Options().Threads; got != n {
			t.Errorf("Threads %d: the frame has %d", n, got)
		}
		s.Close()
	}
	if _, err := OpenFile(path, FileOptions{Threads: -1}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Threads -1: %v, want ErrInvalidOptions", err)
	}
}

// cutFile is a file whose first Stat reports it longer than it is, as a
// stat taken just before a writer cut its rollback record off would.
type cutFile struct {
	*os.File
	stats int
	extra int64
}

func (c *cutFile) Stat() (fs.FileInfo, error) {
	fi, err := c.File.Stat()
	c.stats++
	if err != nil || c.stats > 1 {
		return fi, err
	}
	return sizedInfo{fi, fi.Size() + c.extra}, nil
}

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (s sizedInfo) Size() int64 { return s.size }

// TestOpenWhileCut: a reader whose length was taken before a writer cut
// the file (the end of every change) opens at the new length instead of
// failing: bench swmr's readers met the failure in Refresh.
func TestOpenWhileCut(t *testing.T) {
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Threads: 1}
	path := filepath.Join(t.TempDir(), "cut.b2frame")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := CreateFrameFile(f, SChunkOptions{Options: o, ChunkSize: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.AppendChunk(idChunk(t, o, 4<<10, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	c := &cutFile{File: f, extra: 70 << 10}
	fi, _ := c.Stat()
	if _, err := openFrameFile(c, nil, 0, fi.Size()); err == nil {
		t.Fatal("the plain open read a length the file no longer has")
	}
	c.stats = 0
	fi, _ = c.Stat()
	r, err := openWhileCut(c, nil, 0, fi.Size())
	if err != nil {
		t.Fatalf("openWhileCut: %v", err)
	}
	if r.Nchunks() != 3 {
		t.Fatalf("%d chunks, want 3", r.Nchunks())
	}
}

// TestSparseViewSameIndex: a read-only sparse handle whose index file was
// replaced by one of the same bytes (a delete and an append that reused
// the freed chunk number) reads the new state instead of retrying the
// old view until it gives up.
func TestSparseViewSameIndex(t *testing.T) {
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Threads: 1}
	dir := filepath.Join(t.TempDir(), "same.b2frame")
	s, err := CreateSparseFrame(dir, SChunkOptions{Options: o, ChunkSize: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.AppendChunk(idChunk(t, o, 4<<10, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	ro, err := OpenFile(dir, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	before, err := os.ReadFile(filepath.Join(dir, sparseIndexName))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChunk(2); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendChunk(idChunk(t, o, 4<<10, 2)); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(filepath.Join(dir, sparseIndexName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the delete and append did not restore the index's bytes; the test checks nothing")
	}
	want, err := s.Decompress(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ro.Decompress(nil)
	if err != nil {
		t.Fatalf("read-only handle: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("read-only handle read other data than the writer")
	}
}
