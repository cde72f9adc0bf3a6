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
type batch struct {
	task    blockTask
	next    atomic.Int64
	n       int64
	helpers sync.WaitGroup
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
	work    chan *batch // unbuffered: a send succeeds only to an idle worker
}

var pool = workerPool{work: make(chan *batch)}

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
	for b := range p.work {
		b.work(ws)
		b.helpers.Done()
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
	b.task = task
	b.n = int64(n)
	b.next.Store(0)
	helpers := threads - 1
	if helpers > n-1 {
		helpers = n - 1
	}
	if helpers > 0 {
		pool.ensure(helpers)
	}
	for i := 0; i < helpers; i++ {
		b.helpers.Add(1)
		select {
		case pool.work <- b:
			continue
		default:
			b.helpers.Done()
		}
		break
	}
	b.work(ws)
	b.helpers.Wait()
	b.task = nil
}
