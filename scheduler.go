package blosc

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The block scheduler: one set of worker goroutines for the whole process,
// started lazily and never per call. A call hands its batch of blocks only
// to workers that are idle at that moment, works on the batch itself too,
// and returns when every block is done, so a busy pool never delays a call
// beyond doing its own blocks on its own goroutine.

// blockTask does one block of a batch on behalf of a worker.
type blockTask interface {
	doBlock(ws *workerState, j int)
}

// batch is the shared state of one parallel call. It is owned by an
// engine and reused across calls.
//
// A helper joins the call only if it arrives before the caller is done:
// the caller never waits for a worker that has not started, only for
// blocks a worker is doing. Waiting for every helper handed the batch to
// check in, as a WaitGroup would, made a chunk whose blocks the caller
// finished alone wait for a worker to be woken and scheduled, which on a
// busy machine can take longer than the blocks. ctl packs the
// call's generation (high 32 bits), a closed flag and the count of
// helpers inside (low bits) into one word, so that a helper woken for an
// earlier call sees the generation moved on and leaves without touching
// the batch's other fields.
type batch struct {
	task blockTask
	next atomic.Int64
	n    int64
	ctl  atomic.Uint64
	gen  uint32
	left chan struct{} // the last helper out of a closed call says so
}

const (
	ctlClosed = 1 << 31
	ctlActive = ctlClosed - 1
)

// handoff is what a worker receives: the batch and the call it is for.
type handoff struct {
	b   *batch
	gen uint32
}

// open starts a new call on b: helpers of earlier calls can no longer join.
func (b *batch) open(task blockTask, n int) handoff {
	if b.left == nil {
		b.left = make(chan struct{}, 1)
	}
	b.task, b.n = task, int64(n)
	b.next.Store(0)
	b.gen++
	b.ctl.Store(uint64(b.gen) << 32)
	return handoff{b, b.gen}
}

// join does blocks of call h for a worker, if the call is still open.
func (h handoff) join(ws *workerState) {
	b := h.b
	for {
		c := b.ctl.Load()
		if uint32(c>>32) != h.gen || c&ctlClosed != 0 {
			return // too late: the caller did every block
		}
		if b.ctl.CompareAndSwap(c, c+1) {
			break
		}
	}
	b.work(ws)
	if c := b.ctl.Add(^uint64(0)); c&ctlClosed != 0 && c&ctlActive == 0 {
		b.left <- struct{}{}
	}
}

// close ends the call once the caller has run out of blocks: it shuts
// out helpers that have not joined and waits for those inside.
func (b *batch) close() {
	if c := b.ctl.Or(ctlClosed); c&ctlActive != 0 {
		<-b.left
	}
	b.task = nil
}

func (b *batch) work(ws *workerState) {
	for {
		j := b.next.Add(1) - 1
		if j >= b.n {
			return
		}
		b.task.doBlock(ws, int(j))
	}
}

// maxWorkers bounds the pool whatever Options.Threads asks for.
const maxWorkers = 256

type workerPool struct {
	mu      sync.Mutex
	started int
	ready   sync.WaitGroup
	work    chan handoff // unbuffered: a send succeeds only to an idle worker
}

var pool = workerPool{work: make(chan handoff)}

// ensure starts workers until n exist.
func (p *workerPool) ensure(n int) {
	if n > maxWorkers {
		n = maxWorkers
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started >= n {
		return
	}
	for p.started < n {
		p.ready.Add(1)
		go p.run()
		p.started++
	}
	// Wait until the new workers are about to receive, so that this
	// first call can use them.
	p.ready.Wait()
}

func (p *workerPool) run() {
	ws := new(workerState)
	p.ready.Done()
	for h := range p.work {
		h.join(ws)
	}
}

// workers returns the pool size, for tests.
func (p *workerPool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// resolveThreads maps Options.Threads to a count.
func resolveThreads(t int) int {
	if t <= 0 {
		t = runtime.GOMAXPROCS(0)
	}
	return t
}

// runBlocks does blocks 0..n-1 of task with up to threads goroutines, the
// caller's included, and returns when all are done.
func runBlocks(b *batch, task blockTask, n, threads int, ws *workerState) {
	helpers := min(threads-1, n-1)
	h := b.open(task, n)
	if helpers <= 0 {
		b.work(ws)
		b.close()
		return
	}
	pool.ensure(helpers)
	for i := 0; i < helpers; i++ {
		select {
		case pool.work <- h:
			continue
		default:
		}
		break
	}
	b.work(ws)
	b.close()
}
