//go:build !purego && !noasm && gc

package zstdenc

import "unsafe"

// useMatchLenTail lets the tests run matchLen's Go loop on amd64.
var useMatchLenTail = true

// matchTail is matchLenTail on buf (0 <= b < a <= end <= len(buf)).
func matchTail(buf []byte, a, b, end int) int {
	return matchLenTail(unsafe.SliceData(buf), a, b, end)
}

// matchLenTail returns how many bytes at buf+a and buf+b agree, reading
// nothing at or past buf+end.
//
//go:noescape
func matchLenTail(buf *byte, a, b, end int) int
