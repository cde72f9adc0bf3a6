//go:build purego || noasm || !gc || !amd64

package zstdenc

// useMatchLenTail is false here: matchLen keeps its Go loop.
const useMatchLenTail = false

func matchTail(buf []byte, a, b, end int) int { panic("zstdenc: matchTail without assembly") }
