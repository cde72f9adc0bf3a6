//go:build !linux

package bitshuffle

import "time"

func threadCPUTime() (time.Duration, bool) { return 0, false }
