package blosc

import "encoding/binary"

// SWAR (eight byte lanes in a uint64) forms of the per-channel loops. A
// byte at a time, decoding is a chain of dependent adds through memory; in
// words it is a prefix sum of three shifted adds per eight bytes.
const (
	lanesHigh = 0x8080808080808080
	lanesLow  = 0x7f7f7f7f7f7f7f7f
	lanesOne  = 0x0101010101010101
)

// addLanes adds a and b bytewise, without carries between bytes.
func addLanes(a, b uint64) uint64 {
	return ((a & lanesLow) + (b & lanesLow)) ^ ((a ^ b) & lanesHigh)
}

// subLanes subtracts b from a bytewise, without borrows between bytes.
func subLanes(a, b uint64) uint64 {
	return ((a | lanesHigh) - (b & lanesLow)) ^ ((a ^ ^b) & lanesHigh)
}

// byteDeltaEncodeChannelGeneric sets out[i] = in[i] - in[i-1], in[-1]
// being 0.
func byteDeltaEncodeChannelGeneric(out, in []byte) {
	var prev uint64 // the byte before the word, in the low lane
	i := 0
	for ; i+8 <= len(in); i += 8 {
		v := binary.LittleEndian.Uint64(in[i:])
		binary.LittleEndian.PutUint64(out[i:], subLanes(v, v<<8|prev))
		prev = v >> 56
	}
	p := byte(prev)
	for ; i < len(in); i++ {
		v := in[i]
		out[i] = v - p
		p = v
	}
}

// byteDeltaDecodeChannelGeneric undoes byteDeltaEncodeChannelGeneric in
// place: a running sum.
func byteDeltaDecodeChannelGeneric(buf []byte) {
	var prev uint64 // the last decoded byte, in every lane
	i := 0
	for ; i+8 <= len(buf); i += 8 {
		v := binary.LittleEndian.Uint64(buf[i:])
		v = addLanes(v, v<<8)
		v = addLanes(v, v<<16)
		v = addLanes(v, v<<32)
		v = addLanes(v, prev)
		binary.LittleEndian.PutUint64(buf[i:], v)
		prev = (v >> 56) * lanesOne
	}
	p := byte(prev)
	for ; i < len(buf); i++ {
		p += buf[i]
		buf[i] = p
	}
}
