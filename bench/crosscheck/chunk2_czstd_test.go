//go:build cblosc && cgo

package crosscheck

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
)

// TestDictStreamsReadByC decodes every stream of our zstd dictionary
// chunks with the C zstd library, loading the dictionary as c-blosc2 does.
// (No c-blosc2 library is installed, so whole chunks cannot be checked.)
func TestDictStreamsReadByC(t *testing.T) {
	t.Logf("libzstd %d", czstd.Version())
	for _, fs := range [][blosc.MaxFilters]blosc.Filter{{}, {5: blosc.ByteShuffle}, {blosc.Delta, blosc.ByteShuffle}} {
		src, _ := golden.Pattern("text", 262144)
		o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: 5, Typesize: 4, Blocksize: 16384, Filters: fs, Dict: true}
		chunk, err := blosc.Compress(nil, src, o)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := openBlosc2(chunk)
		if !ok || c.dict == nil {
			t.Fatalf("no dictionary chunk")
		}
		want, err := blosc.Decompress(nil, chunk)
		if err != nil || !bytes.Equal(want, src) {
			t.Fatalf("round trip: %v", err)
		}
		streams := 0
		var st codec.State // the library's stream decoder
		for i := 0; i < c.h.Nblocks; i++ {
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
					if err := st.DecompressDict(codec.ID(blosc.Zstd), ref, c.src[p+4:p+4+cs], c.dict); err != nil || !bytes.Equal(out, ref) {
						t.Fatalf("C and Go decode stream %d/%d differently", i, j)
					}
					streams++
				}
				p += streamLen(c.src[p:])
			}
		}
		if streams == 0 {
			t.Fatal("no zstd streams checked")
		}
		t.Logf("%v: %d streams decoded by C zstd", fs, streams)
	}
}
