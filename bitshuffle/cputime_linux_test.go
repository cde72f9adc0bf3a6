package bitshuffle

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPUTime is the CPU time the calling thread has used. On a shared
// machine it moves much less than wall time when other processes compete
// for the core, so the benchmarks report a throughput on it next to MB/s.
func threadCPUTime() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
