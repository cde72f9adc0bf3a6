package bloscpack

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"testing"
)

// zlibC writes what C zlib writes, for every document in testdata made by
// Python's zlib.compress (C zlib) where it writes anything: all numpy
// metadata documents, and the small user documents.
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
	same, fallback, numpyFallback := 0, 0, 0
	for i, v := range f.Vectors {
		doc, _ := hex.DecodeString(v.Doc)
		want, _ := hex.DecodeString(v.Zlib)
		got, ok := zlibC(doc, v.Level)
		if !ok {
			// Only where C zlib wrote a dynamic-Huffman block: the
			// block-type decision is exact.
			if btype := want[2] >> 1 & 3; btype != 2 {
				t.Errorf("vector %d (level %d, %d bytes): not written, but C zlib wrote block type %d", i, v.Level, len(doc), btype)
			}
			fallback++
			if bytes.Contains(doc, []byte(`"container":"numpy"`)) {
				numpyFallback++
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("vector %d (level %d, %d bytes): %x, C zlib %x", i, v.Level, len(doc), got, want)
			continue
		}
		r, err := zlib.NewReader(bytes.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		if d, err := io.ReadAll(r); err != nil || !bytes.Equal(d, doc) {
			t.Fatalf("vector %d does not decode: %v", i, err)
		}
		same++
	}
	t.Logf("C zlib %s: %d identical, %d left to compress/zlib (dynamic blocks)", f.Version, same, fallback)
	if numpyFallback > 0 || same < len(f.Vectors)/2 {
		t.Errorf("%d numpy documents and %d of %d in all not written by zlibC", numpyFallback, fallback, len(f.Vectors))
	}
}

// FuzzZlibC: whatever zlibC writes is a zlib stream of its input.
func FuzzZlibC(f *testing.F) {
	f.Add([]byte(`{"dtype":"'<f8'","shape":[100,300],"order":"C","container":"numpy"}`), uint8(6))
	f.Add(bytes.Repeat([]byte("abcabcabd"), 300), uint8(9))
	f.Add([]byte{}, uint8(4))
	f.Fuzz(func(t *testing.T, doc []byte, level uint8) {
		z, ok := zlibC(doc, int(level%10))
		if !ok {
			return
		}
		r, err := zlib.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		d, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(d, doc) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
