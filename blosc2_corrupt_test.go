package blosc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestCorruptBlosc2: every mutated Blosc2 chunk decodes to an error
// wrapping ErrCorrupt or ErrUnsupported, or to exactly what its unmutated
// base decodes to; it never panics, and neither the package function nor
// a Decompressor allocates more than the chunk's bytes or its base's real
// content justify.
func TestCorruptBlosc2(t *testing.T) {
	dir, rows := golden.Rows(t, "corrupt-blosc2")
	_, all := golden.Rows(t)
	bases := map[string]golden.Entry{}
	for _, e := range all {
		bases[e.File] = e
	}
	d := &Decompressor{threads: 1}
	rejected, resized := 0, 0
	for _, e := range rows {
		base, ok := bases[note(e, "base")]
		if !ok {
			t.Fatalf("%s: base %q not in the manifest", e.File, note(e, "base"))
		}
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src := golden.Read(t, dir, e)
			limit := corruptBlosc2AllocLimit(src, base)
			var out, pout []byte
			var derr, perr error
			n := allocatedBy(func() { out, derr = d.Decompress(nil, src) })
			pn := allocatedBy(func() { pout, perr = Decompress(nil, src) })
			t.Logf("%d bytes: err=%v, allocated %d and %d (limit %d)", len(src), derr, n, pn, limit)
			if n > limit || pn > limit {
				t.Errorf("allocated %d (Decompressor) and %d (Decompress) bytes for a %d-byte chunk whose base holds %d (limit %d)",
					n, pn, len(src), base.Nbytes, limit)
			}
			if (derr == nil) != (perr == nil) || !bytes.Equal(out, pout) {
				t.Fatalf("Decompressor (%v) and Decompress (%v) disagree", derr, perr)
			}
			if derr != nil {
				if !errors.Is(derr, ErrCorrupt) && !errors.Is(derr, ErrUnsupported) {
					t.Errorf("error %v wraps neither ErrCorrupt nor ErrUnsupported", derr)
				}
				rejected++
				return
			}
			if base.Kind == "blosc2-special-chunk" && strings.HasPrefix(note(e, "mutation"), "nbytes") {
				// A special chunk's size lives only in its header: a
				// changed nbytes is a different valid chunk of the same
				// value, which no reader can tell apart. Check that.
				resized++
				ref, err := os.ReadFile(filepath.Join(dir, base.File))
				if err != nil {
					t.Fatal(err)
				}
				want, err := Decompress(nil, ref)
				if err != nil {
					t.Fatal(err)
				}
				ts := len(src) - header2Len
				if ts == 0 {
					ts = 1
				}
				for i := range out {
					if out[i] != want[i%ts] {
						t.Fatalf("byte %d of the resized special chunk is %#x, want %#x", i, out[i], want[i%ts])
					}
				}
				return
			}
			if golden.SHA256(out) != base.OutSHA256 {
				t.Errorf("decoded %d bytes without error, but not the base's content (mutation %s)", len(out), note(e, "mutation"))
			}
		})
	}
	t.Logf("%d corrupt chunks, %d rejected with an error, %d resized special chunks", len(rows), rejected, resized)
}

// corruptBlosc2AllocLimit is the most a decode of a mutated Blosc2 chunk
// may allocate. Two bounds, both must hold: what the stored bytes justify
// (allocLimit, plus nbytes when the header is valid, since zero runs and
// special chunks legitimately expand to it), and a small multiple of the
// unmutated base's real content, so a lying nbytes cannot buy a large
// buffer.
func corruptBlosc2AllocLimit(src []byte, base golden.Entry) uint64 {
	bySrc := allocLimit(src)
	if h, err := ReadHeader(src); err == nil {
		if h.Special != SpecialNone {
			bySrc += uint64(h.Nbytes)
		}
		if h.Format == FormatBlosc2 {
			bySrc += uint64(h.Nbytes)
		}
	}
	return min(bySrc, uint64(3*base.Nbytes)+1<<20)
}
