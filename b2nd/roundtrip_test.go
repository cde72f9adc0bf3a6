package b2nd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// randGeom returns a random shape of 0 to 4 dimensions with chunk and block
// shapes that pad the edges more often than not.
func randGeom(r *rand.Rand) (shape []int64, chunks, blocks []int32) {
	nd := r.IntN(5)
	for range nd {
		s := int64(r.IntN(13))
		if r.IntN(8) == 0 {
			s = 0
		}
		c := int32(1 + r.IntN(7))
		b := int32(1 + r.IntN(int(c)))
		shape, chunks, blocks = append(shape, s), append(chunks, c), append(blocks, b)
	}
	return
}

func randSlice(r *rand.Rand, shape []int64) (start, stop []int64) {
	for _, s := range shape {
		a, b := r.Int64N(s+1), r.Int64N(s+1)
		if a > b {
			a, b = b, a
		}
		start, stop = append(start, a), append(stop, b)
	}
	return
}

// refSetSlice writes src into the C-order array all the plain way.
func refSetSlice(all []byte, shape, start, stop []int64, itemsize int, src []byte) {
	isz := int64(itemsize)
	eachRefItem(shape, start, stop, func(k, flat int64) {
		copy(all[flat*isz:(flat+1)*isz], src[k*isz:])
	})
}

// eachRefItem calls fn with the index k of every item of the slice
// [start, stop) in C order and its flat index in the array of shape.
func eachRefItem(shape, start, stop []int64, fn func(k, flat int64)) {
	nd := len(shape)
	n := int64(1)
	for i := range nd {
		n *= stop[i] - start[i]
	}
	idx := make([]int64, nd)
	for k := int64(0); k < n; k++ {
		rem := k
		for i := nd - 1; i >= 0; i-- {
			ext := stop[i] - start[i]
			idx[i] = start[i] + rem%ext
			rem /= ext
		}
		var flat int64
		for i := range nd {
			flat = flat*shape[i] + idx[i]
		}
		fn(k, flat)
	}
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		// Runs, so that the codecs compress something.
		b[i] = byte(r.IntN(4))
	}
	return b
}

func testOptions() blosc.Options {
	o := blosc.DefaultOptions()
	o.Codec, o.Level = blosc.LZ4, 5
	o.Threads = 1 // small arrays: no goroutines
	return o
}

// storages are the places an array is made in: memory, a frame file and a
// sparse frame.
func storages(t *testing.T) []Params {
	dir := t.TempDir()
	return []Params{{}, {Path: filepath.Join(dir, "a.b2nd")}, {Path: filepath.Join(dir, "s.b2nd"), Sparse: true}}
}

// TestRoundTrip makes arrays of random shapes from random data, reads them
// whole and by random slices, writes random slices and compares all with a
// plain N-dimensional reference, in memory, in a file and in a sparse
// frame (opened again after the changes).
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 60 {
		shape, chunks, blocks := randGeom(r)
		itemsize := []int{1, 2, 4, 8, 3}[r.IntN(5)]
		for si, st := range storages(t) {
			if si > 0 && iter%4 != 0 {
				continue // files are slower: fewer of them
			}
			p := st
			p.Shape, p.ChunkShape, p.BlockShape, p.Itemsize = shape, chunks, blocks, itemsize
			p.Options = testOptions()
			g, err := newGeom(shape, chunks, blocks, itemsize)
			if err != nil {
				t.Fatal(err)
			}
			ref := randBytes(r, int(g.nitems)*itemsize)
			a, err := FromBuffer(p, ref)
			if err != nil {
				t.Fatalf("iter %d: FromBuffer(%v %v %v): %v", iter, shape, chunks, blocks, err)
			}
			check := func(a *Array, what string) {
				t.Helper()
				got, err := a.Read(nil)
				if err != nil || !bytes.Equal(got, ref) {
					t.Fatalf("iter %d storage %d %s: shape %v chunks %v blocks %v: Read differs (%v)", iter, si, what, shape, chunks, blocks, err)
				}
				for range 4 {
					start, stop := randSlice(r, shape)
					got, err := a.GetSlice(nil, start, stop)
					if err != nil {
						t.Fatal(err)
					}
					if want := refSlice(ref, shape, start, stop, itemsize); !bytes.Equal(got, want) {
						t.Fatalf("iter %d storage %d %s: GetSlice(%v, %v) of %v/%v/%v differs", iter, si, what, start, stop, shape, chunks, blocks)
					}
				}
			}
			check(a, "made")
			for range 3 {
				start, stop := randSlice(r, shape)
				n := itemsize
				for i := range start {
					n *= int(stop[i] - start[i])
				}
				src := randBytes(r, n)
				if err := a.SetSlice(src, start, stop); err != nil {
					t.Fatalf("iter %d: SetSlice(%v, %v): %v", iter, start, stop, err)
				}
				refSetSlice(ref, shape, start, stop, itemsize, src)
			}
			check(a, "changed")
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			var b *Array
			if p.Path != "" {
				b, err = Open(p.Path)
			} else {
				var fr []byte
				if fr, err = a.AppendFrame(nil); err == nil {
					b, err = OpenBytes(fr)
				}
			}
			if err != nil {
				t.Fatalf("iter %d: reopen: %v", iter, err)
			}
			check(b, "reopened")
			b.Close()
		}
	}
}

// TestSpecialFills checks zeros, NaN, a fill value and uninitialised
// arrays, which store special chunks only.
func TestSpecialFills(t *testing.T) {
	p := Params{Shape: []int64{7, 9}, ChunkShape: []int32{4, 4}, BlockShape: []int32{2, 3}, DType: "<f8", Options: testOptions()}
	n := 7 * 9
	cases := []struct {
		name string
		mk   func() (*Array, error)
		item []byte
	}{
		{"zeros", func() (*Array, error) { return Zeros(p) }, make([]byte, 8)},
		{"uninit", func() (*Array, error) { return Uninit(p) }, make([]byte, 8)},
		// glibc's nan(""), which c-blosc2 stores.
		{"nans", func() (*Array, error) { return NaNs(p) }, le64(0x7ff8000000000000)},
		{"full", func() (*Array, error) { return Full(p, le64(math.Float64bits(2.5))) }, le64(math.Float64bits(2.5))},
	}
	for _, c := range cases {
		a, err := c.mk()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := a.Read(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := bytes.Repeat(c.item, n); !bytes.Equal(got, want) {
			t.Errorf("%s: read %x...", c.name, got[:16])
		}
		if a.SChunk().Nchunks() != 6 {
			t.Errorf("%s: %d chunks, want 6", c.name, a.SChunk().Nchunks())
		}
		for i := range a.SChunk().Nchunks() {
			info, err := a.SChunk().ChunkInfo(i)
			if err != nil || info.Special == blosc.SpecialNone {
				t.Errorf("%s: chunk %d is not special (%+v, %v)", c.name, i, info, err)
			}
		}
	}
	p.DType = "<i2"
	if _, err := NaNs(p); !errors.Is(err, blosc.ErrInvalidOptions) {
		t.Errorf("NaNs of <i2: %v, want ErrInvalidOptions", err)
	}
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}

// TestScalarAndEmpty covers 0-dimensional and empty arrays.
func TestScalarAndEmpty(t *testing.T) {
	a, err := FromBuffer(Params{Shape: []int64{}, DType: "<i4", Options: testOptions()}, []byte{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.Read(nil); err != nil || !bytes.Equal(got, []byte{1, 2, 3, 4}) {
		t.Fatalf("scalar: %x %v", got, err)
	}
	if err := a.SetSlice([]byte{5, 6, 7, 8}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Read(nil); err != nil || !bytes.Equal(got, []byte{5, 6, 7, 8}) {
		t.Fatalf("scalar after SetSlice: %x %v", got, err)
	}
	e, err := FromBuffer(Params{Shape: []int64{0, 5}, DType: "<f4", Options: testOptions()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Shape(), []int64{0, 5}) || e.SChunk().Nchunks() != 0 {
		t.Fatalf("empty: shape %v, %d chunks", e.Shape(), e.SChunk().Nchunks())
	}
	if got, err := e.Read(nil); err != nil || len(got) != 0 {
		t.Fatalf("empty: %d bytes, %v", len(got), err)
	}
	fr, err := e.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenBytes(fr); err != nil {
		t.Fatal(err)
	}
}

// TestCatervaMeta: an array whose only metalayer is a Caterva one (no
// dtype entries), as c-blosc2 still reads, opens and reads; its dtype is
// empty and its item size the super-chunk's typesize.
func TestCatervaMeta(t *testing.T) {
	data := make([]byte, 6*5*2)
	for i := range data {
		data[i] = byte(i)
	}
	p := Params{Shape: []int64{6, 5}, ChunkShape: []int32{4, 4}, BlockShape: []int32{2, 2}, DType: "<i2", Options: testOptions()}
	a, err := FromBuffer(p, data)
	if err != nil {
		t.Fatal(err)
	}
	m := a.Meta()
	raw, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	raw = raw[:len(raw)-6-len(m.DType)] // no dtype format, no dtype
	o := a.opts
	sc, err := blosc.NewSChunk(blosc.SChunkOptions{Options: o, ChunkSize: a.g.chunkBytes})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.AddMetalayer("caterva", raw); err != nil {
		t.Fatal(err)
	}
	for i := range a.SChunk().Nchunks() {
		c, err := a.SChunk().Chunk(nil, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.AppendChunk(c); err != nil {
			t.Fatal(err)
		}
	}
	b, err := FromSChunk(sc)
	if err != nil {
		t.Fatal(err)
	}
	if b.DType() != "" || b.Itemsize() != 2 || !slices.Equal(b.Shape(), p.Shape) || b.Meta().HasDType {
		t.Fatalf("dtype %q itemsize %d shape %v", b.DType(), b.Itemsize(), b.Shape())
	}
	if got, err := b.Read(nil); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Read differs (%v)", err)
	}
	if err := b.Resize([]int64{7, 5}, nil); !errors.Is(err, blosc.ErrUnsupported) {
		t.Errorf("resizing a Caterva array: %v, want ErrUnsupported", err)
	}
}

// TestCopyChunk checks the row-by-row copy of whole chunks against the
// block-by-block one, both ways, for chunks of 1 to 4 dimensions tiled by
// their blocks, inside boxes that cover them with room around.
func TestCopyChunk(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for iter := range 300 {
		nd := 1 + r.IntN(4)
		itemsize := []int{1, 2, 3, 8, 16}[r.IntN(5)]
		shape := make([]int64, nd)
		chunks, blocks := make([]int32, nd), make([]int32, nd)
		start, stop, co := make([]int64, nd), make([]int64, nd), make([]int64, nd)
		for i := range nd {
			blocks[i] = int32(1 + r.IntN(4))
			chunks[i] = blocks[i] * int32(1+r.IntN(3))
			nc := int64(1 + r.IntN(3))
			shape[i] = int64(chunks[i]) * nc
			c := r.Int64N(nc)
			co[i] = c * int64(chunks[i])
			start[i] = r.Int64N(co[i] + 1)
			stop[i] = co[i] + int64(chunks[i]) + r.Int64N(shape[i]-co[i]-int64(chunks[i])+1)
		}
		g, err := newGeom(shape, chunks, blocks, itemsize)
		if err != nil {
			t.Fatal(err)
		}
		sliceShape := make([]int64, nd)
		n := int64(itemsize)
		for i := range nd {
			sliceShape[i] = stop[i] - start[i]
			n *= sliceShape[i]
		}
		box := randBytes(r, int(n))
		want, got := make([]byte, g.chunkBytes), make([]byte, g.chunkBytes)
		w := newSliceWalk(g, start, stop)
		copy(w.cc, co)
		for i := range nd {
			w.cc[i] /= int64(chunks[i])
		}
		if !w.chunkCovered() || !w.chunkWhole() {
			t.Fatalf("iteration %d: the chunk at %v is not whole and covered", iter, co)
		}
		w.blocks(func(nblock int64) error {
			bb := int64(g.blockBytes)
			copyBlockIn(want[nblock*bb:(nblock+1)*bb], g.block, w.origin, box, sliceShape, start, stop, itemsize)
			return nil
		})
		copyChunk(got, g, co, box, sliceShape, start, true)
		if !bytes.Equal(got, want) {
			t.Fatalf("iteration %d: shape %v chunks %v blocks %v box [%v, %v): in differs at %d", iter, shape, chunks, blocks, start, stop, golden.FirstDiff(got, want))
		}
		back := make([]byte, n)
		wantBack := make([]byte, n)
		copyChunk(got, g, co, back, sliceShape, start, false)
		w.blocks(func(nblock int64) error {
			bb := int64(g.blockBytes)
			copyBlockOut(wantBack, sliceShape, start, stop, want[nblock*bb:(nblock+1)*bb], g.block, w.origin, itemsize)
			return nil
		})
		if !bytes.Equal(back, wantBack) {
			t.Fatalf("iteration %d: out differs at %d", iter, golden.FirstDiff(back, wantBack))
		}
	}
}

// TestWritesWithThreads makes arrays and writes slices into them with one
// thread and with several (which fill and compress chunks several at
// once): the frames must be the same bytes, and hold the reference data.
func TestWritesWithThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	for iter := range 150 {
		shape, chunks, blocks := randGeom(r)
		itemsize := []int{1, 4, 8}[r.IntN(3)]
		n := int64(itemsize)
		for _, s := range shape {
			n *= s
		}
		data := randBytes(r, int(n))
		type edit struct {
			start, stop []int64
			src         []byte
		}
		var edits []edit
		for range 3 {
			start, stop := randSlice(r, shape)
			m := int64(itemsize)
			for i := range start {
				m *= stop[i] - start[i]
			}
			edits = append(edits, edit{start, stop, randBytes(r, int(m))})
		}
		var frames [2][]byte
		for k, th := range []int{1, 3} {
			o := testOptions()
			o.Threads = th
			a, err := FromBuffer(Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, Itemsize: itemsize, Options: o}, data)
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Clone(data)
			for _, e := range edits {
				if err := a.SetSlice(e.src, e.start, e.stop); err != nil {
					t.Fatal(err)
				}
				refSetSlice(want, shape, e.start, e.stop, itemsize, e.src)
			}
			got, err := a.Read(nil)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("iteration %d, %d threads: shape %v chunks %v blocks %v: the array differs (%v)", iter, th, shape, chunks, blocks, err)
			}
			if frames[k], err = a.AppendFrame(nil); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(frames[0], frames[1]) {
			t.Fatalf("iteration %d: shape %v chunks %v blocks %v: the frames of 1 and 3 threads differ at %d", iter, shape, chunks, blocks, golden.FirstDiff(frames[0], frames[1]))
		}
	}
}

// TestWritesSideBySide makes arrays of several MiB whose chunks lie side
// by side along the last dimension (filled together, their rows shared
// among the threads), with and without padding, at 1 to 3 threads, and
// writes a slice covering some of them whole: the arrays read back right
// and the frames are the same bytes at every thread count. Their
// compressed chunks pass 1 MiB early, so that the writes at several
// threads reserve the frame's room beside their work.
func TestWritesSideBySide(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	for _, set := range []struct {
		shape          []int64
		chunks, blocks []int32
		start, stop    []int64 // the slice written after
	}{
		{[]int64{64, 64, 64}, []int32{16, 16, 16}, []int32{8, 8, 8}, []int64{16, 0, 0}, []int64{48, 32, 64}},
		{[]int64{60, 62, 64}, []int32{16, 16, 16}, []int32{8, 8, 8}, []int64{5, 16, 0}, []int64{37, 32, 48}},
		{[]int64{50, 1000}, []int32{20, 100}, []int32{10, 25}, []int64{20, 300}, []int64{40, 1000}},
		{[]int64{48, 1000}, []int32{16, 96}, []int32{8, 32}, []int64{0, 0}, []int64{48, 1000}},
	} {
		n := int64(8)
		for _, s := range set.shape {
			n *= s
		}
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32()) // noise: chunks of about their size
		}
		m := int64(8)
		for i := range set.start {
			m *= set.stop[i] - set.start[i]
		}
		edit := make([]byte, m)
		for i := range edit {
			edit[i] = byte(r.IntN(4))
		}
		want := bytes.Clone(data)
		refSetSlice(want, set.shape, set.start, set.stop, 8, edit)
		var frames [3][]byte
		for k, th := range []int{1, 2, 3} {
			o := testOptions()
			o.Threads = th
			a, err := FromBuffer(Params{Shape: set.shape, ChunkShape: set.chunks, BlockShape: set.blocks, DType: "<f8", Options: o}, data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Read(nil)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("shape %v chunks %v, %d threads: the array made differs (%v)", set.shape, set.chunks, th, err)
			}
			if err := a.SetSlice(edit, set.start, set.stop); err != nil {
				t.Fatal(err)
			}
			got, err = a.Read(nil)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("shape %v chunks %v, %d threads: the array written differs (%v)", set.shape, set.chunks, th, err)
			}
			if frames[k], err = a.AppendFrame(nil); err != nil {
				t.Fatal(err)
			}
		}
		for k := 1; k < len(frames); k++ {
			if !bytes.Equal(frames[0], frames[k]) {
				t.Fatalf("shape %v chunks %v: the frames of 1 and %d threads differ at %d", set.shape, set.chunks, k+1, golden.FirstDiff(frames[0], frames[k]))
			}
		}
	}
}

// TestSliceGather reads bands one or two items thick along each axis of
// 3-D arrays of item sizes 1 to 16 whose shuffled streams are of every
// kind (noise stored raw, compressed, a run, zeros, a few values), in
// memory and in a frame file: such slices need a few items spread
// through each block, which are gathered from the block's streams
// (gatherND); each must equal the plain reference.
func TestSliceGather(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	shape := []int64{40, 50, 36}
	for itemsize := 1; itemsize <= 16; itemsize++ {
		n := int(shape[0]*shape[1]*shape[2]) * itemsize
		ref := make([]byte, n)
		for i := 0; i < n; i += itemsize {
			e := ref[i : i+itemsize]
			e[0] = byte(r.Uint32())
			if itemsize > 1 {
				e[1] = byte(i / itemsize / 300)
			}
			if itemsize > 2 {
				e[2] = 0x40
			}
			if itemsize > 4 {
				e[itemsize-1] = byte(r.Uint32() % 3)
			}
		}
		for si, st := range storages(t)[:2] {
			p := st
			p.Shape, p.ChunkShape, p.BlockShape, p.Itemsize = shape, []int32{20, 25, 36}, []int32{8, 10, 12}, itemsize
			p.Options = testOptions()
			a, err := FromBuffer(p, ref)
			if err != nil {
				t.Fatal(err)
			}
			for axis := range 3 {
				for _, k := range []int64{0, 7, 11, shape[axis] - 2} {
					start, stop := []int64{0, 0, 0}, slices.Clone(shape)
					start[axis], stop[axis] = k, k+1+k%2
					got, err := a.GetSlice(nil, start, stop)
					if err != nil {
						t.Fatal(err)
					}
					if want := refSlice(ref, shape, start, stop, itemsize); !bytes.Equal(got, want) {
						t.Fatalf("itemsize %d storage %d: GetSlice(%v, %v) differs", itemsize, si, start, stop)
					}
				}
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestGatherRows8 checks gatherRows8 (eight items at a time through a
// transpose, the rest item by item) against gatherRow for rows of 1 to
// 20 items starting anywhere in streams of 64 items, up to their ends.
func TestGatherRows8(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 64
	var streams [16][]byte
	for j := range 8 {
		streams[j] = make([]byte, n)
		for i := range streams[j] {
			streams[j][i] = byte(r.Uint32())
		}
	}
	for row := int64(1); row <= 20; row++ {
		for sp := int64(0); sp+row <= n; sp++ {
			n1 := min(3, (n-sp-row)/7+1)
			got := make([]byte, 8*(2+n1*(row+3)))
			want := slices.Clone(got)
			gatherRows8(got, &streams, 2, sp, row, n1, row+3, 7)
			for k := range n1 {
				d := (2 + k*(row+3)) * 8
				gatherRow(want[d:d+row*8], &streams, 8, sp+k*7)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("row %d from item %d: gatherRows8 differs from gatherRow", row, sp)
			}
		}
	}
}

// TestSliceGatherWide reads bands of 3 to 10 columns of 2-D float64
// arrays (rows of 40 items a block): such bands need at most a quarter
// of each block they touch and are gathered with gatherRows8's
// transpose, eight items at a time, with rows ending short of eight,
// starting anywhere in a block's row and reaching its last item.
func TestSliceGatherWide(t *testing.T) {
	shape := []int64{130, 200}
	n := int(shape[0] * shape[1])
	ref := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(ref[8*i:], math.Float64bits(float64(i)*0.37+1e6))
	}
	for si, st := range storages(t)[:2] {
		p := st
		p.Shape, p.ChunkShape, p.BlockShape, p.Itemsize = shape, []int32{64, 100}, []int32{32, 40}, 8
		p.Options = testOptions()
		a, err := FromBuffer(p, ref)
		if err != nil {
			t.Fatal(err)
		}
		for w := int64(3); w <= 10; w++ {
			for _, k := range []int64{0, 5, 37, 40 - w, 100 - w, 95, 200 - w} {
				start, stop := []int64{3, k}, []int64{129, k + w}
				got, err := a.GetSlice(nil, start, stop)
				if err != nil {
					t.Fatal(err)
				}
				if want := refSlice(ref, shape, start, stop, 8); !bytes.Equal(got, want) {
					t.Fatalf("storage %d: GetSlice(%v, %v) differs", si, start, stop)
				}
			}
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
