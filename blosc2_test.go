package blosc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/testdata"
)

func blosc2Rows(t testing.TB) (string, []testdata.Entry) {
	t.Helper()
	dir := testdata.Dir(t)
	es, err := testdata.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rows []testdata.Entry
	for _, e := range es {
		switch e.Kind {
		case "blosc2-chunk", "blosc2-special-chunk", "blosc2-vlblocks-chunk":
			rows = append(rows, e)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no Blosc2 chunk rows")
	}
	return dir, rows
}

// Every chunk c-blosc2 wrote decodes to what C decoded (or, where notes
// record a C bug, to the bytes C got right).
func TestGoldenBlosc2Decode(t *testing.T) {
	dir, rows := blosc2Rows(t)
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			h, err := ReadHeader(src)
			if err != nil {
				t.Fatalf("ReadHeader: %v", err)
			}
			if h.Format != FormatBlosc2 || h.Typesize != e.Typesize || int64(h.Nbytes) != e.Nbytes ||
				int64(le32(src[8:])) != e.Blocksize || int64(h.Cbytes) != e.Cbytes {
				t.Errorf("header %+v, manifest typesize/nbytes/blocksize/cbytes %d/%d/%d/%d", h, e.Typesize, e.Nbytes, e.Blocksize, e.Cbytes)
			}
			if e.Kind == "blosc2-chunk" {
				if c, _ := ParseCodec(e.Codec); h.Codec != c {
					t.Errorf("codec %s, manifest %s", h.Codec, e.Codec)
				}
			}
			for _, threads := range []int{1, 2} {
				out, err := (&Decompressor{Threads: threads}).Decompress(nil, src)
				if err != nil {
					t.Fatalf("threads %d: Decompress: %v", threads, err)
				}
				checkOut(t, dir, e, out)
			}
			// GetItem of a middle range agrees.
			ts := h.Typesize
			if h.Special == SpecialValue {
				ts = h.Cbytes - blosc2HeaderLen
			}
			if items := h.Nbytes / ts; items > 2 {
				full, _ := Decompress(nil, src)
				got, err := GetItem(nil, src, items/3, items/2)
				if err != nil || !bytes.Equal(got, full[items/3*ts:(items/3+items/2)*ts]) {
					t.Fatalf("GetItem(%d, %d): %v", items/3, items/2, err)
				}
			}
		})
	}
}

func checkOut(t *testing.T, dir string, e testdata.Entry, out []byte) {
	t.Helper()
	for _, kv := range strings.Split(e.Notes, ";") {
		if v, ok := strings.CutPrefix(kv, "compare_only_first_"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(v, "_bytes"))
			if err != nil {
				t.Fatalf("notes %q", kv)
			}
			want, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, ".b2chunk")+".out"))
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != int(e.Nbytes) || !bytes.Equal(out[:n], want[:n]) {
				t.Fatalf("first %d bytes differ from C's", n)
			}
			return
		}
	}
	if got := sha(out); got != e.OutSHA256 {
		t.Fatalf("output sha256 %s, want %s", got, e.OutSHA256)
	}
}

// Every mutated Blosc2 chunk returns an error or the right bytes, never
// panics, and allocates no more than its bytes justify.
func TestCorruptBlosc2(t *testing.T) {
	dir, rows := manifestRows(t, "corrupt-blosc2")
	all, _ := testdata.Manifest(dir)
	outSHA := map[string]string{}
	for _, e := range all {
		outSHA[e.File] = e.OutSHA256
	}
	d := &Decompressor{Threads: 1}
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			base, _ := noteValue(e.Notes, "base")
			var out []byte
			var derr error
			n := allocatedBy(func() { out, derr = d.Decompress(nil, src) })
			t.Logf("%d bytes: err=%v, allocated %d", len(src), derr, n)
			if derr != nil {
				if !errors.Is(derr, ErrCorrupt) && !errors.Is(derr, ErrUnsupported) {
					t.Errorf("error %v wraps neither ErrCorrupt nor ErrUnsupported", derr)
				}
			} else if want, ok := outSHA[base]; !ok {
				t.Fatalf("decoded a mutation of %q, whose output is unknown", base)
			} else if sha(out) != want {
				h, _ := ReadHeader(src)
				if h.Special == SpecialNone {
					t.Fatalf("decoded without error to wrong bytes (%d)", len(out))
				}
				// A special chunk is only its header: a mutated header is a
				// different, valid chunk.
			}
			h, herr := ReadHeader(src)
			limit := allocLimit(src)
			if herr == nil && h.Special != SpecialNone {
				limit += uint64(h.Nbytes) // a special chunk justifies its size
			}
			if herr == nil && h.Format == FormatBlosc2 {
				limit += uint64(h.Nbytes) // zero and byte runs justify theirs
			}
			if n > limit {
				t.Errorf("allocated %d bytes for a %d-byte input (limit %d)", n, len(src), limit)
			}
		})
	}
}
