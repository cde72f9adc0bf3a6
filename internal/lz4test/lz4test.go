// Package lz4test holds what internal/lz4's benchmarks and bench's
// comparisons with liblz4 share.
package lz4test

import "fmt"

// Must returns b, and panics on err: for inputs a benchmark table cannot
// do without.
func Must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// Size names a byte count as benchmark rows do: 4KiB, 1MiB, 100B.
func Size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
