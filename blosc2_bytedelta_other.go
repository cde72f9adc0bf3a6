//go:build purego || noasm || !gc || !amd64

package blosc

func byteDeltaEncodeChannel(out, in []byte) { byteDeltaEncodeChannelGeneric(out, in) }
func byteDeltaDecodeChannel(buf []byte)     { byteDeltaDecodeChannelGeneric(buf) }
