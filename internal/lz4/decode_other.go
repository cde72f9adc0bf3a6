//go:build purego || noasm || !gc || !amd64

package lz4

// haveDecodeAsm says that decompress runs decodeFast.
var haveDecodeAsm = false

const (
	fastSrcMargin = 32
	fastDstMargin = 64
)

// decodeFast is never called where there is no assembly loop.
func decodeFast(dst, src []byte, si, di int, _ *[17][16]byte) (int, int) { return si, di }

var shortOffsetTable [17][16]byte
