//go:build !(cblosc && cgo)

package blosclz_test

import "testing"

// Without the cgo bridge there is no C row.
func benchCCompress(*testing.B, string, []byte, int)   {}
func benchCDecompress(*testing.B, string, []byte, int) {}
