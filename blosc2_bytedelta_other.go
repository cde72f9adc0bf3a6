//go:build purego || noasm || !gc || !(amd64 || arm64)

package blosc

import "github.com/goblosc/blosc/internal/cpu"

func compiledByteDeltaLevel(l cpu.Level) bool { return l == cpu.Generic }

func byteDeltaEncodeChannel(out, in []byte) { byteDeltaEncodeChannelGeneric(out, in) }
func byteDeltaDecodeChannel(buf []byte)     { byteDeltaDecodeChannelGeneric(buf) }
