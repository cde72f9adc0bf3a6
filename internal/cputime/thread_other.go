//go:build !linux

package cputime

import "time"

// Thread reports false: this platform's thread clock is not wired up.
func Thread() (time.Duration, bool) { return 0, false }
