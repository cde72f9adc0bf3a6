package blosc

import "encoding/binary"

// The portable per-channel loops. Encoding works on eight byte lanes in a
// uint64 (SWAR), three times as fast as a byte loop.
const (
	lanesHigh = 0x8080808080808080
	lanesLow  = 0x7f7f7f7f7f7f7f7f
)

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
// place: a running sum. A byte at a time, as the chain of adds is what
// limits it: the SWAR form of it (three shifted adds per word and a
// broadcast of the carry) ran at a third of this loop's speed.
func byteDeltaDecodeChannelGeneric(buf []byte) {
	var p byte
	for i := range buf {
		p += buf[i]
		buf[i] = p
	}
}
