package blosc

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestDecompress2Corrupt: every mutated Blosc2 chunk decodes to an error or
// to exactly what its unmutated base decodes to, never panics, and never
// allocates much more than the base's real content.
func TestDecompress2Corrupt(t *testing.T) {
	dir := golden.Dir(t)
	all, err := golden.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	bases := map[string]golden.Entry{}
	for _, e := range all {
		bases[e.File] = e
	}
	n, errs := 0, 0
	for _, e := range all {
		if e.Kind != "corrupt-blosc2" {
			continue
		}
		n++
		base, ok := bases[noteField(e.Notes, "base")]
		if !ok {
			t.Fatalf("%s: base %q not in the manifest", e.File, noteField(e.Notes, "base"))
		}
		t.Run(strings.TrimPrefix(filepath.Base(e.File), ""), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			got, err := Decompress(nil, src)
			runtime.ReadMemStats(&ms1)
			if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > uint64(3*base.Nbytes)+1<<20 {
				t.Errorf("allocated %d bytes for a chunk whose base holds %d", alloc, base.Nbytes)
			}
			if err != nil {
				errs++
				return
			}
			sum := sha256.Sum256(got)
			if base.Kind == "blosc2-special-chunk" && strings.HasPrefix(noteField(e.Notes, "mutation"), "nbytes") {
				// A special chunk's size lives only in its header: a
				// changed nbytes is a different valid chunk of the same
				// value, which no reader can tell apart. Check that.
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
				for i := range got {
					if got[i] != want[i%ts] {
						t.Fatalf("byte %d of the resized special chunk is %#x, want %#x", i, got[i], want[i%ts])
					}
				}
				return
			}
			if hex.EncodeToString(sum[:]) != base.OutSHA256 {
				t.Errorf("decoded %d bytes without error, but not the base's content (mutation %s)", len(got), noteField(e.Notes, "mutation"))
			}
		})
	}
	if n == 0 {
		t.Fatal("no corrupt-blosc2 rows")
	}
	t.Logf("%d corrupt chunks, %d rejected with an error", n, errs)
}
