package b2nd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

type goldenSlice struct {
	Start  []int64 `json:"start"`
	Stop   []int64 `json:"stop"`
	Nbytes int     `json:"nbytes"`
	SHA256 string  `json:"sha256"`
}

type goldenArray struct {
	File       string        `json:"file"`
	Shape      []int64       `json:"shape"`
	ChunkShape []int32       `json:"chunkshape"`
	BlockShape []int32       `json:"blockshape"`
	DType      string        `json:"dtype"`
	Typesize   int           `json:"typesize"`
	Filter     int           `json:"filter"`
	Sparse     bool          `json:"sparse"`
	DataNbytes int64         `json:"data_nbytes"`
	DataSHA256 string        `json:"data_sha256"`
	Slices     []goldenSlice `json:"slices"`

	path string
	data []byte // the .data file, when there is one
}

func goldenArrays(t testing.TB) []*goldenArray {
	t.Helper()
	dir := filepath.Join(golden.Dir(t), "b2nd")
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no b2nd golden arrays in %s (%v)", dir, err)
	}
	var out []*goldenArray
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ga := new(goldenArray)
		if err := json.Unmarshal(b, ga); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ga.path = filepath.Join(dir, ga.File)
		if d, err := os.ReadFile(strings.TrimSuffix(name, ".json") + ".data"); err == nil {
			ga.data = d
		}
		out = append(out, ga)
	}
	return out
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// skipMissingFilter skips a test whose array uses a filter this package
// does not implement yet (bytedelta, int_trunc), but only when the error
// says so: once the filter lands the skip stops firing.
func skipMissingFilter(t *testing.T, ga *goldenArray, err error) {
	t.Helper()
	if err == nil || !errors.Is(err, blosc.ErrUnsupported) {
		return
	}
	names := map[int]string{35: "bytedelta", 36: "int_trunc"}
	if name, ok := names[ga.Filter]; ok && strings.Contains(err.Error(), fmt.Sprintf("filter %d", ga.Filter)) {
		t.Skipf("SKIPPED: %s uses the %s filter (%d), which the root package lacks: %v", ga.File, name, ga.Filter, err)
	}
}

func checkGolden(t *testing.T, ga *goldenArray, a *Array) {
	t.Helper()
	if !slices.Equal(a.Shape(), ga.Shape) || !slices.Equal(a.ChunkShape(), ga.ChunkShape) || !slices.Equal(a.BlockShape(), ga.BlockShape) {
		t.Fatalf("shape %v chunks %v blocks %v, want %v %v %v", a.Shape(), a.ChunkShape(), a.BlockShape(), ga.Shape, ga.ChunkShape, ga.BlockShape)
	}
	if a.DType() != ga.DType || a.Itemsize() != ga.Typesize {
		t.Fatalf("dtype %q itemsize %d, want %q %d", a.DType(), a.Itemsize(), ga.DType, ga.Typesize)
	}
	all, err := a.Read(nil)
	skipMissingFilter(t, ga, err)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if int64(len(all)) != ga.DataNbytes || sha(all) != ga.DataSHA256 {
		t.Fatalf("Read: %d bytes, sha256 %s; want %d, %s", len(all), sha(all), ga.DataNbytes, ga.DataSHA256)
	}
	if ga.data != nil && !bytes.Equal(all, ga.data) {
		t.Fatalf("Read differs from %s.data", ga.File)
	}
	for _, s := range ga.Slices {
		// A dst with other bytes in it: every byte must be written.
		dst := bytes.Repeat([]byte{0xa5}, s.Nbytes)
		got, err := a.GetSlice(dst, s.Start, s.Stop)
		if err != nil {
			t.Fatalf("GetSlice(%v, %v): %v", s.Start, s.Stop, err)
		}
		if len(got) != s.Nbytes || sha(got) != s.SHA256 {
			t.Fatalf("GetSlice(%v, %v): %d bytes, sha256 %s; want %d, %s", s.Start, s.Stop, len(got), sha(got), s.Nbytes, s.SHA256)
		}
		if want := refSlice(all, ga.Shape, s.Start, s.Stop, ga.Typesize); !bytes.Equal(got, want) {
			t.Fatalf("GetSlice(%v, %v) differs from the slice of the whole", s.Start, s.Stop)
		}
	}
}

// TestGoldenArrays reads every array c-blosc2 wrote, whole and by every
// slice its sidecar lists, from a file, from bytes and (contiguous
// frames) through an io.ReaderAt.
func TestGoldenArrays(t *testing.T) {
	for _, ga := range goldenArrays(t) {
		t.Run(ga.File, func(t *testing.T) {
			a, err := Open(ga.path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer a.Close()
			checkGolden(t, ga, a)
			if ga.Sparse {
				return
			}
			b, err := os.ReadFile(ga.path)
			if err != nil {
				t.Fatal(err)
			}
			ab, err := OpenBytes(b)
			if err != nil {
				t.Fatalf("OpenBytes: %v", err)
			}
			checkGolden(t, ga, ab)
			ar, err := OpenReaderAt(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("OpenReaderAt: %v", err)
			}
			checkGolden(t, ga, ar)
		})
	}
}

// refSlice cuts [start, stop) out of a C-order array the plain way: item
// by item through its flat index.
func refSlice(all []byte, shape, start, stop []int64, itemsize int) []byte {
	var out []byte
	isz := int64(itemsize)
	eachRefItem(shape, start, stop, func(_, flat int64) {
		out = append(out, all[flat*isz:(flat+1)*isz]...)
	})
	return out
}

// TestGoldenMetaBytes checks that Marshal writes each golden array's
// metalayer byte for byte as c-blosc2 wrote it.
func TestGoldenMetaBytes(t *testing.T) {
	for _, ga := range goldenArrays(t) {
		a, err := Open(ga.path)
		if err != nil {
			t.Fatalf("%s: %v", ga.File, err)
		}
		raw, err := a.SChunk().Metalayer(MetaName)
		a.Close()
		if err != nil {
			t.Fatalf("%s: %v", ga.File, err)
		}
		m, err := ParseMeta(raw)
		if err != nil {
			t.Fatalf("%s: %v", ga.File, err)
		}
		got, err := m.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", ga.File, err)
		}
		if !bytes.Equal(got, raw) {
			t.Errorf("%s: Marshal\n%x\nc-blosc2 wrote\n%x", ga.File, got, raw)
		}
	}
}
