//go:build !purego && !noasm && gc

package blosc

// Stubs for the NEON kernels in shuffle_arm64.s. Each processes blocks of
// 16 elements; n is the element count of the whole buffer.

//go:noescape
func shuffle2NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func unshuffle2NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func shuffle4NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func unshuffle4NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func shuffle8NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func unshuffle8NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func shuffle16NEON(dst *byte, src *byte, n int, blocks int)

//go:noescape
func unshuffle16NEON(dst *byte, src *byte, n int, blocks int)
