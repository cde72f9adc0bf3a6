//go:build race

package blosc

// The race detector makes sync.Pool drop items at random and instruments
// allocations, so allocation counts mean nothing under it.
const raceEnabled = true
