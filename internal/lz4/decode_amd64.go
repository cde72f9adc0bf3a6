//go:build !purego && !noasm && gc

package lz4

import "github.com/klauspost/cpuid/v2"

// haveDecodeAsm says that decompress runs decodeFast, which needs SSSE3's
// PSHUFB for matches of offset below 16.
var haveDecodeAsm = cpuid.CPU.Supports(cpuid.SSSE3)

// shortOffsetTable holds in row k < 16 the PSHUFB indices i%k, which
// repeat a match's first k bytes over 16, and in row 16, column k, the
// largest multiple of k up to 16: the step at which those 16 bytes repeat.
var shortOffsetTable = func() (t [17][16]byte) {
	for k := 1; k < 16; k++ {
		for i := range 16 {
			t[k][i] = byte(i % k)
		}
		t[16][k] = byte(16 - 16%k)
	}
	return t
}()

// The room decodeFast needs before each token: with it, a sequence of
// fewer than 15 literals and a match of up to 18 bytes is copied with
// 16-byte moves that stay within src and dst, and no end-of-block rule can
// apply to it.
const (
	fastSrcMargin = 32
	fastDstMargin = 64
)

// decodeFast decodes the sequences of src from the token at si into dst
// from di, in decode_amd64.s, while at least fastSrcMargin bytes of src
// and fastDstMargin bytes of dst remain at each token. It returns the
// positions of the first sequence it does not decode, at its token: one
// closer to either end, or whose literals or match would take it there,
// or whose match reaches before dst or has offset 0. decompress decodes
// that one, with every check of the format.
//
//go:noescape
func decodeFast(dst, src []byte, si, di int, table *[17][16]byte) (nextSi, nextDi int)
