//go:build cblosc && cgo

package blosc

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
)

// TestDictStreamsReadByC decodes every stream of our zstd dictionary
// chunks with the C zstd library, loading the dictionary as c-blosc2 does.
// (No c-blosc2 library is installed, so whole chunks cannot be checked.)
func TestDictStreamsReadByC(t *testing.T) {
	t.Logf("libzstd %d", czstd.Version())
	for _, fs := range [][MaxFilters]Filter{{}, {5: ByteShuffle}, {Delta, ByteShuffle}} {
		src, _ := golden.Pattern("text", 262144)
		o := Options{Format: FormatBlosc2, Codec: Zstd, Level: 5, Typesize: 4, Blocksize: 16384, Filters: fs, Dict: true}
		chunk, err := Compress(nil, src, o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := openChunk2(chunk)
		if err != nil || c.dict == nil {
			t.Fatalf("no dictionary chunk: %v", err)
		}
		want, err := Decompress(nil, chunk)
		if err != nil || !bytes.Equal(want, src) {
			t.Fatalf("round trip: %v", err)
		}
		streams := 0
		for i := 0; i < c.nblocks; i++ {
			ns, neblock, _ := c.streams(i)
			p := c.bstart(i)
			for j := 0; j < ns; j++ {
				cs := le32(c.src[p:])
				if cs > 0 && cs != neblock {
					out := make([]byte, neblock)
					n, err := czstd.DecompressWithDict(out, c.src[p+4:p+4+cs], c.dict)
					if err != nil || n != neblock {
						t.Fatalf("%v block %d stream %d: C zstd: %d, %v", fs, i, j, n, err)
					}
					ref := make([]byte, neblock)
					if err := (&dictCodec{}).decodeStream(Zstd, c.dict, ref, c.src[p+4:p+4+cs]); err != nil || !bytes.Equal(out, ref) {
						t.Fatalf("C and Go decode stream %d/%d differently", i, j)
					}
					streams++
				}
				n, _ := scanStream(c.src[p:], neblock, Zstd)
				p += n
			}
		}
		if streams == 0 {
			t.Fatal("no zstd streams checked")
		}
		t.Logf("%v: %d streams decoded by C zstd", fs, streams)
	}
}
