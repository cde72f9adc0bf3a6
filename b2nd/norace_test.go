//go:build !race

package b2nd

const raceEnabled = false
