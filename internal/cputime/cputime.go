// Package cputime measures benchmarks by the CPU time of the benchmarking
// thread. On a shared machine wall-clock throughput also measures the
// neighbours; the thread's CPU time moves much less when other processes
// compete for the core.
package cputime

import (
	"runtime"
	"testing"
)

// Throughput pins the benchmark to its thread and, when done is called,
// reports bytes per iteration over the thread's CPU time as cpu-MB/s.
// Where the platform has no thread clock it reports nothing.
func Throughput(b *testing.B, bytes int) (done func()) {
	runtime.LockOSThread()
	start, ok := Thread()
	return func() {
		end, _ := Thread()
		runtime.UnlockOSThread()
		if ok && end > start {
			b.ReportMetric(float64(bytes)*float64(b.N)/(end-start).Seconds()/1e6, "cpu-MB/s")
		}
	}
}
