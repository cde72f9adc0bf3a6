package blosc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func blosc2Entries(t *testing.T) (string, []golden.Entry) {
	t.Helper()
	dir := golden.Dir(t)
	all, err := golden.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []golden.Entry
	for _, e := range all {
		switch e.Kind {
		case "blosc2-chunk", "blosc2-special-chunk", "blosc2-vlblocks-chunk":
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		t.Fatal("no Blosc2 rows in the manifest")
	}
	return dir, out
}

func noteField(notes, key string) string {
	for _, f := range strings.Split(notes, ";") {
		if v, ok := strings.CutPrefix(f, key+"="); ok {
			return v
		}
	}
	return ""
}

// TestHeader2Manifest parses every Blosc2 vector's header, checks each
// field against the manifest and writes it back byte for byte.
func TestHeader2Manifest(t *testing.T) {
	dir, es := blosc2Entries(t)
	for _, e := range es {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			want, err := hex.DecodeString(noteField(e.Notes, "hdr"))
			if err != nil || len(want) != header2Len {
				t.Fatalf("manifest hdr: %v (%d bytes)", err, len(want))
			}
			raw := decodeHeader2(src)
			var got [header2Len]byte
			raw.put(got[:])
			if string(got[:]) != string(want) {
				t.Fatalf("header round trip:\n got %x\nwant %x", got, want)
			}
			h, err := parseHeader2(src)
			if err != nil {
				t.Fatalf("parseHeader2: %v", err)
			}
			if h.nbytes != int(e.Nbytes) || int(h.typesize) != e.Typesize || h.cbytes != int(e.Cbytes) || h.cbytes != len(src) {
				t.Errorf("nbytes %d typesize %d cbytes %d (file %d), manifest %d %d %d", h.nbytes, h.typesize, h.cbytes, len(src), e.Nbytes, e.Typesize, e.Cbytes)
			}
			if raw.blocksize != int(e.Blocksize) {
				t.Errorf("blocksize field %d, manifest %d", raw.blocksize, e.Blocksize)
			}
			if v, _ := strconv.Atoi(noteField(e.Notes, "version")); v != int(h.version) {
				t.Errorf("version %d, notes %d", h.version, v)
			}
			if f, _ := strconv.ParseUint(strings.TrimPrefix(noteField(e.Notes, "flags"), "0x"), 16, 8); uint8(f) != h.flags {
				t.Errorf("flags %#x, notes %#x", h.flags, f)
			}
			if f, _ := strconv.ParseUint(strings.TrimPrefix(noteField(e.Notes, "blosc2_flags"), "0x"), 16, 8); uint8(f) != h.b2flags {
				t.Errorf("blosc2 flags %#x, notes %#x", h.b2flags, f)
			}
			if f, _ := strconv.ParseUint(strings.TrimPrefix(noteField(e.Notes, "blosc2_flags2"), "0x"), 16, 8); uint8(f) != h.flags2 {
				t.Errorf("flags2 %#x, notes %#x", h.flags2, f)
			}
			switch sp := noteField(e.Notes, "special"); sp {
			case "zeros":
				checkEq(t, "special", h.special(), specialZero)
			case "nans":
				checkEq(t, "special", h.special(), specialNaN)
			case "repeatval":
				checkEq(t, "special", h.special(), specialValue)
			case "":
				if e.Pattern != "zeros" {
					checkEq(t, "special", h.special(), specialNone)
				}
			}
			checkEq(t, "vlblocks", h.vlBlocks(), e.Kind == "blosc2-vlblocks-chunk")
			checkEq(t, "dict", h.useDict(), strings.Contains(e.Notes, "use_dict=1"))
			if h.special() == specialNone && !h.memcpyed() {
				c, err := h.codec()
				if err != nil {
					t.Fatal(err)
				}
				checkEq(t, "codec", c.String(), e.Codec)
			}
			if !h.vlBlocks() && h.special() == specialNone && h.nbytes > 0 {
				mode := map[string]SplitMode{"default": SplitForwardCompat, "always": SplitAlways, "never": SplitNever,
					"auto": SplitAuto, "forward_compat": SplitForwardCompat}[e.SplitMode]
				c, _ := ParseCodec(e.Codec)
				var fs [MaxFilters]Filter
				for i, f := range h.filters {
					fs[i] = Filter(f)
				}
				forced, _ := strconv.Atoi(noteField(e.Notes, "forced_blocksize"))
				if m := bsInName.FindStringSubmatch(e.File); forced == 0 && m != nil {
					forced, _ = strconv.Atoi(m[1])
				}
				bs := blocksize2(h.nbytes, int(h.typesize), e.Clevel, c, fs, mode, forced)
				checkEq(t, "tuned blocksize", bs, h.blocksize)
				if !h.memcpyed() {
					checkEq(t, "split", splitBlock2(mode, c, e.Clevel, fs, int(h.typesize), bs) && !h.useDict(), !h.dontSplit())
				}
			}
		})
	}
}

var bsInName = regexp.MustCompile(`_bs(\d+)`)

func checkEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// goldenOut returns what C decodes the vector to: the .out file when there
// is one, else the raw input (regenerated when not stored), checked
// against out_sha256.
func goldenOut(t *testing.T, dir string, e golden.Entry) []byte {
	t.Helper()
	var want []byte
	if b, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, ".b2chunk")+".out")); err == nil {
		want = b
	} else if e.Raw != "" {
		if b, err := os.ReadFile(filepath.Join(dir, e.Raw)); err == nil {
			want = b
		}
	}
	if want == nil {
		t.Skipf("SKIPPED: no stored output for %s (pattern %s)", e.File, e.Pattern)
	}
	if sum := sha256.Sum256(want); hex.EncodeToString(sum[:]) != e.OutSHA256 {
		t.Fatalf("expected output does not match out_sha256")
	}
	return want
}

func TestDecompress2Golden(t *testing.T) {
	dir, es := blosc2Entries(t)
	d1 := &Decompressor{Threads: 1}
	d2 := &Decompressor{Threads: 2}
	for _, e := range es {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			// The package's own entry points, serial and parallel.
			for _, dec := range []func([]byte, []byte) ([]byte, error){Decompress, d1.Decompress, d2.Decompress} {
				got, err := dec(nil, src)
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(got)
				if hex.EncodeToString(sum[:]) != e.OutSHA256 {
					want := goldenOut(t, dir, e)
					t.Fatalf("sha256 mismatch; first difference at %d of %d/%d", firstDiff(got, want), len(got), len(want))
				}
			}
			got, _ := Decompress(nil, src)
			// The block loop against an independent stream decoder.
			var st decodeState
			alt, err := decompress2(nil, src, &st, &testCodec{})
			if err == nil && !bytes.Equal(alt, got) {
				t.Fatalf("test-codec decode differs at %d", firstDiff(alt, got))
			} else if err != nil && !errors.Is(err, errNoBloscLZ) {
				t.Fatal(err)
			}
			// GetItem over ranges that start and end inside blocks.
			h, err := ReadHeader(src)
			if err != nil {
				t.Fatal(err)
			}
			ts := h.Typesize
			nitems := h.Nbytes / ts
			for _, r := range [][2]int{{0, nitems}, {0, min(nitems, 1)}, {nitems / 3, nitems / 2}, {nitems - min(nitems, 5), min(nitems, 5)}, {nitems / 2, 0}} {
				items, err := GetItem(nil, src, r[0], r[1])
				if err != nil {
					t.Fatalf("GetItem(%d, %d): %v", r[0], r[1], err)
				}
				if want := got[r[0]*ts : (r[0]+r[1])*ts]; !bytes.Equal(items, want) {
					t.Fatalf("GetItem(%d, %d) differs at %d", r[0], r[1], firstDiff(items, want))
				}
			}
			if _, err := GetItem(nil, src, nitems, 1); !errors.Is(err, ErrRange) {
				t.Fatalf("GetItem past the end: %v", err)
			}
		})
	}
}
