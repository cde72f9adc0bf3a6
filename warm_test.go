package blosc

import (
	"sync"
	"testing"
)

// everyWorker is a task that runs f once on each of n distinct pool
// workers: each holds at a barrier until all n have started, so no worker
// can take two of the n batches.
type everyWorker struct {
	f                 func(ws *workerState)
	started, finished sync.WaitGroup
}

func (t *everyWorker) doBlock(ws *workerState, _ int) {
	t.f(ws)
	t.started.Done()
	t.started.Wait()
	t.finished.Done()
}

// warmWorkers builds, on every worker of the shared pool, the lazily
// created state (codec encoders and decoders, block buffers) that
// compressing src with o, decompressing it and a GetItem need. Allocation
// counts taken afterwards then see the steady state whichever worker picks
// up a block, instead of depending on which workers earlier tests used.
func warmWorkers(t *testing.T, o Options, src []byte) {
	t.Helper()
	o.Threads = 1
	p, err := o.params()
	if err != nil {
		t.Fatal(err)
	}
	var failed error
	var mu sync.Mutex
	task := &everyWorker{f: func(ws *workerState) {
		// Borrow the worker's state for a single-threaded engine, so the
		// run below builds exactly what that worker needs.
		var e engine
		e.stageMin = 1 // build the worker's Blosc2 output stage too
		e.ws, *ws = *ws, workerState{}
		defer func() { *ws = e.ws }()
		chunk, err := e.compress(nil, src, &p)
		if err == nil {
			_, err = e.decompress(nil, chunk, 1)
		}
		if err == nil {
			_, err = e.getItems(nil, chunk, 0, 1)
		}
		if err != nil {
			mu.Lock()
			failed = err
			mu.Unlock()
		}
	}}
	n := pool.size()
	task.started.Add(n)
	task.finished.Add(n)
	batches := make([]batch, n)
	for i := range batches {
		// Each batch stays open until its one block is done, so the
		// worker it is sent to cannot arrive too late for it.
		pool.work <- batches[i].open(task, 1)
	}
	task.finished.Wait()
	for i := range batches {
		batches[i].close()
	}
	if failed != nil {
		t.Fatalf("warming the workers: %v", failed)
	}
}
