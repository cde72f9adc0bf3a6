package bloscpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/golden"
)

// refRead reads a file as the reference's reader does: the header, the
// metadata section, the offsets table skipped, then nchunks chunks one
// after the other, ignoring the offsets.
func refRead(b []byte) ([]byte, error) {
	h, err := decodeHeader(b)
	if err != nil {
		return nil, err
	}
	p := int64(headerLen)
	if h.Metadata {
		mh, err := decodeMetaHeader(b[p:])
		if err != nil {
			return nil, err
		}
		p += mh.sectionLen()
	}
	p += 8 * h.slots()
	var out []byte
	for i := int64(0); i < h.NChunks; i++ {
		if p+16 > int64(len(b)) {
			return nil, fmt.Errorf("chunk %d past the end", i)
		}
		cb := int64(binary.LittleEndian.Uint32(b[p+12:]))
		if p+cb > int64(len(b)) {
			return nil, fmt.Errorf("chunk %d past the end", i)
		}
		d, err := blosc.Decompress(nil, b[p:p+cb])
		if err != nil {
			return nil, err
		}
		out = append(out, d...)
		p += cb + int64(h.Checksum.Size())
	}
	return out, nil
}

// readBoth reads a file through File and through Reader; both must agree.
// readCrashed reads a file a crash left: through File as it is (which
// reads through a rollback record), and through the streaming Reader once
// Recover has repaired it (a stream cannot see the record at its end).
func readCrashed(b []byte) ([]byte, error) {
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	all := make([]byte, f.Len())
	if n, err := f.ReadAt(all, 0); n != len(all) || (err != nil && err != io.EOF) {
		return nil, fmt.Errorf("ReadAt: %d of %d: %w", n, len(all), err)
	}
	ff := faultfile.New(b, faultfile.NoFault)
	if err := Recover(ff); err != nil {
		return nil, fmt.Errorf("Recover: %w", err)
	}
	rep, err := readBoth(ff.Bytes())
	if err != nil {
		return nil, fmt.Errorf("after Recover: %w", err)
	}
	if !bytes.Equal(rep, all) {
		return nil, fmt.Errorf("the repaired file reads otherwise than before the repair")
	}
	return all, nil
}

func readBoth(b []byte) ([]byte, error) {
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	all := make([]byte, f.Len())
	if n, err := f.ReadAt(all, 0); n != len(all) || (err != nil && err != io.EOF) {
		return nil, fmt.Errorf("ReadAt: %d of %d: %w", n, len(all), err)
	}
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	s, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	if !bytes.Equal(s, all) {
		return nil, fmt.Errorf("stream and File disagree")
	}
	return all, nil
}

type appendCase struct {
	name       string
	base, more int
	chunk      int
	checksum   Checksum
	meta       bool
}

var appendCases = []appendCase{
	{"refill-only", 10000, 100, 4096, Adler32, false},
	{"refill+2", 10000, 6000, 4096, SHA256, true},
	{"one-chunk-refill+1", 1000, 5000, 4096, NoChecksum, false},
	{"one-chunk-refill-only", 1000, 10, 4096, CRC32, true},
	{"full-last+1", 8192, 300, 4096, Adler32, false},
	{"nothing", 5000, 0, 4096, MD5, false},
}

func (c appendCase) files(t *testing.T) (orig, oldData, newData []byte, o Options) {
	t.Helper()
	all, _ := golden.Pattern("f32_noise", c.base+c.more)
	o = DefaultOptions()
	o.ChunkSize, o.Checksum, o.Threads = c.chunk, c.checksum, 1
	o.Blosc.Typesize = 4
	if c.meta {
		o.Metadata = NewNumpyMetadata("'<f4'", []int64{int64(c.base / 4)}, "C")
	}
	orig, err := Pack(all[:c.base], o)
	if err != nil {
		t.Fatal(err)
	}
	return orig, all[:c.base], all, o
}

// Append produces the file the reference's append would: the same data
// read by our readers and by a reader that ignores offsets, the header
// counts moved from max_app_chunks to nchunks, and the chunks where the
// reference puts them.
func TestAppendRoundTrip(t *testing.T) {
	for _, c := range appendCases {
		t.Run(c.name, func(t *testing.T) {
			orig, _, want, o := c.files(t)
			ff := faultfile.New(orig, faultfile.NoFault)
			ts := AppendOptions(4)
			k, err := Append(ff, bytes.NewReader(want[c.base:]), int64(c.more), &ts)
			if err != nil {
				t.Fatal(err)
			}
			got := ff.Bytes()
			data, err := readBoth(got)
			if err != nil || !bytes.Equal(data, want) {
				t.Fatalf("after append: %v, equal %v", err, bytes.Equal(data, want))
			}
			ref, err := refRead(got)
			if err != nil || !bytes.Equal(ref, want) {
				t.Fatalf("sequential read: %v, equal %v", err, bytes.Equal(ref, want))
			}
			h0, _ := decodeHeader(orig)
			h1, _ := decodeHeader(got)
			if h1.NChunks != h0.NChunks+int64(k) || h1.MaxAppChunks != h0.MaxAppChunks-int64(k) ||
				h1.NChunks+h1.MaxAppChunks != h0.slots() {
				t.Errorf("header %+v after appending %d chunks to %+v", h1, k, h0)
			}
			// Packing the whole data with the same table size gives the
			// same file: the chunks are where the reference puts them.
			o.MaxAppChunks = h0.slots() - h1.NChunks
			o.ChunkSize = h0.ChunkSize
			whole, err := Pack(want, o)
			if err != nil {
				t.Fatal(err)
			}
			{
				if c.meta {
					// The metadata still describes the original array.
					whole, _ = sameLayoutIgnoringMeta(t, whole, got)
				}
				if !bytes.Equal(whole, got) {
					t.Errorf("appended file differs from packing everything at %d", golden.FirstDiff(whole, got))
				}
			}
		})
	}
}

// sameLayoutIgnoringMeta replaces whole's metadata section by got's.
func sameLayoutIgnoringMeta(t *testing.T, whole, got []byte) ([]byte, []byte) {
	mh, err := decodeMetaHeader(got[headerLen:])
	if err != nil {
		t.Fatal(err)
	}
	l := headerLen + int(mh.sectionLen())
	out := append([]byte{}, whole...)
	copy(out[headerLen:l], got[headerLen:l])
	return out, got
}

func TestAppendRefusals(t *testing.T) {
	data, _ := golden.Pattern("arange_i32", 10000)
	o := DefaultOptions()
	o.ChunkSize, o.MaxAppChunks = 4096, 1
	b, err := Pack(data, o)
	if err != nil {
		t.Fatal(err)
	}
	// 3 chunks, 1 free slot: 4096-1808 bytes refill the last chunk, then
	// 4096 fit one new chunk, one byte more needs two.
	fill := 4096 - (10000 - 2*4096)
	ff := faultfile.New(b, faultfile.NoFault)
	more := make([]byte, fill+4097)
	_, err = Append(ff, bytes.NewReader(more), int64(len(more)), nil)
	if !errors.Is(err, ErrNoSpace) || ff.Writes() != 0 {
		t.Fatalf("no room: %v after %d writes", err, ff.Writes())
	}
	if _, err := Append(ff, bytes.NewReader(more), int64(fill+4096), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(ff, bytes.NewReader(more), 5000, nil); !errors.Is(err, ErrNoSpace) {
		t.Fatalf("full file: %v", err)
	}
	o.Offsets = false
	b, _ = Pack(data, o)
	if _, err := Append(faultfile.New(b, faultfile.NoFault), bytes.NewReader(more), 10, nil); !errors.Is(err, blosc.ErrUnsupported) {
		t.Fatalf("no offsets: %v", err)
	}
	b, _ = Pack(nil, DefaultOptions())
	if _, err := Append(faultfile.New(b, faultfile.NoFault), bytes.NewReader(more), 10, nil); !errors.Is(err, blosc.ErrUnsupported) {
		t.Fatalf("empty file: %v", err)
	}
}

// tearPoints are the byte counts a write of n bytes is torn at: all of
// them for writes up to 256 bytes (headers, slots, small chunks), else a
// spread including both ends.
func tearPoints(n int) []int {
	if n <= 256 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return []int{0, 1, 7, 8, 15, 16, 17, n / 3, n / 2, n - 17, n - 16, n - 8, n - 1}
}

// Every interrupted append leaves a file that reads, through File and
// through Reader, as exactly the data before the append or after it. The
// crash is injected at every write, and each write is torn at every byte
// (every byte for writes up to 256 bytes, a spread for chunk writes).
//
// A write torn inside the header or the offsets table (the 20-byte
// commit, a slot) leaves a field that is neither its old nor its new
// value; the rollback record Append writes before them lets File read such
// a file as it was, and Recover repair it, after which the streaming
// Reader reads it too.
func TestAppendCrash(t *testing.T) {
	for _, c := range appendCases {
		t.Run(c.name, func(t *testing.T) {
			orig, oldData, newData, _ := c.files(t)
			if _, err := Open(bytes.NewReader(orig), int64(len(orig))); err != nil {
				t.Fatal(err)
			}
			ts := AppendOptions(4)
			clean := faultfile.New(orig, faultfile.NoFault)
			if _, err := Append(clean, bytes.NewReader(newData[c.base:]), int64(c.more), &ts); err != nil {
				t.Fatal(err)
			}
			log := clean.Log()
			states, olds, news := 0, 0, 0
			for w, wr := range log {
				for _, keep := range tearPoints(wr.Len) {
					ff := faultfile.New(orig, faultfile.Plan{At: w, Keep: keep})
					_, err := Append(ff, bytes.NewReader(newData[c.base:]), int64(c.more), &ts)
					// Only the tidying after the commit (the last write)
					// may fail unreported.
					if err == nil && w != len(log)-1 || err != nil && !errors.Is(err, faultfile.ErrCrashed) {
						t.Fatalf("write %d torn at %d: Append returned %v", w, keep, err)
					}
					committed := err == nil
					got, err := readCrashed(ff.Bytes())
					if committed && !bytes.Equal(got, newData) {
						t.Fatalf("write %d torn at %d: Append returned nil, but the file does not read as after", w, keep)
					}
					states++
					switch {
					case err != nil:
						t.Errorf("write %d of %d (%d bytes at %d) torn at %d: %v", w, len(log), wr.Len, wr.Off, keep, err)
					case bytes.Equal(got, oldData):
						olds++
						// Appending again over the leftovers completes it.
						again := faultfile.New(ff.Bytes(), faultfile.NoFault)
						if _, err := Append(again, bytes.NewReader(newData[c.base:]), int64(c.more), &ts); err != nil {
							t.Errorf("write %d torn at %d: appending again: %v", w, keep, err)
						} else if d, err := readBoth(again.Bytes()); err != nil || !bytes.Equal(d, newData) {
							t.Errorf("write %d torn at %d: appending again gives %v, equal %v", w, keep, err, bytes.Equal(d, newData))
						}
					case bytes.Equal(got, newData):
						news++
					default:
						t.Errorf("write %d torn at %d: %d bytes, neither the old %d nor the new %d", w, keep, len(got), len(oldData), len(newData))
					}
				}
			}
			t.Logf("%d writes, %d crash states: %d read as before, %d as after", len(log), states, olds, news)
			if c.more > 0 && (olds == 0 || news == 0) {
				t.Errorf("the crash states should include both outcomes")
			}
		})
	}
}
