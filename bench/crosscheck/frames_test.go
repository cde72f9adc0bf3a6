//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/frametest"
)

// The frame files and operations of the root package's frame tests
// (frame_file_test.go, frame_sparse_test.go), for c-blosc2 to read after each.

type frameState = frametest.State

func stateOf(t *testing.T, s *blosc.SChunk) frameState { return frametest.StateOf(t, s) }

func fileOps(t *testing.T) []frametest.Op[*blosc.SChunk] {
	o := blosc.DefaultOptions()
	o.Format = blosc.FormatBlosc2
	chunk := func(seed byte) []byte { return must(blosc.Compress(nil, frametest.ChunkData(seed), o)) }
	return frametest.FileOps[*blosc.SChunk](chunk, must(blosc.ZerosChunk(nil, 256, 8)))
}

// baseFrameFile is a frame file with metalayers, vlmetalayers and three
// chunks.
func baseFrameFile(t *testing.T) []byte {
	f := faultfile.New(nil, faultfile.NoFault)
	s, err := blosc.CreateFrameFile(f, blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	if err := frametest.Fill(s, bytes.Repeat([]byte("abcdefgh"), 96)); err != nil {
		t.Fatal(err)
	}
	return f.Bytes()
}

// reopen opens a frame file's bytes as OpenFrameFile would after a crash.
func reopen(b []byte) (*blosc.SChunk, *faultfile.File, error) {
	f := faultfile.New(b, faultfile.NoFault)
	s, err := blosc.OpenFrameFile(f)
	return s, f, err
}

// baseSparse makes a sparse frame like baseFrameFile's.
func baseSparse(t *testing.T, dir string) {
	s, err := blosc.CreateSparseFrame(dir, blosc.SChunkOptions{Options: blosc.DefaultOptions(), ChunkSize: 256})
	if err != nil {
		t.Fatal(err)
	}
	zeros := must(blosc.Compress(nil, make([]byte, 256), blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8}))
	ramp := must(blosc.Compress(nil, frametest.Ramp(), blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.BloscLZ, Level: 5, Typesize: 8,
		Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}}))
	if err := frametest.FillSparse(s, zeros, ramp); err != nil {
		t.Fatal(err)
	}
}
