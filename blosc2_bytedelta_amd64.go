//go:build !purego && !noasm && gc

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// byteDeltaDecodeSSE2 replaces buf[:len(buf)&^15] by its running sum
// from 0 and returns the last byte of that sum (0 when it is empty).
//
//go:noescape
func byteDeltaDecodeSSE2(buf []byte) byte

// byteDeltaEncodeSSE2 sets out[i] = in[i] - in[i-1] (in[-1] = 0) over
// in[:len(in)&^15] and returns the last byte of that span (0 when it is
// empty). len(out) >= len(in)&^15.
//
//go:noescape
func byteDeltaEncodeSSE2(out, in []byte) byte

// byteDeltaDecodeAVX2 is byteDeltaDecodeSSE2 over buf[:len(buf)&^31].
//
//go:noescape
func byteDeltaDecodeAVX2(buf []byte) byte

// byteDeltaEncodeAVX2 is byteDeltaEncodeSSE2 over in[:len(in)&^31].
//
//go:noescape
func byteDeltaEncodeAVX2(out, in []byte) byte

// BenchmarkByteDelta shows both vector levels well ahead of the portable
// code, and the AVX2 loops ahead of the SSE2 ones: encoding runs near copy
// speed; decoding, a prefix sum, is bound by its adds, of which a 32-byte
// vector needs barely more than a 16-byte one. AVX-512 CPUs run the AVX2
// loops.
func compiledByteDeltaLevel(l cpu.Level) bool {
	return l == cpu.Generic || l == cpu.SSE2 || l == cpu.AVX2
}

// byteDeltaEncodeChannel sets out[i] = in[i] - in[i-1] (in[-1] = 0) with
// the selected kernel, and the bytes the vectors leave in Go.
func byteDeltaEncodeChannel(out, in []byte) {
	_ = out[:len(in)]
	var p byte
	var n int
	switch byteDeltaLevel() {
	case cpu.AVX2:
		p, n = byteDeltaEncodeAVX2(out, in), len(in)&^31
	case cpu.SSE2:
		p, n = byteDeltaEncodeSSE2(out, in), len(in)&^15
	default:
		byteDeltaEncodeChannelGeneric(out, in)
		return
	}
	for i := n; i < len(in); i++ {
		v := in[i]
		out[i] = v - p
		p = v
	}
}

// byteDeltaDecodeChannel undoes byteDeltaEncodeChannel in place.
func byteDeltaDecodeChannel(buf []byte) {
	var p byte
	var n int
	switch byteDeltaLevel() {
	case cpu.AVX2:
		p, n = byteDeltaDecodeAVX2(buf), len(buf)&^31
	case cpu.SSE2:
		p, n = byteDeltaDecodeSSE2(buf), len(buf)&^15
	default:
		byteDeltaDecodeChannelGeneric(buf)
		return
	}
	for i := n; i < len(buf); i++ {
		p += buf[i]
		buf[i] = p
	}
}
