//go:build !purego && !noasm

package deflate

import "unsafe"

// slideLinks slides four 16-bit links per 64-bit word: a lane whose top
// bit is set keeps its low 15 bits, the others become 0. The lanes are
// independent, so byte order does not matter. The link tables' length is
// a multiple of four; a table not aligned to 8 bytes goes one at a time.
func slideLinks(links []uint16) {
	p := unsafe.Pointer(unsafe.SliceData(links))
	if uintptr(p)%8 != 0 || len(links)%4 != 0 {
		for i, m := range links {
			links[i] = m & 0x7fff & -(m >> 15)
		}
		return
	}
	words := unsafe.Slice((*uint64)(p), len(links)/4)
	const top = 0x8000800080008000
	for i, x := range words {
		hi := x & top
		words[i] = x & (hi - hi>>15)
	}
}
