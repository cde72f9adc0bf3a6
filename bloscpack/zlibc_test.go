package bloscpack

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/goblosc/blosc/internal/deflate"
)

// The metadata encoder writes what C zlib writes, for every document in
// testdata made by Python's zlib.compress (C zlib).
func TestZlibC(t *testing.T) {
	b, err := os.ReadFile("testdata/zlib_c.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Version string `json:"zlib_version"`
		Vectors []struct {
			Level int    `json:"level"`
			Doc   string `json:"doc"`
			Zlib  string `json:"zlib"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	var e deflate.Encoder
	for i, v := range f.Vectors {
		doc, _ := hex.DecodeString(v.Doc)
		want, _ := hex.DecodeString(v.Zlib)
		if got := e.AppendCompress(nil, doc, v.Level); string(got) != string(want) {
			t.Errorf("vector %d (level %d, %d bytes): %x, C zlib %x", i, v.Level, len(doc), got, want)
		}
	}
	t.Logf("C zlib %s: %d documents", f.Version, len(f.Vectors))
}
