package blosclz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/testdata"
)

func blosclzVectors(t *testing.T) (string, []testdata.Entry) {
	dir := testdata.Dir(t)
	es, err := testdata.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []testdata.Entry
	for _, e := range es {
		if e.Codec == "blosclz" && (e.Kind == "blosc1-chunk" || e.Kind == "blosc2-chunk") {
			out = append(out, e)
		}
	}
	if len(out) < 40 {
		t.Fatalf("only %d BloscLZ chunk vectors in the manifest", len(out))
	}
	return dir, out
}

// Every BloscLZ stream C wrote decodes, and the chunk rebuilt from the
// streams has the SHA-256 the manifest records.
func TestDecodeGoldenVectors(t *testing.T) {
	dir, es := blosclzVectors(t)
	streams, hashed := 0, 0
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseChunk(b, e.Kind == "blosc2-chunk")
		if err != nil {
			t.Errorf("%s: %v", e.File, err)
			continue
		}
		out, unfiltered, err := decodeChunk(b, c)
		if err != nil {
			t.Errorf("%s: %v", e.File, err)
			continue
		}
		for _, s := range c.streams {
			if s.payload != nil && int(s.csize) != s.neblock {
				streams++
			}
		}
		if unfiltered {
			continue
		}
		sum := sha256.Sum256(out)
		if got := hex.EncodeToString(sum[:]); got != e.OutSHA256 {
			t.Errorf("%s: SHA-256 %s, manifest says %s", e.File, got, e.OutSHA256)
		}
		hashed++
	}
	t.Logf("%d compressed streams decoded, %d chunks checked against out_sha256", streams, hashed)
	if streams < 100 || hashed < 30 {
		t.Errorf("too little checked: %d streams, %d chunks", streams, hashed)
	}
}

// Re-encoding what each c-blosc 1.21 stream decodes to gives the very
// bytes C wrote, and the same raw/compressed decision.
func TestEncodeMatchesGoldenBlosc1(t *testing.T) {
	dir, es := blosclzVectors(t)
	compared := 0
	for _, e := range es {
		if e.Kind != "blosc1-chunk" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseChunk(b, false)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		mt := strings.Contains(e.File, "_mt")
		for _, s := range c.streams {
			in := make([]byte, s.neblock)
			if err := decodeStream(s, in); err != nil {
				t.Fatalf("%s: %v", e.File, err)
			}
			maxout := s.neblock
			if !mt {
				// c-blosc shrinks maxout near the end of a destination of
				// nbytes+16 bytes.
				maxout = min(maxout, c.nbytes+16-s.offset)
			}
			dst := make([]byte, s.neblock+64)
			n := CompressBlock(dst[:maxout], in, e.Clevel, s.split)
			raw := int(s.csize) == s.neblock
			switch {
			case raw && (n == 0 || n == s.neblock):
			case raw:
				t.Errorf("%s block %d stream at %d: C stored %d bytes raw, we compress to %d", e.File, s.block, s.offset, s.neblock, n)
			case n == 0:
				t.Errorf("%s block %d stream at %d: C compressed %d bytes to %d, we gave up", e.File, s.block, s.offset, s.neblock, s.csize)
			case !bytes.Equal(dst[:n], s.payload):
				t.Errorf("%s block %d stream at %d: %d bytes, C wrote %d; first difference at %d", e.File, s.block, s.offset, n, s.csize, firstDiff(dst[:n], s.payload))
			}
			compared++
		}
	}
	t.Logf("%d streams re-encoded", compared)
	if compared < 100 {
		t.Errorf("only %d streams compared", compared)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
