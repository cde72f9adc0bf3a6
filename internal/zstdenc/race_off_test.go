//go:build !race

package zstdenc

const raceEnabled = false
