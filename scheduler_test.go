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

// judge backs off after losses, from 4 calls doubling up to maxBackoff, and halves the
// backoff after a win; a default call then runs alone while serialLeft
// lasts, still doing every block.
func TestSplitBackoff(t *testing.T) {
	var b batch
	us := time.Microsecond
	b.judge(4, 4, 100*us, 0) // the helpers did nothing
	if b.backoff != 4 || b.serialLeft != 4 {
		t.Fatalf("after a split that did nothing: backoff %d, serialLeft %d", b.backoff, b.serialLeft)
	}
	b.judge(4, 2, 100*us, 200*us) // waited longer than the helpers saved
	if b.backoff != 8 || b.serialLeft != 8 {
		t.Fatalf("after a losing split: backoff %d, serialLeft %d", b.backoff, b.serialLeft)
	}
	for range 10 {
		b.judge(4, 4, 100*us, 0)
	}
	if b.backoff != maxBackoff || b.serialLeft != maxBackoff {
		t.Fatalf("after many losses: backoff %d, serialLeft %d, want %d", b.backoff, b.serialLeft, maxBackoff)
	}
	b.serialLeft = 0
	b.judge(4, 2, 100*us, 10*us) // the helpers saved about 100 us for a 10 us wait
	if b.backoff != maxBackoff/2 || b.serialLeft != 0 {
		t.Fatalf("after a win: backoff %d, serialLeft %d", b.backoff, b.serialLeft)
	}
	b.judge(4, 0, 0, 50*us) // the helpers did every block
	if b.backoff != maxBackoff/4 {
		t.Fatalf("after a win without the caller: backoff %d", b.backoff)
	}

	b.auto, b.serialLeft = true, 2
	task := &countTask{done: make([]atomic.Int32, 6)}
	var ws workerState
	runBlocks(&b, task, 6, 2, &ws)
	if b.serialLeft != 1 {
		t.Fatalf("a default call while backing off left serialLeft %d, want 1", b.serialLeft)
	}
	for j := range task.done {
		if n := task.done[j].Load(); n != 1 {
			t.Fatalf("block %d done %d times", j, n)
		}
	}
	// An explicit thread count is not held back.
	b.auto = false
	runBlocks(&b, &countTask{done: make([]atomic.Int32, 6)}, 6, 2, &ws)
	if b.serialLeft != 1 && b.serialLeft != b.backoff {
		t.Fatalf("explicit threads consumed serialLeft: %d", b.serialLeft)
	}
}
