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

// The padded kernels: typesize 3 pads to 4, 5 to 7 to 8, 9 to 15 to 16.
// table is a 16-byte VTBL table from neonPad or neonPack.

//go:noescape
func shuffle3NEON(dst *byte, src *byte, n int, blocks int, table *byte)

//go:noescape
func unshuffle3NEON(dst *byte, src *byte, n int, blocks int, table *byte)

//go:noescape
func shufflePad8NEON(dst *byte, src *byte, n int, blocks int, ts int, table *byte)

//go:noescape
func unshufflePad8NEON(dst *byte, src *byte, n int, blocks int, ts int, table *byte)

//go:noescape
func shufflePad16NEON(dst *byte, src *byte, n int, blocks int, ts int)

//go:noescape
func unshufflePad16NEON(dst *byte, src *byte, n int, blocks int, ts int)
