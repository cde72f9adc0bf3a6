#!/usr/bin/env bash
# The concurrency tests under the race detector: 64 goroutines sharing the
# pooled package-level functions and the process-wide block workers.
set -euo pipefail
go test -race -count=1 -short -run 'TestConcurrentUse|TestThreads|Goroutine|Parallel' .
