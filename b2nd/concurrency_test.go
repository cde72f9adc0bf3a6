package b2nd

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblosc/blosc"
)

// TestArraySharedByGoroutines: one goroutine appends rows to an array file
// and rewrites row ranges that span chunks, while others read the whole
// array: every read must be a state the writer made (recorded before each
// change), never a mix of two. -short runs it for 300 ms, else 2 s.
func TestArraySharedByGoroutines(t *testing.T) {
	dur := 2 * time.Second
	if testing.Short() {
		dur = 300 * time.Millisecond
	}
	const cols = 4
	row := func(v int64) []byte {
		b := make([]byte, 8*cols)
		for i := 0; i < cols; i++ {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
		return b
	}
	path := filepath.Join(t.TempDir(), "shared.b2nd")
	p := Params{Shape: []int64{2, cols}, ChunkShape: []int32{3, cols}, BlockShape: []int32{1, cols}, DType: "<i8", Path: path,
		Options: blosc.Options{Codec: blosc.LZ4, Level: 5, Threads: 1}}
	a, err := FromBuffer(p, append(row(1), row(2)...))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var mu sync.Mutex
	states := map[string]bool{}
	record := func(rows []int64) {
		mu.Lock()
		states[fmt.Sprint(rows)] = true
		mu.Unlock()
	}
	rows := []int64{1, 2}
	record(rows)
	var stop atomic.Bool
	var changes, reads atomic.Int64
	errc := make(chan error, 8)
	fail := func(err error) {
		select {
		case errc <- err:
		default:
		}
		stop.Store(true)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		defer stop.Store(true)
		rng := rand.New(rand.NewPCG(5, 6))
		next := int64(3)
		// At least 40 changes, however slow the machine.
		for deadline := time.Now().Add(dur); (time.Now().Before(deadline) || changes.Load() < 40) && !stop.Load(); {
			want := append([]int64(nil), rows...)
			var err error
			if len(rows) < 4 || rng.IntN(3) == 0 && len(rows) < 30 {
				want = append(want, next, next+1)
				record(want)
				err = a.Append(append(row(next), row(next+1)...), 0)
			} else {
				// Two rows at a chunk boundary: two chunks, one change.
				i := 3*rng.IntN(len(rows)/3) + 2
				if i+1 >= len(rows) {
					i = len(rows) - 2
				}
				want[i], want[i+1] = next, next+1
				record(want)
				err = a.SetSlice(append(row(next), row(next+1)...), []int64{int64(i), 0}, []int64{int64(i + 2), cols})
			}
			next += 2
			if err != nil {
				fail(err)
				return
			}
			rows = want
			changes.Add(1)
		}
	})
	for range 3 {
		wg.Go(func() {
			var buf []byte
			for !stop.Load() {
				d, err := a.Read(buf)
				if err != nil {
					fail(err)
					return
				}
				buf = d
				var got []int64
				for r := 0; r < len(d); r += 8 * cols {
					v := int64(binary.LittleEndian.Uint64(d[r:]))
					for c := 1; c < cols; c++ {
						if w := int64(binary.LittleEndian.Uint64(d[r+8*c:])); w != v {
							fail(fmt.Errorf("row %d holds %d and %d", r/(8*cols), v, w))
							return
						}
					}
					got = append(got, v)
				}
				mu.Lock()
				ok := states[fmt.Sprint(got)]
				mu.Unlock()
				if !ok {
					fail(fmt.Errorf("a read saw rows %v, a state the writer never made", got))
					return
				}
				if sh := a.Shape(); sh[1] != cols {
					fail(fmt.Errorf("shape %v", sh))
					return
				}
				reads.Add(1)
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	t.Logf("%d changes, %d whole reads", changes.Load(), reads.Load())
	if changes.Load() < 5 || reads.Load() < 5 {
		t.Errorf("too little happened: %d changes, %d reads", changes.Load(), reads.Load())
	}
}
