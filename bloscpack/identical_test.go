package bloscpack

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// optionsFor rebuilds the options the reference was given for a vector,
// from its manifest row and sidecar.
func optionsFor(t *testing.T, e golden.Entry, sc sidecar) Options {
	t.Helper()
	codec, err := blosc.ParseCodec(e.Codec)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Blosc = blosc.Options{Codec: codec, Level: e.Clevel, Typesize: e.Typesize}
	if e.Filters == "shuffle" {
		o.Blosc.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
	}
	h := sc.Header
	o.ChunkSize = h.ChunkSize
	if o.ChunkSize == 0 {
		o.ChunkSize = DefaultChunkSize // an empty input ignores it
	}
	o.Checksum, err = ParseChecksum(h.Checksum)
	if err != nil {
		t.Fatal(err)
	}
	o.Offsets = h.Offsets
	o.MaxAppChunks = h.MaxAppChunks
	if sc.Metadata != nil {
		m, err := parseMetadata(sc.Metadata)
		if err != nil {
			t.Fatal(err)
		}
		o.Metadata = m
		mh := sc.MetaHeader
		o.Meta.Checksum, _ = ParseChecksum(mh.Checksum)
		o.Meta.Level = mh.Level
		o.Meta.MaxSize = int(mh.MaxSize)
		// The header records zlib only where compressing did not grow
		// the document; the reference was asked for zlib either way
		// (the manifest notes say so), and so are we.
		o.Meta.Codec = MetaZlib
	}
	return o
}

// For every vector whose input is known and whose codec writes the same
// bytes as c-blosc 1.21 (blosclz, lz4), the file we write with the
// sidecar's options is the reference's file, byte for byte.
func TestGoldenByteIdentical(t *testing.T) {
	dir, rows := goldenFiles(t)
	compared := 0
	for _, e := range rows {
		if e.Codec != "blosclz" && e.Codec != "lz4" {
			continue
		}
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			ref := golden.Read(t, dir, e)
			sc := readSidecar(t, dir, e)
			src := golden.Expected(t, dir, e)
			for _, threads := range []int{1, 3} {
				o := optionsFor(t, e, sc)
				o.Threads = threads
				want := ref
				got, err := Pack(src, o)
				if err != nil {
					t.Fatal(err)
				}
				if sc.MetaHeader != nil && sc.MetaHeader.Codec == "zlib" {
					// Go's deflate is not C zlib: the stored metadata may
					// differ (and be kept uncompressed if ours came out
					// larger). Everything around it must be identical,
					// and it must hold the same document.
					got, want = sameMetadata(t, got, want)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("threads %d: %d bytes, reference %d; first difference at %d", threads, len(got), len(want), firstDiff(got, want))
				}
			}
			compared++
		})
	}
	if compared < 8 {
		t.Errorf("compared %d vectors, want the 8 blosclz/lz4 ones", compared)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// sameMetadata checks that two files' metadata sections have the same
// size, checksum kind, level, meta_size and document, and returns the
// files with the sections cut out.
func sameMetadata(t *testing.T, got, want []byte) ([]byte, []byte) {
	t.Helper()
	var secs [2]int64
	var docs [2][]byte
	for k, b := range [][]byte{got, want} {
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		mh := f.MetaHeader()
		secs[k], docs[k] = mh.sectionLen(), f.Metadata().JSON
	}
	gm, _ := decodeMetaHeader(got[headerLen:])
	wm, _ := decodeMetaHeader(want[headerLen:])
	if secs[0] != secs[1] || !bytes.Equal(docs[0], docs[1]) || gm.Size != wm.Size || gm.MaxSize != wm.MaxSize ||
		gm.Checksum != wm.Checksum || gm.Level != wm.Level {
		t.Fatalf("metadata sections differ: %+v %s, reference %+v %s", gm, docs[0], wm, docs[1])
	}
	t.Logf("metadata: zlib stored %d bytes as %v (reference %d bytes as %v)", gm.CompSize, gm.Codec, wm.CompSize, wm.Codec)
	cut := func(b []byte) []byte {
		return append(append([]byte{}, b[:headerLen]...), b[headerLen+int(secs[0]):]...)
	}
	return cut(got), cut(want)
}
