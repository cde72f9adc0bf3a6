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
				if !bytes.Equal(got, want) {
					t.Fatalf("threads %d: %d bytes, reference %d; first difference at %d", threads, len(got), len(want), golden.FirstDiff(got, want))
				}
			}
			compared++
		})
	}
	if compared < 8 {
		t.Errorf("compared %d vectors, want the 8 blosclz/lz4 ones", compared)
	}
}
