package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
)

// manyChunkFrame returns a frame of n chunks of 16 bytes (typesize 8),
// chunk i holding i and i+1, and the data.
func manyChunkFrame(t testing.TB, n int) (frame, data []byte) {
	t.Helper()
	o := SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}, ChunkSize: 16}
	s, err := NewSChunk(o)
	if err != nil {
		t.Fatal(err)
	}
	co := o.Options
	co.Format = FormatBlosc2
	data = make([]byte, 16*n)
	var c []byte
	for i := range n {
		d := data[16*i : 16*i+16]
		binary.LittleEndian.PutUint64(d, uint64(i))
		binary.LittleEndian.PutUint64(d[8:], uint64(i+1))
		if c, err = Compress(c[:0], d, co); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendChunk(c); err != nil {
			t.Fatal(err)
		}
	}
	if frame, err = s.AppendFrame(nil); err != nil {
		t.Fatal(err)
	}
	return frame, data
}

// TestFrameFileLazyIndex: a frame file of many chunks is opened without
// decoding its offsets index, which is read a block at a time as chunks
// are read: from the open's own reads when the index chunk was in them,
// else from the file. Every read agrees with the frame in memory; opening
// takes three ReadAt calls, a chunk one, or two when its index block is
// read too.
func TestFrameFileLazyIndex(t *testing.T) {
	for _, n := range []int{10000, 100000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			b, data := manyChunkFrame(t, n)
			cr := &countingReaderBytes{r: bytes.NewReader(b)}
			s, err := OpenFrame(cr, int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			x := s.offs.lazy
			if x == nil {
				t.Fatal("the index was read whole")
			}
			if cr.calls > 3 {
				t.Errorf("opening took %d ReadAt calls", cr.calls)
			}
			t.Logf("%d chunks: index chunk %d bytes in %d blocks, held in memory: %v; open read %d bytes in %d calls",
				n, x.c.h.cbytes, x.c.nblocks, x.mem != nil, cr.bytes, cr.calls)
			if n == 100000 && x.mem != nil {
				t.Error("an index chunk larger than the open's reads was kept whole")
			}
			if s.Nchunks() != n {
				t.Fatalf("%d chunks", s.Nchunks())
			}
			for _, i := range []int{0, 1, 2047, 2048, n / 2, n / 2, n - 2, n - 1} {
				cr.reset()
				got, err := s.DecompressChunk(nil, i)
				if err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
				if !bytes.Equal(got, data[16*i:16*i+16]) {
					t.Fatalf("chunk %d differs", i)
				}
				if cr.calls > 2 {
					t.Errorf("chunk %d took %d ReadAt calls", i, cr.calls)
				}
			}
			for _, start := range []int64{0, 3, 4095, 2*int64(n) - 7} {
				got, err := s.GetItems(nil, start, 5)
				if err != nil {
					t.Fatalf("GetItems(%d): %v", start, err)
				}
				if !bytes.Equal(got, data[8*start:8*start+40]) {
					t.Fatalf("items at %d differ", start)
				}
			}
			all, err := s.Decompress(nil)
			if err != nil || !bytes.Equal(all, data) {
				t.Fatalf("Decompress differs (%v)", err)
			}
			f, err := s.AppendFrame(nil)
			if err != nil || !bytes.Equal(f, b) {
				t.Fatalf("Frame from the file differs from the file (%v)", err)
			}
			for i := 0; i < n; i += 997 {
				ci, err := s.ChunkInfo(i)
				if err != nil || ci.Nbytes != 16 {
					t.Fatalf("ChunkInfo(%d) = %+v, %v", i, ci, err)
				}
			}
		})
	}
}

// TestFrameFileLazyIndexChanges: every change of a frame file opened with
// its index unread reads the index first, and leaves a file that opens to
// the same state as the change made in memory; each write of an append
// failed or torn leaves the state before or after it.
func TestFrameFileLazyIndexChanges(t *testing.T) {
	const n = 10000
	base, _ := manyChunkFrame(t, n)
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Filters: [MaxFilters]Filter{5: ByteShuffle}}
	chunk := must(Compress(nil, bytes.Repeat([]byte("changed!"), 2), o))
	zeros := must(ZerosChunk(nil, 16, 8))
	ops := []fileOp{
		{Name: "AppendChunk", Do: func(s *SChunk) error { return s.AppendChunk(chunk) }},
		{Name: "AppendData", Do: func(s *SChunk) error { return s.AppendData(bytes.Repeat([]byte{7}, 40)) }},
		{Name: "InsertChunk", Do: func(s *SChunk) error { return s.InsertChunk(4321, chunk) }},
		{Name: "UpdateChunk", Do: func(s *SChunk) error { return s.UpdateChunk(5000, chunk) }},
		{Name: "UpdateChunk zeros", Do: func(s *SChunk) error { return s.UpdateChunk(n-1, zeros) }},
		{Name: "DeleteChunk", Do: func(s *SChunk) error { return s.DeleteChunk(17) }},
		{Name: "AddVLMetalayer", Do: func(s *SChunk) error { return s.AddVLMetalayer("v", []byte("value")) }},
		{Name: "AddMetalayer", Do: func(s *SChunk) error { return s.AddMetalayer("m", []byte("x")) }},
	}
	for _, op := range ops {
		t.Run(op.Name, func(t *testing.T) {
			mem, err := ParseFrame(base)
			if err != nil {
				t.Fatal(err)
			}
			before := stateOf(t, mem)
			werr := op.Do(mem)
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if s.offs.lazy == nil {
				t.Fatal("the index was read whole at open")
			}
			if err := op.Do(s); (err == nil) != (werr == nil) {
				t.Fatalf("in the file: %v; in memory: %v", err, werr)
			}
			if werr != nil {
				return // AddMetalayer on a frame with chunks: refused alike
			}
			after := stateOf(t, mem)
			if got := stateOf(t, s); !got.Equal(after) {
				t.Fatal("the file's state after the change differs from memory's")
			}
			r, _, err := reopen(f.Bytes())
			if err != nil || !stateOf(t, r).Equal(after) {
				t.Fatalf("the reopened file differs (%v)", err)
			}
			if op.Name != "AppendChunk" {
				return
			}
			// Torn at seven points of each write: the index written is
			// some 9 KB, and every byte is TestFrameFileCrash's.
			tearEveryWrite(t, base, f, op, before, after, func(n int) int { return max(1, n/7) })
		})
	}
}

// TestFrameLazyIndexCorrupt: an index read lazily whose blocks or block
// starts lie is refused with ErrCorrupt, when opened or when the chunk is
// read, never with a panic or wrong bytes.
func TestFrameLazyIndexCorrupt(t *testing.T) {
	b, data := manyChunkFrame(t, 10000)
	good, err := OpenFrame(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	x := good.offs.lazy
	idxAt := int(x.at)
	for _, pos := range []int{idxAt + header2Len, idxAt + header2Len + 5, idxAt + header2Len + 4*x.c.nblocks + 3, idxAt + x.c.h.cbytes - 9} {
		for _, v := range []byte{0x00, 0xff, 0x41} {
			bad := bytes.Clone(b)
			bad[pos] ^= v | 1
			s, err := OpenFrame(bytes.NewReader(bad), int64(len(bad)))
			if err != nil {
				if !errorsIsAny(err, ErrCorrupt, ErrUnsupported) {
					t.Fatalf("byte %d: open error %v wraps no sentinel", pos, err)
				}
				continue
			}
			got, err := s.Decompress(nil)
			if err != nil {
				if !errorsIsAny(err, ErrCorrupt, ErrUnsupported) {
					t.Fatalf("byte %d: error %v wraps no sentinel", pos, err)
				}
				continue
			}
			if !bytes.Equal(got, data) {
				// A changed offset can point at another chunk of the
				// same size: the frame format cannot tell. Every chunk
				// read must still be one the frame holds.
				for i := 0; i < len(got); i += 16 {
					v := binary.LittleEndian.Uint64(got[i:])
					if binary.LittleEndian.Uint64(got[i+8:]) != v+1 || v >= 10000 {
						t.Fatalf("byte %d: chunk %d decodes to bytes no chunk holds", pos, i/16)
					}
				}
			}
		}
	}
}

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
