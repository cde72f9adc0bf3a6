//go:build cblosc2 && cgo

package crosscheck

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
)

// One writer and many readers across the two libraries, with c-blosc2's
// lock (BLOSC_LOCKING=1) on every handle: the frame's chunks each hold one
// id throughout, and the writer records every state it makes before it
// makes it, so that every read can be checked against what the writer
// made: a whole read must be one of its states (never a mix of two), and
// no read may fail because of the writer.

const swmrChunk = 8 << 10

var swmrOpts = blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8,
	Filters: [blosc.MaxFilters]blosc.Filter{blosc.MaxFilters - 1: blosc.ByteShuffle}, Threads: 1}

func swmrChunkOf(t testing.TB, id uint64) []byte {
	b := make([]byte, swmrChunk)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], id)
	}
	c, err := blosc.Compress(nil, b, swmrOpts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// swmrIDs splits data into chunks and returns their ids, or an error for
// a chunk that holds more than one (a torn chunk).
func swmrIDs(data []byte) ([]uint64, error) {
	var ids []uint64
	for len(data) > 0 {
		n := min(swmrChunk, len(data))
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

type swmrLog struct {
	mu     sync.Mutex
	states map[string]bool
}

func (l *swmrLog) add(ids []uint64) {
	l.mu.Lock()
	l.states[fmt.Sprint(ids)] = true
	l.mu.Unlock()
}

func (l *swmrLog) has(ids []uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.states[fmt.Sprint(ids)]
}

// check says whether d, a whole read by who, is a state the writer made.
func (l *swmrLog) check(who string, d []byte) error {
	ids, err := swmrIDs(d)
	if err != nil {
		return fmt.Errorf("%s: %w", who, err)
	}
	if !l.has(ids) {
		return fmt.Errorf("%s saw %v, a state the writer never made", who, ids)
	}
	return nil
}

// swmrWriter is what both libraries' super-chunks offer the writer.
type swmrWriter interface {
	AppendChunk(c []byte) error
	DeleteChunk(i int) error
	UpdateChunk(i int, c []byte) error
}

// swmrOps drives w through appends, updates and deletes for dur,
// recording each state before the change.
func swmrOps(t *testing.T, dur time.Duration, log *swmrLog, stop *atomic.Bool, w swmrWriter) (int, error) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ids []uint64
	next := uint64(1)
	n := 0
	for deadline := time.Now().Add(dur); time.Now().Before(deadline) && !stop.Load(); n++ {
		want := append([]uint64(nil), ids...)
		var err error
		switch op := rng.IntN(4); {
		case len(ids) < 3 || op == 0 && len(ids) < 40:
			want = append(want, next)
			log.add(want)
			err = w.AppendChunk(swmrChunkOf(t, next))
		case op == 1:
			i := rng.IntN(len(ids) - 1) // not the last: c-blosc2 then keeps the chunk size
			want = append(want[:i], want[i+1:]...)
			log.add(want)
			err = w.DeleteChunk(i)
		default:
			i := rng.IntN(len(ids))
			want[i] = next
			log.add(want)
			err = w.UpdateChunk(i, swmrChunkOf(t, next))
		}
		next++
		if err != nil {
			return n, err
		}
		ids = want
	}
	return n, nil
}

func swmrFrame(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "swmr.b2frame")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := blosc.CreateFrameFile(f, blosc.SChunkOptions{Options: swmrOpts, ChunkSize: swmrChunk}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSWMRGoWriterCReaders: a Go writer changes a frame file while
// c-blosc2 readers read it, each whole read inside c-blosc2's lock.
func TestSWMRGoWriterCReaders(t *testing.T) {
	t.Setenv("BLOSC_LOCKING", "1")
	path := swmrFrame(t)
	w, err := blosc.OpenFile(path, blosc.FileOptions{Writable: true, Locking: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	log := &swmrLog{states: map[string]bool{}}
	log.add(nil)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 8)
	for g := range 2 {
		wg.Go(func() {
			c, err := cblosc2.Open(path)
			if err != nil {
				errs <- err
				return
			}
			defer c.Free()
			for !stop.Load() {
				// The bracket makes refresh, count and reads one state.
				if err := c.Lock(); err != nil {
					errs <- err
					return
				}
				_, err := c.Refresh()
				var d []byte
				if err == nil {
					d, err = c.Decompress(swmrChunk)
				}
				c.Unlock()
				if err != nil {
					errs <- fmt.Errorf("c-blosc2 reader %d: %w", g, err)
					return
				}
				if err := log.check(fmt.Sprintf("c-blosc2 reader %d", g), d); err != nil {
					errs <- err
					return
				}
				reads.Add(1)
			}
		})
	}
	n, err := swmrOps(t, 2*time.Second, log, &stop, w)
	stop.Store(true)
	wg.Wait()
	close(errs)
	if err != nil {
		t.Fatal(err)
	}
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d changes by Go, %d whole reads by c-blosc2", n, reads.Load())
	if n < 5 || reads.Load() < 2 {
		t.Errorf("too little happened: %d changes, %d reads", n, reads.Load())
	}
}

// TestSWMRCWriterGoReaders: a c-blosc2 writer changes a frame file in
// place while Go readers (each whole read under the shared lock) and the
// command (blosc decompress with BLOSC_LOCKING=1) read it.
func TestSWMRCWriterGoReaders(t *testing.T) {
	t.Setenv("BLOSC_LOCKING", "1")
	path := swmrFrame(t)
	cw, err := cblosc2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Free()
	log := &swmrLog{states: map[string]bool{}}
	log.add(nil)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads, items, cliReads atomic.Int64
	errs := make(chan error, 16)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	for g := range 2 {
		wg.Go(func() {
			r, err := blosc.OpenFile(path, blosc.FileOptions{Locking: true})
			if err != nil {
				fail(err)
				return
			}
			defer r.Close()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			var buf []byte
			for !stop.Load() {
				d, err := r.Decompress(buf)
				if err != nil {
					fail(fmt.Errorf("Go reader %d: %w", g, err))
					return
				}
				buf = d
				if err := log.check(fmt.Sprintf("Go reader %d", g), d); err != nil {
					fail(err)
					return
				}
				reads.Add(1)
				// An item, read under a bracket with the count it
				// was chosen from.
				if err := r.RLock(); err != nil {
					fail(err)
					return
				}
				if nb := r.Nbytes(); nb > 0 {
					if _, err := r.GetItems(nil, rng.Int64N(nb/8), 1); err != nil {
						fail(fmt.Errorf("Go reader %d: item: %w", g, err))
					}
					items.Add(1)
				}
				r.RUnlock()
			}
		})
	}
	cli := buildCLI(t)
	wg.Go(func() {
		out := filepath.Join(t.TempDir(), "out")
		for !stop.Load() {
			cmd := exec.Command(cli, "decompress", path, out)
			cmd.Env = append(os.Environ(), "BLOSC_LOCKING=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				fail(fmt.Errorf("blosc decompress: %v: %s", err, b))
				return
			}
			d, err := os.ReadFile(out)
			if err != nil {
				fail(err)
				return
			}
			if err := log.check("blosc decompress", d); err != nil {
				fail(err)
				return
			}
			cliReads.Add(1)
		}
	})
	n, err := swmrOps(t, 3*time.Second, log, &stop, cw)
	stop.Store(true)
	wg.Wait()
	close(errs)
	if err != nil {
		t.Fatal(err)
	}
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d changes by c-blosc2, %d whole reads and %d items by Go, %d runs of blosc decompress", n, reads.Load(), items.Load(), cliReads.Load())
	if n < 5 || reads.Load() < 2 || cliReads.Load() < 1 {
		t.Errorf("too little happened: %d changes, %d reads, %d command runs", n, reads.Load(), cliReads.Load())
	}
}

// buildCLI builds the command into the test's temporary directory.
func buildCLI(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "blosc")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/goblosc/blosc/cmd/blosc")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the command: %v: %s", err, b)
	}
	return bin
}
