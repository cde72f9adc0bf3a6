package blosc

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// frameSidecar is the JSON c-blosc2's vector generator wrote beside each
// frame.
type frameSidecar struct {
	NChunks      int     `json:"nchunks"`
	ChunkSize    int     `json:"chunksize"`
	Typesize     int     `json:"typesize"`
	Blocksize    int     `json:"blocksize"`
	Nbytes       int64   `json:"nbytes"`
	Cbytes       int64   `json:"cbytes"`
	Compcode     int     `json:"compcode"`
	Clevel       int     `json:"clevel"`
	Splitmode    int     `json:"splitmode"`
	UseDict      int     `json:"use_dict"`
	Filters      []uint8 `json:"filters"`
	FiltersMeta  []uint8 `json:"filters_meta"`
	Metalayers   []frameSidecarMeta
	VLMetalayers []frameSidecarMeta
	Chunks       []struct {
		Index   int    `json:"index"`
		Nbytes  int    `json:"nbytes"`
		Cbytes  int    `json:"cbytes"`
		Special int    `json:"special"`
		SHA256  string `json:"sha256"`
	} `json:"chunks"`
	DataSHA256 string `json:"data_sha256"`
	DataNbytes int64  `json:"data_nbytes"`
}

type frameSidecarMeta struct {
	Name       string `json:"name"`
	ContentHex string `json:"content_hex"`
}

func readFrameSidecar(t *testing.T, path string) frameSidecar {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sc frameSidecar
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sc
}

// TestFrameGolden opens every frame c-blosc2 wrote, checks every header
// field, metalayer, vlmetalayer and chunk against the sidecar, decodes
// each chunk, a byte range across chunks and the whole data to the
// sidecar's digests, and writes the frame back byte for byte.
func TestFrameGolden(t *testing.T) {
	dir := golden.Dir(t)
	sidecars, err := filepath.Glob(filepath.Join(dir, "frames", "*.json"))
	if err != nil || len(sidecars) == 0 {
		t.Fatalf("no frame sidecars in %s (%v)", dir, err)
	}
	for _, sp := range sidecars {
		name := strings.TrimSuffix(filepath.Base(sp), ".json")
		t.Run(name, func(t *testing.T) {
			fp := strings.TrimSuffix(sp, ".json") + ".b2frame"
			sc := readFrameSidecar(t, sp)
			if st, err := os.Stat(fp); err == nil && st.IsDir() {
				s, err := OpenSparseFrame(fp)
				if err != nil {
					t.Fatalf("OpenSparseFrame: %v", err)
				}
				checkFrameAgainstSidecar(t, s, sc)
				// As a contiguous frame, the same content.
				b, err := s.AppendFrame(nil)
				if err != nil {
					t.Fatal(err)
				}
				c, err := ParseFrame(b)
				if err != nil {
					t.Fatal(err)
				}
				sc.Cbytes = c.Cbytes()
				checkFrameAgainstSidecar(t, c, sc)
				return
			}
			b, err := os.ReadFile(fp)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseFrame(b)
			if err != nil {
				t.Fatalf("ParseFrame: %v", err)
			}
			checkFrameAgainstSidecar(t, s, sc)
			back, err := s.AppendFrame(nil)
			if err != nil {
				t.Fatalf("Frame: %v", err)
			}
			if !bytes.Equal(back, b) {
				i := 0
				for i < len(back) && i < len(b) && back[i] == b[i] {
					i++
				}
				t.Errorf("Frame wrote %d bytes, first difference from c-blosc2's %d at byte %d", len(back), len(b), i)
			}
			// The frame written back opens to the same content.
			again, err := ParseFrame(back)
			if err != nil {
				t.Fatalf("ParseFrame(Frame()): %v", err)
			}
			checkFrameAgainstSidecar(t, again, sc)
		})
	}
}

func checkFrameAgainstSidecar(t *testing.T, s *SChunk, sc frameSidecar) {
	t.Helper()
	if s.Nchunks() != sc.NChunks || s.Nbytes() != sc.Nbytes || s.Cbytes() != sc.Cbytes || s.Typesize() != sc.Typesize {
		t.Errorf("nchunks %d nbytes %d cbytes %d typesize %d; sidecar %d %d %d %d", s.Nchunks(), s.Nbytes(), s.Cbytes(), s.Typesize(), sc.NChunks, sc.Nbytes, sc.Cbytes, sc.Typesize)
	}
	if got := s.ChunkSize(); got != sc.ChunkSize && !(sc.NChunks == 0 && got == -1) {
		t.Errorf("chunksize %d, sidecar %d", got, sc.ChunkSize)
	}
	o := s.Options()
	if o.Blocksize != sc.Blocksize || int(o.Codec) != sc.Compcode || o.Level != sc.Clevel || int(o.SplitMode) != sc.Splitmode || (o.Dict != (sc.UseDict != 0)) {
		t.Errorf("options %+v, sidecar blocksize %d codec %d clevel %d splitmode %d dict %d", o, sc.Blocksize, sc.Compcode, sc.Clevel, sc.Splitmode, sc.UseDict)
	}
	for i := range sc.Filters {
		if uint8(o.Filters[i]) != sc.Filters[i] || o.FilterMeta[i] != sc.FiltersMeta[i] {
			t.Errorf("filters %v %v, sidecar %v %v", o.Filters, o.FilterMeta, sc.Filters, sc.FiltersMeta)
			break
		}
	}
	checkMetas(t, "metalayer", s.MetalayerNames(), s.Metalayer, sc.Metalayers)
	checkMetas(t, "vlmetalayer", s.VLMetalayerNames(), s.VLMetalayer, sc.VLMetalayers)
	if len(sc.Chunks) != s.Nchunks() {
		t.Fatalf("%d chunks, sidecar lists %d", s.Nchunks(), len(sc.Chunks))
	}
	var all []byte
	for i, c := range sc.Chunks {
		info, err := s.ChunkInfo(i)
		if err != nil {
			t.Fatal(err)
		}
		if info.Nbytes != c.Nbytes || info.Cbytes != c.Cbytes || int(info.Special) != c.Special {
			t.Errorf("chunk %d: %+v, sidecar %+v", i, info, c)
		}
		data, err := s.DecompressChunk(nil, i)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if got := golden.SHA256(data); got != c.SHA256 {
			t.Errorf("chunk %d: sha256 %s, sidecar %s", i, got, c.SHA256)
		}
		all = append(all, data...)
	}
	whole, err := s.Decompress(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := golden.SHA256(whole); got != sc.DataSHA256 || int64(len(whole)) != sc.DataNbytes {
		t.Errorf("data sha256 %s (%d bytes), sidecar %s (%d)", got, len(whole), sc.DataSHA256, sc.DataNbytes)
	}
	if !bytes.Equal(whole, all) {
		t.Errorf("Decompress differs from the chunks decoded one by one")
	}
	// Byte ranges across chunk boundaries through ReadAt.
	for _, r := range [][2]int64{{0, 1}, {s.Nbytes() / 3, s.Nbytes() / 2}, {s.Nbytes() - 7, 7}, {1, s.Nbytes() - 2}} {
		off, n := r[0], r[1]
		if off < 0 || n < 0 || off+n > s.Nbytes() {
			continue
		}
		p := make([]byte, n)
		if _, err := s.ReadAt(p, off); err != nil {
			t.Fatalf("ReadAt(%d, %d): %v", off, n, err)
		}
		if !bytes.Equal(p, whole[off:off+n]) {
			t.Errorf("ReadAt(%d, %d) differs from Decompress", off, n)
		}
	}
}

func checkMetas(t *testing.T, kind string, names []string, get func(string) ([]byte, error), want []frameSidecarMeta) {
	t.Helper()
	if len(names) != len(want) {
		t.Errorf("%ss %v, sidecar has %d", kind, names, len(want))
		return
	}
	for i, w := range want {
		if names[i] != w.Name {
			t.Errorf("%s %d is %q, sidecar %q", kind, i, names[i], w.Name)
		}
		got, err := get(w.Name)
		if err != nil {
			t.Errorf("%s %q: %v", kind, w.Name, err)
			continue
		}
		if hex.EncodeToString(got) != w.ContentHex {
			t.Errorf("%s %q = %x, sidecar %s", kind, w.Name, got, w.ContentHex)
		}
	}
}

// TestFrameCorruptGolden: every mutated frame is refused with an error
// wrapping ErrCorrupt, at parse time or when its data is decoded.
func TestFrameCorruptGolden(t *testing.T) {
	dir := golden.Dir(t)
	files, err := filepath.Glob(filepath.Join(dir, "corrupt", "frames", "*.b2frame"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corrupt frames in %s (%v)", dir, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			err = openAndDecodeFrame(b)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("error %v does not wrap ErrCorrupt", err)
			}
		})
	}
}

// openAndDecodeFrame parses a frame and decodes everything in it.
func openAndDecodeFrame(b []byte) error {
	s, err := ParseFrame(b)
	if err != nil {
		return err
	}
	if _, err := s.Decompress(nil); err != nil {
		return err
	}
	for _, name := range s.VLMetalayerNames() {
		if _, err := s.VLMetalayer(name); err != nil {
			return err
		}
	}
	return nil
}
