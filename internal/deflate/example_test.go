package deflate_test

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	"github.com/goblosc/blosc/internal/deflate"
)

// A reused Encoder writes the zlib stream compress2 writes at the level;
// any zlib reader decodes it.
func ExampleEncoder_Compress() {
	var e deflate.Encoder
	src := bytes.Repeat([]byte("blosc blocks, "), 100)
	dst := make([]byte, deflate.Bound(len(src)))
	n := e.Compress(dst, src, 6)
	r, _ := zlib.NewReader(bytes.NewReader(dst[:n]))
	back, _ := io.ReadAll(r)
	fmt.Printf("%d bytes -> %d, header %x, round trip %v\n", len(src), n, dst[:2], bytes.Equal(back, src))
	// Output: 1400 bytes -> 34, header 789c, round trip true
}
