package zstdenc_test

import (
	"bytes"
	"fmt"

	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/goblosc/blosc/internal/zstdenc"
)

func ExampleEncoder_Encode() {
	src := bytes.Repeat([]byte("Blosc shuffles, zstd compresses. "), 100)
	var e zstdenc.Encoder
	frame := e.Encode(nil, src, 3) // libzstd's level 3: Blosc clevel 2

	var d zstddec.Decoder
	out := make([]byte, len(src))
	if err := d.Decode(out, frame); err != nil {
		panic(err)
	}
	fmt.Println(len(src), "bytes in", len(frame), "bytes, decoded back:", bytes.Equal(out, src))
	// Output: 3300 bytes in 52 bytes, decoded back: true
}
