package bloscpack

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

func seedFiles(f *testing.F) {
	dir, rows, err := golden.Lookup("bloscpack", "bloscpack-ndarray", "corrupt-bloscpack")
	if err != nil && !errors.Is(err, golden.ErrNotFound) {
		f.Fatal(err)
	}
	for _, e := range rows {
		b, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	// Our own small files: every checksum, with and without offsets and
	// metadata, one and several chunks.
	src, _ := golden.Pattern("runs", 5000)
	for c := NoChecksum; c < numChecksums; c++ {
		o := DefaultOptions()
		o.ChunkSize, o.Checksum, o.Offsets = 1500+int(c)*300, c, c%2 == 0
		if c%3 == 0 {
			o.Metadata = NewNumpyMetadata("'<i2'", []int64{2500}, "F")
		}
		b, err := Pack(src[:int(c)*600], o)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzReader: no input makes a reader panic; when the random-access File
// and the streaming Reader both read a file they yield the same bytes,
// which are chunk i concatenated and what ReadAt returns for any range.
func FuzzReader(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var chunks []byte
		file, ferr := Open(bytes.NewReader(src), int64(len(src)))
		if ferr == nil {
			if file.Len() > 64<<20 {
				return // a claim the chunks will refuse, but slowly
			}
			for i := 0; i < file.Nchunks() && ferr == nil; i++ {
				var c []byte
				c, ferr = file.ReadChunk(nil, i)
				chunks = append(chunks, c...)
			}
			if ferr == nil && int64(len(chunks)) != file.Len() {
				t.Fatalf("chunks hold %d bytes, Len says %d", len(chunks), file.Len())
			}
		}
		if ferr != nil && !errors.Is(ferr, blosc.ErrCorrupt) && !errors.Is(ferr, blosc.ErrUnsupported) {
			t.Fatalf("error wraps no sentinel: %v", ferr)
		}
		var streamed []byte
		r, serr := NewReader(bytes.NewReader(src))
		if serr == nil {
			streamed, serr = io.ReadAll(io.LimitReader(r, 64<<20))
		}
		if ferr == nil && serr == nil && !bytes.Equal(chunks, streamed) {
			t.Fatalf("stream yields %d bytes, chunks %d", len(streamed), len(chunks))
		}
		if ferr != nil {
			return
		}
		un, _, err := Unpack(src)
		if err != nil || !bytes.Equal(un, chunks) {
			t.Fatalf("Unpack disagrees: %v", err)
		}
		if n := len(chunks); n > 0 {
			a, b := int(src[len(src)-1])*n/256, n-int(src[0])*n/512
			if a > b {
				a, b = b, a
			}
			p := make([]byte, b-a)
			if k, err := file.ReadAt(p, int64(a)); k != len(p) || (err != nil && err != io.EOF) || !bytes.Equal(p, chunks[a:b]) {
				t.Fatalf("ReadAt [%d,%d): %d, %v", a, b, k, err)
			}
		}
	})
}
