//go:build purego || noasm

package deflate

// slideLinks is the portable slide of chain links, one at a time.
func slideLinks(links []uint16) {
	for i, m := range links {
		links[i] = m & 0x7fff & -(m >> 15)
	}
}
