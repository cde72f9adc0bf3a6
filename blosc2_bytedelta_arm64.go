//go:build !purego && !noasm && gc

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// byteDeltaDecodeNEON replaces buf[:len(buf)&^15] by its running sum
// from 0 and returns the last byte of that sum (0 when it is empty).
//
//go:noescape
func byteDeltaDecodeNEON(buf []byte) byte

// byteDeltaEncodeNEON sets out[i] = in[i] - in[i-1] (in[-1] = 0) over
// in[:len(in)&^15] and returns the last byte of that span (0 when it is
// empty). len(out) >= len(in)&^15.
//
//go:noescape
func byteDeltaEncodeNEON(out, in []byte) byte

func compiledByteDeltaLevel(l cpu.Level) bool { return l == cpu.Generic || l == cpu.NEON }

// byteDeltaEncodeChannel sets out[i] = in[i] - in[i-1] (in[-1] = 0) with
// the selected kernel, and the bytes the vectors leave in Go.
func byteDeltaEncodeChannel(out, in []byte) {
	if byteDeltaLevel() != cpu.NEON {
		byteDeltaEncodeChannelGeneric(out, in)
		return
	}
	_ = out[:len(in)]
	p := byteDeltaEncodeNEON(out, in)
	for i := len(in) &^ 15; i < len(in); i++ {
		v := in[i]
		out[i] = v - p
		p = v
	}
}

// byteDeltaDecodeChannel undoes byteDeltaEncodeChannel in place.
func byteDeltaDecodeChannel(buf []byte) {
	if byteDeltaLevel() != cpu.NEON {
		byteDeltaDecodeChannelGeneric(buf)
		return
	}
	p := byteDeltaDecodeNEON(buf)
	for i := len(buf) &^ 15; i < len(buf); i++ {
		p += buf[i]
		buf[i] = p
	}
}
