package blosclz_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
	"github.com/goblosc/blosc/internal/golden"
)

func blosclzVectors(t *testing.T) (string, []golden.Entry) {
	t.Helper()
	dir, rows := golden.Rows(t, "blosc1-chunk", "blosc2-chunk")
	var out []golden.Entry
	for _, e := range rows {
		if e.Codec == "blosclz" {
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
		b := golden.Read(t, dir, e)
		c, err := blosclztest.ParseChunk(b, e.Kind == "blosc2-chunk")
		if err != nil {
			t.Errorf("%s: %v", e.File, err)
			continue
		}
		out, unfiltered, err := blosclztest.DecodeChunk(b, c)
		if err != nil {
			t.Errorf("%s: %v", e.File, err)
			continue
		}
		for _, s := range c.Streams {
			if s.Payload != nil && int(s.Csize) != s.Neblock {
				streams++
			}
		}
		if unfiltered {
			continue
		}
		if got := golden.SHA256(out); got != e.OutSHA256 {
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
	// c-blosc shrinks maxout near the end of a destination of nbytes+16
	// bytes.
	reencodeGolden(t, "blosc1-chunk", 16, blosclz.CompressBlock)
}

// c-blosc2's streams (BloscLZ 2.5.3) re-encode byte for byte with
// CompressBlosc2.
func TestEncodeMatchesGoldenBlosc2(t *testing.T) {
	reencodeGolden(t, "blosc2-chunk", 32, func(dst, src []byte, level int, _ bool) int {
		return blosclz.CompressBlosc2(dst, src, level)
	})
}

// reencodeGolden decodes every BloscLZ stream in the vectors of one kind
// and compresses it again with C's level and output bound (the stream
// size, shrunk near the end of a single-threaded destination of
// nbytes+slack bytes), requiring C's bytes and C's raw/compressed choice.
func reencodeGolden(t *testing.T, kind string, slack int, compress func(dst, src []byte, level int, split bool) int) {
	dir, es := blosclzVectors(t)
	blosc2 := kind == "blosc2-chunk"
	compared := 0
	for _, e := range es {
		if e.Kind != kind || (blosc2 && e.Clevel < 1) {
			continue
		}
		b := golden.Read(t, dir, e)
		c, err := blosclztest.ParseChunk(b, blosc2)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		mt := strings.Contains(e.File, "_mt")
		for _, s := range c.Streams {
			if blosc2 && s.Payload == nil {
				continue // a run, which c-blosc2 finds before calling BloscLZ
			}
			in := make([]byte, s.Neblock)
			if err := blosclztest.DecodeStream(s, in); err != nil {
				t.Fatalf("%s: %v", e.File, err)
			}
			maxout := s.Neblock
			if !mt {
				maxout = min(maxout, c.Nbytes+slack-s.Offset)
			}
			dst := make([]byte, s.Neblock+64)
			n := compress(dst[:maxout], in, e.Clevel, s.Split)
			raw := int(s.Csize) == s.Neblock
			switch {
			case raw && (n == 0 || n == s.Neblock):
			case raw:
				t.Errorf("%s block %d stream at %d: C stored %d bytes raw, we compress to %d", e.File, s.Block, s.Offset, s.Neblock, n)
			case n == 0:
				t.Errorf("%s block %d stream at %d: C compressed %d bytes to %d, we gave up", e.File, s.Block, s.Offset, s.Neblock, s.Csize)
			case !bytes.Equal(dst[:n], s.Payload):
				t.Errorf("%s block %d stream at %d: %d bytes, C wrote %d; first difference at %d", e.File, s.Block, s.Offset, n, s.Csize, golden.FirstDiff(dst[:n], s.Payload))
			}
			compared++
		}
	}
	t.Logf("%d streams re-encoded", compared)
	if compared < 100 {
		t.Errorf("only %d streams compared", compared)
	}
}

// The mutated chunks under corrupt/ reach blosclz.Decompress with damaged streams:
// it must fail cleanly (or decode something) and never panic.
func TestCorruptVectors(t *testing.T) {
	dir := golden.Dir(t)
	files, streams, failed := 0, 0, 0
	for _, sub := range []string{"blosc1", "blosc2"} {
		ents, err := os.ReadDir(filepath.Join(dir, "corrupt", sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range ents {
			if !strings.Contains(de.Name(), "blosclz") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, "corrupt", sub, de.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files++
			c, err := blosclztest.ParseChunk(b, sub == "blosc2")
			if err != nil || c.Nbytes > 1<<24 || c.Blocksize > 1<<24 {
				continue // the chunk layer's business, not a stream's
			}
			for _, s := range c.Streams {
				if s.Payload == nil || int(s.Csize) == s.Neblock || s.Neblock > 1<<24 {
					continue
				}
				out := make([]byte, s.Neblock)
				n, err := blosclz.Decompress(out, s.Payload)
				streams++
				if err != nil || n != len(out) {
					failed++
				}
				if err != nil && !errors.Is(err, blosclz.ErrCorrupt) {
					t.Errorf("%s: error %v does not wrap ErrCorrupt", de.Name(), err)
				}
				if n < 0 || n > len(out) {
					t.Errorf("%s: returned %d for %d bytes", de.Name(), n, len(out))
				}
			}
		}
	}
	t.Logf("%d chunks, %d streams decoded, %d of them rejected or short", files, streams, failed)
	if files < 20 {
		t.Errorf("only %d corrupt BloscLZ chunks found", files)
	}
}
