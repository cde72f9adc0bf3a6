package bloscpack

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// Every checksum x offsets on/off x metadata on/off x empty, one-chunk
// and many-chunk inputs round-trips through Pack, File, Reader and
// Unpack, and the files are the same at 1 and 3 threads.
func TestRoundTrip(t *testing.T) {
	sizes := map[string]int{"empty": 0, "one": 3000, "many": 50000}
	many, _ := golden.Pattern("linspace_f64", 50000)
	for c := NoChecksum; c < numChecksums; c++ {
		for _, offsets := range []bool{true, false} {
			for _, meta := range []bool{false, true} {
				for name, n := range sizes {
					t.Run(fmt.Sprintf("%s/offsets=%v/meta=%v/%s", c, offsets, meta, name), func(t *testing.T) {
						src := many[:n]
						o := DefaultOptions()
						o.ChunkSize, o.Checksum, o.Offsets, o.Threads = 4096, c, offsets, 1
						if meta {
							o.Metadata = &Metadata{JSON: json.RawMessage(`{"a": [1, 2, "é<>"], "b": {"c": null}}`)}
						}
						b, err := Pack(src, o)
						if err != nil {
							t.Fatal(err)
						}
						o.Threads = 3
						b3, err := Pack(src, o)
						if err != nil || !bytes.Equal(b, b3) {
							t.Fatalf("3 threads: %v, same file %v", err, bytes.Equal(b, b3))
						}
						got, err := readBoth(b)
						if err != nil || !bytes.Equal(got, src) {
							t.Fatalf("read: %v, equal %v", err, bytes.Equal(got, src))
						}
						ref, err := refRead(b)
						if err != nil || !bytes.Equal(ref, src) {
							t.Fatalf("sequential read: %v", err)
						}
						un, m, err := Unpack(b)
						if err != nil || !bytes.Equal(un, src) {
							t.Fatalf("Unpack: %v", err)
						}
						if meta {
							if m == nil || string(m.JSON) != `{"a":[1,2,"\u00e9<>"],"b":{"c":null}}` {
								t.Fatalf("metadata %s", m.JSON)
							}
						} else if m != nil {
							t.Fatalf("metadata %s from a file without", m.JSON)
						}
						h, _ := decodeHeader(b)
						wantN := int64((n + 4095) / 4096)
						if n == 0 {
							wantN = 1
						}
						if h.NChunks != wantN || h.Offsets != offsets || h.Checksum != c ||
							(offsets && h.MaxAppChunks != 10*wantN) || (!offsets && h.MaxAppChunks != 0) {
							t.Errorf("header %+v", h)
						}
						// A flipped bit in the last chunk's payload is caught by
						// every checksum, and named.
						if c != NoChecksum && n > 0 {
							bad := append([]byte{}, b...)
							bad[len(bad)-c.Size()-3] ^= 0x10
							_, _, err := Unpack(bad)
							if !errors.Is(err, blosc.ErrCorrupt) || !bytes.Contains([]byte(err.Error()), []byte("checksum mismatch")) {
								t.Errorf("bit flip: %v", err)
							}
						}
					})
				}
			}
		}
	}
}

// The streaming Writer packs input of unknown length: with a destination
// that seeks back the header gets the real counts (and the file equals
// Pack's); with a plain io.Writer the header keeps the -1 markers and the
// readers still read it. Write sizes do not matter.
func TestWriterUnknownSize(t *testing.T) {
	src, _ := golden.Pattern("text", 30000)
	o := DefaultOptions()
	o.Offsets, o.ChunkSize = false, 4096
	want, err := Pack(src, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []int{1, 1000, 4096, 100000} {
		m := &memFile{}
		w, err := NewWriter(m, -1, o)
		if err != nil {
			t.Fatal(err)
		}
		for p := src; len(p) > 0; {
			k := min(step, len(p))
			if _, err := w.Write(p[:k]); err != nil {
				t.Fatal(err)
			}
			p = p[k:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m.b, want) {
			t.Fatalf("step %d: seekable stream differs from Pack at %d", step, golden.FirstDiff(m.b, want))
		}
		var plain bytes.Buffer
		w, _ = NewWriter(&plain, -1, o)
		w.Write(src)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		h, _ := decodeHeader(plain.Bytes())
		if h.NChunks != -1 || h.LastChunk != -1 {
			t.Fatalf("plain stream header %+v", h)
		}
		got, err := readBoth(plain.Bytes())
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("plain stream: %v", err)
		}
	}
	// Offsets need the size and a destination that seeks.
	if _, err := NewWriter(&bytes.Buffer{}, 10, DefaultOptions()); !errors.Is(err, blosc.ErrInvalidOptions) {
		t.Errorf("offsets to a plain writer: %v", err)
	}
	if _, err := NewWriter(&memFile{}, -1, DefaultOptions()); !errors.Is(err, blosc.ErrInvalidOptions) {
		t.Errorf("offsets with an unknown size: %v", err)
	}
	// Writing more or less than announced is an error.
	w, _ := NewWriter(&memFile{}, 10, DefaultOptions())
	if _, err := w.Write(make([]byte, 11)); err == nil {
		t.Error("11 bytes into a 10-byte writer")
	}
	w.Close()
	w, _ = NewWriter(&memFile{}, 10, DefaultOptions())
	w.Write(make([]byte, 9))
	if err := w.Close(); err == nil {
		t.Error("9 bytes into a 10-byte writer")
	}
}

// Close stops every compression goroutine, after success and after an
// error alike.
func TestWriterNoGoroutineLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	src, _ := golden.Pattern("rand_s1", 100000)
	o := DefaultOptions()
	o.ChunkSize, o.Threads = 1000, 4
	for i := 0; i < 3; i++ {
		if _, err := Pack(src, o); err != nil {
			t.Fatal(err)
		}
		w, err := NewWriter(failWriter{&memFile{}, 30000}, int64(len(src)), o)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(src)
		if err := w.Close(); err == nil {
			t.Fatal("a failing destination did not fail Close")
		}
	}
	// A worker has returned from its function once Close returns, but
	// the runtime may count it a moment longer.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Errorf("%d goroutines before, %d after", before, after)
	}
}

// failWriter fails every write past n bytes.
type failWriter struct {
	*memFile
	n int
}

func (f failWriter) Write(p []byte) (int, error) {
	if len(f.b)+len(p) > f.n {
		return 0, errors.New("disk full")
	}
	return f.memFile.Write(p)
}

// countingReaderAt records which bytes were read.
type countingReaderAt struct {
	r     io.ReaderAt
	reads [][2]int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.reads = append(c.reads, [2]int64{off, off + int64(len(p))})
	return c.r.ReadAt(p, off)
}

// Chunk i and any byte range are read through the offsets, touching no
// other chunk's bytes; without offsets only the chunk headers before it
// are read.
func TestRandomAccess(t *testing.T) {
	src, _ := golden.Pattern("arange_i32", 100000)
	for _, offsets := range []bool{true, false} {
		o := DefaultOptions()
		o.ChunkSize, o.Offsets, o.Blosc.Typesize = 8192, offsets, 4
		b, _ := Pack(src, o)
		cr := &countingReaderAt{r: bytes.NewReader(b)}
		f, err := Open(cr, int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		infos, _ := f.Chunks()
		for _, i := range []int{7, 3, 12} {
			cr.reads = nil
			got, err := f.ReadChunk(nil, i)
			if err != nil || !bytes.Equal(got, src[i*8192:min((i+1)*8192, len(src))]) {
				t.Fatalf("chunk %d: %v", i, err)
			}
			for _, r := range cr.reads {
				for _, c := range infos {
					start, end := c.Offset, c.Offset+int64(c.Cbytes)+int64(o.Checksum.Size())
					if c.Index == i || r[1] <= start || r[0] >= end {
						continue
					}
					// Without offsets the headers of earlier chunks are
					// scanned once (cached): 16 bytes, never their data.
					if !offsets && r[0] == start && r[1] == start+16 {
						continue
					}
					t.Errorf("offsets=%v: reading chunk %d read [%d,%d) inside chunk %d", offsets, i, r[0], r[1], c.Index)
				}
			}
		}
		for _, rg := range [][2]int{{0, 1}, {8191, 8193}, {50000, 70001}, {99990, 100000}, {12345, 12345}} {
			p := make([]byte, rg[1]-rg[0])
			n, err := f.ReadAt(p, int64(rg[0]))
			if n != len(p) || (err != nil && err != io.EOF) || !bytes.Equal(p, src[rg[0]:rg[1]]) {
				t.Errorf("ReadAt %v: %d, %v", rg, n, err)
			}
		}
		if n, err := f.ReadAt(make([]byte, 10), 99995); n != 5 || err != io.EOF {
			t.Errorf("ReadAt past the end: %d, %v", n, err)
		}
	}
}

// Hostile headers are refused before anything large is allocated.
func TestHostileSizes(t *testing.T) {
	src, _ := golden.Pattern("arange_i64", 20000)
	o := DefaultOptions()
	o.ChunkSize = 4096
	o.Metadata = &Metadata{JSON: json.RawMessage(`{"x":1}`)}
	good, _ := Pack(src, o)
	f, _ := Open(bytes.NewReader(good), int64(len(good)))
	table := f.tableStart
	mut := func(name string, edit func(b []byte)) {
		b := append([]byte{}, good...)
		edit(b)
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		_, _, err1 := Unpack(b)
		r, err2 := NewReader(bytes.NewReader(b))
		if err2 == nil {
			_, err2 = io.ReadAll(r)
		}
		runtime.ReadMemStats(&ms)
		if err1 == nil || err2 == nil {
			t.Errorf("%s: accepted (%v, %v)", name, err1, err2)
		}
		if alloc := ms.TotalAlloc - before; alloc > 4<<20 {
			t.Errorf("%s: allocated %d bytes for a %d-byte file", name, alloc, len(b))
		}
		t.Logf("%s: %v", name, err1)
	}
	mut("nchunks 2^62", func(b []byte) { binary.LittleEndian.PutUint64(b[16:], 1<<62) })
	mut("max_app_chunks 2^62", func(b []byte) { binary.LittleEndian.PutUint64(b[24:], 1<<62) })
	mut("nchunks 2^62 without offsets", func(b []byte) {
		b[5] &^= optOffsets
		binary.LittleEndian.PutUint64(b[16:], 1<<62)
		binary.LittleEndian.PutUint64(b[24:], 0)
	})
	mut("chunk_size 2^31-17", func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 1<<31-17) })
	mut("max_meta_size 2^32-1", func(b []byte) { binary.LittleEndian.PutUint32(b[headerLen+16:], 1<<32-1) })
	mut("meta_comp_size past max", func(b []byte) { binary.LittleEndian.PutUint32(b[headerLen+20:], 1<<31) })
	mut("meta_size huge", func(b []byte) { binary.LittleEndian.PutUint32(b[headerLen+12:], 1<<31) })
	mut("offset past the end", func(b []byte) { binary.LittleEndian.PutUint64(b[table+8:], 1<<40) })
	mut("offsets out of order", func(b []byte) {
		a := binary.LittleEndian.Uint64(b[table+8:])
		binary.LittleEndian.PutUint64(b[table+8:], binary.LittleEndian.Uint64(b[table+16:]))
		binary.LittleEndian.PutUint64(b[table+16:], a)
	})
	mut("offset negative", func(b []byte) { binary.LittleEndian.PutUint64(b[table+8:], 1<<63) })
	mut("chunk cbytes 2^31", func(b []byte) {
		p := binary.LittleEndian.Uint64(b[table:])
		binary.LittleEndian.PutUint32(b[p+12:], 1<<31-1)
	})
	mut("undecodable metadata", func(b []byte) {
		// Store the document uncompressed, broken, with a matching checksum.
		o2 := o
		o2.Meta.Codec = MetaNone
		o2.Metadata = &Metadata{JSON: json.RawMessage(`{"x":1}`)}
		nb, _ := Pack(src, o2)
		nb[headerLen+metaHeaderLen+6] = '!' // {"x":1!
		mh, _ := decodeMetaHeader(nb[headerLen:])
		d := newHasher(mh.Checksum).sum(nil, nb[headerLen+metaHeaderLen:headerLen+metaHeaderLen+int(mh.CompSize)])
		copy(nb[headerLen+metaHeaderLen+int(mh.MaxSize):], d)
		copy(b, nb[:len(b)])
	})
}

// Version 2 files (no metadata, nchunks offsets, reserved header tail)
// are read.
func TestVersion2(t *testing.T) {
	src, _ := golden.Pattern("rec12", 10000)
	for _, offsets := range []bool{true, false} {
		o := DefaultOptions()
		o.ChunkSize, o.Offsets, o.MaxAppChunks = 4096, offsets, 0
		b, _ := Pack(src, o)
		b[4] = 2
		binary.LittleEndian.PutUint64(b[24:], 0) // reserved
		got, err := readBoth(b)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("offsets=%v: %v", offsets, err)
		}
		b[5] |= optMetadata // version 2 has no metadata
		if _, _, err := Unpack(b); !errors.Is(err, blosc.ErrCorrupt) {
			t.Fatalf("v2 with metadata: %v", err)
		}
	}
}
