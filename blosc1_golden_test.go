package blosc

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// rowOptions rebuilds the options C was given for a manifest row.
func rowOptions(t testing.TB, e golden.Entry) Options {
	t.Helper()
	c, err := ParseCodec(e.Codec)
	if err != nil {
		t.Fatalf("%s: %v", e.File, err)
	}
	o := Options{Codec: c, Level: e.Clevel, Typesize: e.Typesize, Threads: 1}
	switch e.Filters {
	case "shuffle":
		o.Filters[MaxFilters-1] = ByteShuffle
	case "bitshuffle":
		o.Filters[MaxFilters-1] = BitShuffle
	case "noshuffle":
	default:
		t.Fatalf("%s: filters %q", e.File, e.Filters)
	}
	if v, ok := e.Note("forced_blocksize"); ok {
		o.Blocksize, _ = strconv.Atoi(v)
	}
	switch e.SplitMode {
	case "default", "":
	case "always":
		o.SplitMode = SplitAlways
	case "never":
		o.SplitMode = SplitNever
	case "auto":
		o.SplitMode = SplitAuto
	case "forward_compat":
		o.SplitMode = SplitForwardCompat
	default:
		t.Fatalf("%s: split mode %q", e.File, e.SplitMode)
	}
	return o
}

func rowInput(t testing.TB, e golden.Entry) []byte {
	t.Helper()
	in, err := golden.Pattern(e.Pattern, int(e.Nbytes))
	if err != nil {
		t.Fatalf("%s: %v", e.File, err)
	}
	if e.RawSHA256 != "" && e.RawSHA256 != "-" && golden.SHA256(in) != e.RawSHA256 {
		t.Fatalf("%s: regenerated input does not match raw_sha256", e.File)
	}
	return in
}

// Every chunk c-blosc 1.21.3 wrote decodes to what C decoded, and its
// header reads as the manifest describes it.
func TestGoldenBlosc1Decode(t *testing.T) {
	dir, rows := golden.Rows(t, "blosc1-chunk")
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src := golden.Read(t, dir, e)
			h, err := ReadHeader(src)
			if err != nil {
				t.Fatalf("ReadHeader: %v", err)
			}
			wantCodec, _ := ParseCodec(e.Codec)
			if h.CodecCode != codecCode(wantCodec) {
				t.Errorf("codec code %d, manifest says %s", h.CodecCode, e.Codec)
			}
			if h.Typesize != e.Typesize || int64(h.Nbytes) != e.Nbytes || int64(h.Blocksize) != e.Blocksize || int64(h.Cbytes) != e.Cbytes {
				t.Errorf("header typesize/nbytes/blocksize/cbytes = %d/%d/%d/%d, manifest %d/%d/%d/%d",
					h.Typesize, h.Nbytes, h.Blocksize, h.Cbytes, e.Typesize, e.Nbytes, e.Blocksize, e.Cbytes)
			}
			if hdr, ok := e.Note("hdr"); ok && hex.EncodeToString(src[:16]) != hdr {
				t.Errorf("file header %x, manifest %s", src[:16], hdr)
			}
			for _, threads := range []int{1, 2} {
				d := &Decompressor{threads: threads}
				out, err := d.Decompress(nil, src)
				if err != nil {
					t.Fatalf("threads %d: Decompress: %v", threads, err)
				}
				if got := golden.SHA256(out); got != e.OutSHA256 {
					t.Fatalf("threads %d: output sha256 %s, want %s", threads, got, e.OutSHA256)
				}
			}
		})
	}
}

// byteIdenticalCodecs are the codecs whose Go encoder writes the C
// encoder's streams for Blosc1 chunks.
var byteIdenticalCodecs = map[string]bool{"lz4": true, "lz4hc": true, "blosclz": true, "zlib": true}

// Our chunks have C's header and layout, and C's bytes where the codec
// allows.
func TestGoldenBlosc1Compress(t *testing.T) {
	_, rows := golden.Rows(t, "blosc1-chunk")
	for _, e := range rows {
		if strings.Contains(e.File, "_mt2") {
			continue // C's multi-threaded output depends on timing
		}
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			dir := golden.Dir(t)
			want := golden.Read(t, dir, e)
			in := rowInput(t, e)
			opts := rowOptions(t, e)
			got, err := Compress(nil, in, opts)
			if err != nil {
				t.Fatal(err)
			}
			wh, _ := ReadHeader(want)
			gh, err := ReadHeader(got)
			if err != nil {
				t.Fatalf("our chunk: %v", err)
			}
			memcpyedC := wh.Memcpyed
			if byteIdenticalCodecs[e.Codec] || memcpyedC {
				if !bytes.Equal(got, want) {
					t.Fatalf("chunk differs from C's: %s", golden.ChunkDiff(got, want))
				}
				return
			}
			// Different encoders: same header but for cbytes (and the
			// memcpyed bit if one side could not compress).
			if !bytes.Equal(got[:12], want[:12]) {
				t.Errorf("header %x, C's %x", got[:12], want[:12])
			}
			if gh.Split != wh.Split || gh.Nblocks != wh.Nblocks {
				t.Errorf("split %v nblocks %d, C's %v %d", gh.Split, gh.Nblocks, wh.Split, wh.Nblocks)
			}
			back, err := Decompress(nil, got)
			if err != nil || !bytes.Equal(back, in) {
				t.Fatalf("round trip failed: %v", err)
			}
		})
	}
}
