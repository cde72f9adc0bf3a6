//go:build !purego && !noasm && gc

package blosc

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

// The SSE2 loops ran 7 (encode) and 3 (decode) times as fast as the
// portable ones on a Xeon (BenchmarkByteDelta); SSE2 is amd64's baseline,
// and decoding is bound by its running sum, which wider vectors would not
// shorten.
func byteDeltaEncodeChannel(out, in []byte) {
	n := len(in) &^ 15
	_ = out[:len(in)]
	p := byteDeltaEncodeSSE2(out, in)
	for i := n; i < len(in); i++ {
		v := in[i]
		out[i] = v - p
		p = v
	}
}

func byteDeltaDecodeChannel(buf []byte) {
	p := byteDeltaDecodeSSE2(buf)
	for i := len(buf) &^ 15; i < len(buf); i++ {
		p += buf[i]
		buf[i] = p
	}
}
