package bloscpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// sidecar is the part of a vector's .json the tests check.
type sidecar struct {
	Header struct {
		FormatVersion int    `json:"format_version"`
		Offsets       bool   `json:"offsets"`
		Metadata      bool   `json:"metadata"`
		Checksum      string `json:"checksum"`
		Typesize      int    `json:"typesize"`
		ChunkSize     int    `json:"chunk_size"`
		LastChunk     int    `json:"last_chunk"`
		NChunks       int64  `json:"nchunks"`
		MaxAppChunks  int64  `json:"max_app_chunks"`
	} `json:"bloscpack_header"`
	Metadata   json.RawMessage `json:"metadata"`
	MetaHeader *struct {
		Checksum string `json:"meta_checksum"`
		Codec    string `json:"meta_codec"`
		Level    int    `json:"meta_level"`
		Size     uint32 `json:"meta_size"`
		MaxSize  uint32 `json:"max_meta_size"`
		CompSize uint32 `json:"meta_comp_size"`
	} `json:"metadata_header"`
	Offsets []int64 `json:"offsets"`
	Chunks  []struct {
		FilePos int64 `json:"file_pos"`
		Blosc   struct {
			Flags   int `json:"flags"`
			Nbytes  int `json:"nbytes"`
			Ctbytes int `json:"ctbytes"`
		} `json:"blosc_header"`
		Digest string `json:"digest_hex"`
	} `json:"chunks"`
	DataSHA256 string `json:"data_sha256"`
	DataNbytes int64  `json:"data_nbytes"`
}

func readSidecar(t *testing.T, dir string, e golden.Entry) sidecar {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, ".blp")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s sidecar
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func goldenFiles(t *testing.T) (string, []golden.Entry) {
	dir, rows := golden.Rows(t, "bloscpack", "bloscpack-ndarray")
	return dir, rows
}

// Every reference file decodes to its sidecar's sha256, through the
// random-access File, the streaming Reader and Unpack, with every
// checksum verified and header, offsets, chunks and metadata as the
// sidecar records them.
func TestGoldenRead(t *testing.T) {
	dir, rows := goldenFiles(t)
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src := golden.Read(t, dir, e)
			sc := readSidecar(t, dir, e)
			f, err := Open(bytes.NewReader(src), int64(len(src)))
			if err != nil {
				t.Fatal(err)
			}
			h := f.Header()
			sh := sc.Header
			if int(h.Version) != sh.FormatVersion || h.Offsets != sh.Offsets || h.Metadata != sh.Metadata ||
				h.Checksum.String() != sh.Checksum || h.Typesize != sh.Typesize || h.ChunkSize != sh.ChunkSize ||
				h.LastChunk != sh.LastChunk || h.NChunks != sh.NChunks || h.MaxAppChunks != sh.MaxAppChunks {
				t.Errorf("header %+v, sidecar %+v", h, sh)
			}
			infos, err := f.Chunks()
			if err != nil {
				t.Fatal(err)
			}
			if len(infos) != len(sc.Chunks) {
				t.Fatalf("%d chunks, sidecar %d", len(infos), len(sc.Chunks))
			}
			for i, c := range sc.Chunks {
				in := infos[i]
				if in.Offset != c.FilePos || in.Cbytes != c.Blosc.Ctbytes || in.Nbytes != c.Blosc.Nbytes || in.Digest != c.Digest {
					t.Errorf("chunk %d: %+v, sidecar %+v", i, in, c)
				}
			}
			if h.Offsets {
				for i, o := range sc.Offsets {
					if f.slots[i] != o {
						t.Errorf("offset %d: %d, sidecar %d", i, f.slots[i], o)
					}
				}
			}
			checkMeta(t, f.Metadata(), f.MetaHeader(), sc)

			all := make([]byte, f.Len())
			if n, err := f.ReadAt(all, 0); n != len(all) || (err != nil && err != io.EOF) {
				t.Fatalf("ReadAt: %d, %v", n, err)
			}
			golden.CheckOutput(t, dir, e, all)
			if got := golden.SHA256(all); got != sc.DataSHA256 || int64(len(all)) != sc.DataNbytes {
				t.Errorf("data sha256 %s (%d bytes), sidecar %s (%d)", got, len(all), sc.DataSHA256, sc.DataNbytes)
			}
			un, meta, err := Unpack(src)
			if err != nil || !bytes.Equal(un, all) {
				t.Fatalf("Unpack: %v, equal %v", err, bytes.Equal(un, all))
			}
			checkMeta(t, meta, f.MetaHeader(), sc)

			r, err := NewReader(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			streamed, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(streamed, all) {
				t.Fatalf("stream: %v, %d bytes, equal %v", err, len(streamed), bytes.Equal(streamed, all))
			}
			checkMeta(t, r.Metadata(), r.MetaHeader(), sc)
		})
	}
}

func checkMeta(t *testing.T, m *Metadata, mh *MetaHeader, sc sidecar) {
	t.Helper()
	if (m != nil) != (sc.Metadata != nil) {
		t.Fatalf("metadata %v, sidecar has %d bytes", m, len(sc.Metadata))
	}
	if m == nil {
		return
	}
	var got, want any
	json.Unmarshal(m.JSON, &got)
	json.Unmarshal(sc.Metadata, &want)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if !bytes.Equal(gb, wb) {
		t.Errorf("metadata %s, sidecar %s", m.JSON, sc.Metadata)
	}
	var probe map[string]any
	json.Unmarshal(sc.Metadata, &probe)
	if probe["container"] == "numpy" {
		if m.Numpy == nil || m.Numpy.Dtype != probe["dtype"] || m.Numpy.Order != probe["order"] {
			t.Errorf("numpy fields %+v, sidecar %s", m.Numpy, sc.Metadata)
		}
	} else if m.Numpy != nil {
		t.Errorf("numpy fields %+v for a user document", m.Numpy)
	}
	smh := sc.MetaHeader
	if mh.Checksum.String() != smh.Checksum || mh.Codec.String() != smh.Codec || mh.Level != smh.Level ||
		mh.Size != smh.Size || mh.MaxSize != smh.MaxSize || mh.CompSize != smh.CompSize {
		t.Errorf("metadata header %+v, sidecar %+v", mh, smh)
	}
}

// Every corrupted reference file is refused with an error (never a panic,
// never data), through every reader; the error names the check.
func TestGoldenCorrupt(t *testing.T) {
	dir, rows := golden.Rows(t, "corrupt-bloscpack")
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src := golden.Read(t, dir, e)
			_, _, err := Unpack(src)
			if err == nil {
				t.Fatalf("Unpack accepted it")
			}
			if !errors.Is(err, blosc.ErrCorrupt) && !errors.Is(err, blosc.ErrUnsupported) {
				t.Errorf("error %v wraps neither ErrCorrupt nor ErrUnsupported", err)
			}
			mut, _ := e.Note("mutation")
			wantWord := map[string]string{
				"bad_magic": "magic", "format_version_99": "format version", "checksum_id_42": "checksum id",
				"last_chunk_gt_chunk_size": "last_chunk", "nchunks_huge": "nchunks", "offset0_plus5": "offsets",
				"chunk0_payload_bitflip": "checksum mismatch", "trunc_31": "header",
			}[mut]
			if wantWord != "" && !strings.Contains(err.Error(), wantWord) {
				t.Errorf("mutation %s: error %q does not name %q", mut, err, wantWord)
			}
			if mut == "chunk0_payload_bitflip" && !strings.Contains(err.Error(), "chunk 0") {
				t.Errorf("error %q does not name chunk 0", err)
			}
			r, err := NewReader(bytes.NewReader(src))
			if err == nil {
				_, err = io.ReadAll(r)
			}
			if err == nil {
				t.Fatalf("stream accepted it")
			}
		})
	}
}
