//go:build race

package zstdenc

const raceEnabled = true
