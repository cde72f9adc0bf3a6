package blosc

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countTask counts the blocks done, per block.
type countTask struct{ done []atomic.Int32 }

func (t *countTask) doBlock(_ *workerState, j int) { t.done[j].Add(1) }

// A helper handed a call but not yet running when the caller has done
// every block must neither hold the caller up nor, when it runs at last,
// touch a later call on the same batch.
func TestLateHelperLeaves(t *testing.T) {
	var b batch
	var ws workerState
	first := &countTask{done: make([]atomic.Int32, 4)}
	late := b.open(first, 4)
	b.work(&ws)
	b.close() // must not wait for late, which has not joined
	second := &countTask{done: make([]atomic.Int32, 3)}
	h := b.open(second, 3)
	late.join(&ws) // the worker wakes now, for the call that ended
	for j := range second.done {
		if n := second.done[j].Load(); n != 0 {
			t.Fatalf("late helper did block %d of the next call", j)
		}
	}
	if c := b.ctl.Load(); c&ctlActive != 0 {
		t.Fatalf("late helper left %d active", c&ctlActive)
	}
	// A helper of the current call does its blocks, and the caller waits
	// for it (here it finishes all of them before the caller looks).
	h.join(&ws)
	b.work(&ws)
	b.close()
	for j := range second.done {
		if n := second.done[j].Load(); n != 1 {
			t.Fatalf("block %d done %d times", j, n)
		}
	}
	for j := range first.done {
		if n := first.done[j].Load(); n != 1 {
			t.Fatalf("first call: block %d done %d times", j, n)
		}
	}
}

// gateTask holds block 0 until released, so a helper is inside the call
// when the caller runs out of blocks.
type gateTask struct {
	inside, release chan struct{}
	done            []atomic.Int32
}

func (t *gateTask) doBlock(_ *workerState, j int) {
	if j == 0 {
		close(t.inside)
		<-t.release
	}
	t.done[j].Add(1)
}

// The caller waits for a helper that joined until its block is done.
func TestCloseWaitsForJoinedHelper(t *testing.T) {
	var b batch
	task := &gateTask{inside: make(chan struct{}), release: make(chan struct{}), done: make([]atomic.Int32, 5)}
	h := b.open(task, 5)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ws workerState
		h.join(&ws)
	}()
	<-task.inside // the helper holds block 0
	var ws workerState
	b.work(&ws) // blocks 1..4
	closed := make(chan struct{})
	go func() { b.close(); close(closed) }()
	time.Sleep(10 * time.Millisecond) // room for a wrong close to return (never a false failure)
	select {
	case <-closed:
		t.Fatal("close returned while a helper was inside the call")
	default:
	}
	close(task.release)
	<-closed
	wg.Wait()
	for j := range task.done {
		if n := task.done[j].Load(); n != 1 {
			t.Fatalf("block %d done %d times", j, n)
		}
	}
}
