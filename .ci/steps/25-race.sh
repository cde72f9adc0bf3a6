#!/usr/bin/env bash
# The whole module under the race detector (-short keeps the long sweeps
# out), then the concurrency tests at full length: 64 goroutines sharing
# the pooled package-level functions and the process-wide block workers,
# and a frame file and an N-dimensional array shared by a writer and
# readers (SharedByGoroutines).
set -euo pipefail
# A package binary gets 20 minutes: the root package takes about five
# under -race, more on a machine that runs other work.
go test -race -short -count=1 -timeout 20m ./...
go test -race -count=1 -run 'TestConcurrentUse|TestThreads|Goroutine|Parallel' .
go test -race -count=1 -run 'SharedByGoroutines' ./b2nd
