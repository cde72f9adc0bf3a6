package b2nd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// FuzzParseMeta: any bytes parse or fail without panicking; what parses
// writes back as c-blosc2 writes it and parses again to the same array
// description.
func FuzzParseMeta(f *testing.F) {
	m := Meta{Shape: []int64{300, 200}, ChunkShape: []int32{100, 80}, BlockShape: []int32{25, 40}, DType: "<f8", HasDType: true}
	b, _ := m.Marshal()
	f.Add(b)
	f.Add(b[:len(b)-9]) // a Caterva metalayer: no dtype
	s := Meta{Shape: []int64{}, ChunkShape: []int32{}, BlockShape: []int32{}, DType: "|S5", HasDType: true}
	b, _ = s.Marshal()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMeta(b)
		if err != nil {
			return
		}
		if m.DTypeFormat < 0 || (m.HasDType && m.DType == "") {
			return // not written back the same: Marshal refuses or defaults
		}
		out, err := m.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed metalayer: %v", err)
		}
		m2, err := ParseMeta(out)
		if err != nil {
			t.Fatalf("ParseMeta of Marshal's output: %v", err)
		}
		if !slices.Equal(m.Shape, m2.Shape) || !slices.Equal(m.ChunkShape, m2.ChunkShape) || !slices.Equal(m.BlockShape, m2.BlockShape) ||
			(m.HasDType && (m.DType != m2.DType || m.DTypeFormat != m2.DTypeFormat)) {
			t.Fatalf("round trip: %+v became %+v", m, m2)
		}
	})
}

// fuzzMaxBytes bounds what the fuzz targets decode, so that a fuzzed
// frame claiming huge chunks costs no time.
const fuzzMaxBytes = 1 << 20

// FuzzOpenArray: any frame opens or fails, and an array that opens reads
// whole and by a slice without panicking, the slice agreeing with the
// whole.
func FuzzOpenArray(f *testing.F) {
	if dir, err := golden.Locate(); err == nil {
		for _, name := range []string{"nd09_full_i2be.b2nd", "nd10_scalar_0d.b2nd", "nd11_empty_dim.b2nd", "nd13_S5_1d.b2nd", "nd07_zeros_3d.b2nd"} {
			if b, err := os.ReadFile(filepath.Join(dir, "b2nd", name)); err == nil {
				f.Add(b, uint8(3), uint8(200))
			}
		}
	}
	a, err := FromBuffer(Params{Shape: []int64{5, 7}, ChunkShape: []int32{3, 4}, BlockShape: []int32{2, 3}, DType: "<i2", Options: testOptions()}, bytes.Repeat([]byte{1, 2, 3}, 2*35/3+1)[:70])
	if err != nil {
		f.Fatal(err)
	}
	fr, _ := a.AppendFrame(nil)
	f.Add(fr, uint8(1), uint8(9))
	f.Fuzz(func(t *testing.T, frame []byte, lo, hi uint8) {
		a, err := OpenBytes(frame)
		if err != nil {
			return
		}
		g := a.g
		if a.Nbytes() > fuzzMaxBytes || g.blockBytes > fuzzMaxBytes || g.nchunks > 1<<12 {
			return
		}
		all, err := a.Read(nil)
		if err != nil {
			return
		}
		start, stop := make([]int64, a.NDim()), a.Shape()
		for i, s := range stop {
			start[i] = int64(lo) % (s + 1)
			stop[i] = start[i] + int64(hi)%(s-start[i]+1)
		}
		got, err := a.GetSlice(nil, start, stop)
		if err != nil {
			t.Fatalf("GetSlice(%v, %v) fails after Read worked: %v", start, stop, err)
		}
		if want := refSlice(all, a.Shape(), start, stop, a.Itemsize()); !bytes.Equal(got, want) {
			t.Fatalf("GetSlice(%v, %v) differs from the slice of Read", start, stop)
		}
		// Through an io.ReaderAt the chunks are read (in part) as a file's
		// are: the same slice, or an error, never a panic.
		ar, err := OpenReaderAt(bytes.NewReader(frame), int64(len(frame)))
		if err != nil {
			t.Fatalf("OpenReaderAt fails where OpenBytes worked: %v", err)
		}
		if got2, err := ar.GetSlice(nil, start, stop); err == nil && !bytes.Equal(got2, got) {
			t.Fatalf("GetSlice(%v, %v) through an io.ReaderAt differs", start, stop)
		}
	})
}

// FuzzSlices: arrays of fuzzed shapes, chunk and block shapes, made from
// data and then written and read by fuzzed slices, agree with a plain
// N-dimensional reference.
func FuzzSlices(f *testing.F) {
	f.Add([]byte{2, 7, 3, 2, 9, 4, 4}, []byte{1, 2, 3, 4}, uint8(2))
	f.Add([]byte{3, 5, 2, 1, 6, 6, 3, 4, 1, 1}, []byte{0, 5, 1, 3, 2, 4}, uint8(1))
	f.Add([]byte{0}, []byte{}, uint8(8))
	f.Add([]byte{2, 9, 7, 7, 40, 30, 20}, []byte{0, 9, 5, 9}, uint8(7))
	f.Fuzz(func(t *testing.T, dims, sl []byte, isz uint8) {
		if len(dims) == 0 {
			return
		}
		nd := int(dims[0]) % 5
		dims = dims[1:]
		if len(dims) < 3*nd {
			return
		}
		itemsize := 1 + int(isz)%8
		var shape []int64
		var chunks, blocks []int32
		n := itemsize
		for i := range nd {
			s := int64(dims[3*i]) % 12
			c := 1 + int32(dims[3*i+1])%8
			b := 1 + int32(dims[3*i+2])%8
			if i == nd-1 && nd > 1 {
				// Rows wider than eight items, so that bands of columns
				// reach the gathers that take eight items at a time.
				s, c, b = int64(dims[3*i])%48, 1+int32(dims[3*i+1])%32, 1+int32(dims[3*i+2])%24
			}
			shape, chunks, blocks = append(shape, s), append(chunks, c), append(blocks, b)
			n *= int(s)
		}
		if shape == nil {
			shape, chunks, blocks = []int64{}, []int32{}, []int32{}
		}
		// Keep each execution cheap: a few thousand items in a few
		// hundred chunks at most.
		g, err := newGeom(shape, chunks, blocks, itemsize)
		if err != nil || g.nitems > 4096 || g.nchunks > 256 {
			return
		}
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i/5)
		}
		a, err := FromBuffer(Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, Itemsize: itemsize, Options: testOptions()}, data)
		if err != nil {
			t.Fatalf("FromBuffer(%v, %v, %v): %v", shape, chunks, blocks, err)
		}
		start, stop := make([]int64, nd), make([]int64, nd)
		for i, s := range shape {
			var x, y int64
			if 2*i+1 < len(sl) {
				x, y = int64(sl[2*i])%(s+1), int64(sl[2*i+1])%(s+1)
			} else {
				x, y = 0, s
			}
			start[i], stop[i] = min(x, y), max(x, y)
		}
		got, err := a.GetSlice(nil, start, stop)
		if err != nil {
			t.Fatal(err)
		}
		if want := refSlice(data, shape, start, stop, itemsize); !bytes.Equal(got, want) {
			t.Fatalf("GetSlice(%v, %v) of %v/%v/%v differs", start, stop, shape, chunks, blocks)
		}
		src := make([]byte, len(got))
		for i := range src {
			src[i] = ^got[i]
		}
		if err := a.SetSlice(src, start, stop); err != nil {
			t.Fatal(err)
		}
		refSetSlice(data, shape, start, stop, itemsize, src)
		all, err := a.Read(nil)
		if err != nil || !bytes.Equal(all, data) {
			t.Fatalf("after SetSlice(%v, %v) of %v/%v/%v: Read differs (%v)", start, stop, shape, chunks, blocks, err)
		}
	})
}
