package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every raw input stored with the vectors must be reproduced by Pattern, and
// every manifest row whose pattern we know must match its raw_sha256.
func TestPatternsMatchRawFiles(t *testing.T) {
	dir := Dir(t)
	es, err := Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	seen := map[string]bool{}
	for _, e := range es {
		if strings.ContainsAny(e.Pattern, "(,[") || e.Pattern == "" || len(e.RawSHA256) != 64 || seen[e.Pattern+"/"+e.RawSHA256] {
			continue
		}
		if _, err := Pattern(e.Pattern, 1); err != nil {
			continue
		}
		seen[e.Pattern+"/"+e.RawSHA256] = true
		got, err := Pattern(e.Pattern, int(e.Nbytes))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(got)
		if hex.EncodeToString(sum[:]) != e.RawSHA256 {
			t.Errorf("%s: pattern %s n=%d: sha256 %x, manifest says %s", e.File, e.Pattern, e.Nbytes, sum, e.RawSHA256)
		}
		if e.Raw != "" {
			raw, err := os.ReadFile(filepath.Join(dir, e.Raw))
			if err == nil && !bytes.Equal(raw, got) {
				t.Errorf("%s differs from the generated pattern", e.Raw)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d patterns checked", checked)
	}
	t.Logf("%d pattern/size pairs reproduced", checked)
}
