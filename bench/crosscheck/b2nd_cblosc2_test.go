//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
)

var b2ndDTypes = []struct {
	dtype    string
	itemsize int
}{{"|u1", 1}, {">i2", 2}, {"<f4", 4}, {"<f8", 8}, {"|S3", 3}, {"<c16", 16}}

func randB2NDGeom(r *rand.Rand, maxDim int) (shape []int64, chunks, blocks []int32) {
	nd := r.IntN(maxDim + 1)
	for range nd {
		s := int64(1 + r.IntN(17))
		c := int32(1 + r.IntN(9))
		b := int32(1 + r.IntN(int(c)))
		shape, chunks, blocks = append(shape, s), append(chunks, c), append(blocks, b)
	}
	return
}

func randB2NDSlice(r *rand.Rand, shape []int64) (start, stop []int64) {
	for _, s := range shape {
		a, b := r.Int64N(s+1), r.Int64N(s+1)
		if a > b {
			a, b = b, a
		}
		start, stop = append(start, a), append(stop, b)
	}
	return
}

func b2ndData(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(5))
	}
	return b
}

// cReadsLike checks that c-blosc2 reads the array ca as the Go array a:
// shapes, dtype, the whole array and random slices.
func cReadsLike(t *testing.T, what string, r *rand.Rand, ca *cblosc2.Array, a *b2nd.Array) {
	t.Helper()
	shape, chunks, blocks := ca.Shape()
	if !slices.Equal(shape, a.Shape()) || !slices.Equal(chunks, a.ChunkShape()) || !slices.Equal(blocks, a.BlockShape()) ||
		ca.DType() != a.DType() || ca.Itemsize() != a.Itemsize() {
		t.Fatalf("%s: c-blosc2 sees %v %v %v %q %d; ours %v %v %v %q %d", what, shape, chunks, blocks, ca.DType(), ca.Itemsize(),
			a.Shape(), a.ChunkShape(), a.BlockShape(), a.DType(), a.Itemsize())
	}
	want, err := a.Read(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ca.ToCBuffer(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: b2nd_to_cbuffer differs from our Read (shape %v chunks %v blocks %v)", what, shape, chunks, blocks)
	}
	for range 3 {
		start, stop := randB2NDSlice(r, shape)
		g, err := a.GetSlice(nil, start, stop)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ca.GetSlice(nil, start, stop)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !bytes.Equal(g, c) {
			t.Fatalf("%s: slice [%v, %v): b2nd_get_slice_cbuffer differs from our GetSlice", what, start, stop)
		}
	}
}

func b2ndOptions(r *rand.Rand) blosc.Options {
	o := blosc.DefaultOptions()
	o.Codec = []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.Zstd, blosc.Zlib}[r.IntN(4)]
	o.Filters = [blosc.MaxFilters]blosc.Filter{}
	o.Filters[blosc.MaxFilters-1] = []blosc.Filter{blosc.NoFilter, blosc.ByteShuffle, blosc.BitShuffle}[r.IntN(3)]
	o.Threads = 1
	return o
}

// TestB2NDCReadsOurs makes arrays with the Go package, in memory, in a
// frame file and in a sparse frame, and reads them with c-blosc2.
func TestB2NDCReadsOurs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for iter := range 40 {
		shape, chunks, blocks := randB2NDGeom(r, 4)
		dt := b2ndDTypes[r.IntN(len(b2ndDTypes))]
		n := dt.itemsize
		for _, s := range shape {
			n *= int(s)
		}
		data := b2ndData(r, n)
		p := b2nd.Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, DType: dt.dtype, Options: b2ndOptions(r)}
		if iter%5 == 4 {
			// python-blosc2's default shapes.
			p.ChunkShape, p.BlockShape = nil, nil
		}
		switch iter % 3 {
		case 1:
			p.Path = filepath.Join(dir, "f"+string(rune('a'+iter))+".b2nd")
		case 2:
			p.Path, p.Sparse = filepath.Join(dir, "s"+string(rune('a'+iter))+".b2nd"), true
		}
		a, err := b2nd.FromBuffer(p, data)
		if err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		var ca *cblosc2.Array
		if p.Path == "" {
			ca, err = cblosc2.ArrayFromFrame(must(a.AppendFrame(nil)))
		} else {
			ca, err = cblosc2.OpenArray(p.Path)
		}
		if err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		cReadsLike(t, "made", r, ca, a)
		ca.Free()
		if p.Path == "" {
			continue
		}
		// In-place changes, each read by c-blosc2 from the file.
		for k := range 3 {
			start, stop := randB2NDSlice(r, shape)
			m := dt.itemsize
			for i := range start {
				m *= int(stop[i] - start[i])
			}
			if err := a.SetSlice(b2ndData(r, m), start, stop); err != nil {
				t.Fatal(err)
			}
			// c-blosc2 checks a sparse frame's chunk numbers as offsets,
			// against cbytes less 32: numbers that only grew with each
			// update made it refuse frames of small chunks.
			ca, err := cblosc2.OpenArray(p.Path)
			if err != nil {
				t.Fatalf("iter %d: after SetSlice %d: %v", iter, k, err)
			}
			cReadsLike(t, "after SetSlice", r, ca, a)
			ca.Free()
		}
		a.Close()
	}
}

// TestB2NDSpecialCReads checks that c-blosc2 reads our zeros, NaN, full
// and 0-dimensional arrays.
func TestB2NDSpecialCReads(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := b2nd.Params{Shape: []int64{13, 7}, ChunkShape: []int32{5, 4}, BlockShape: []int32{2, 3}, DType: "<f8", Options: b2ndOptions(r)}
	mk := map[string]func() (*b2nd.Array, error){
		"zeros": func() (*b2nd.Array, error) { return b2nd.Zeros(p) },
		"nans":  func() (*b2nd.Array, error) { return b2nd.NaNs(p) },
		"full":  func() (*b2nd.Array, error) { return b2nd.Full(p, []byte{1, 2, 3, 4, 5, 6, 7, 8}) },
		"scalar": func() (*b2nd.Array, error) {
			return b2nd.FromBuffer(b2nd.Params{Shape: []int64{}, DType: "<i8", Options: p.Options}, []byte{9, 8, 7, 6, 5, 4, 3, 2})
		},
	}
	for name, f := range mk {
		a, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ca, err := cblosc2.ArrayFromFrame(must(a.AppendFrame(nil)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cReadsLike(t, name, r, ca, a)
		ca.Free()
	}
}

// TestB2NDWeReadC reads arrays c-blosc2 makes with b2nd_from_cbuffer and
// checks that our metalayer for the same array is c-blosc2's, byte for
// byte.
func TestB2NDWeReadC(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range 30 {
		shape, chunks, blocks := randB2NDGeom(r, 4)
		dt := b2ndDTypes[r.IntN(len(b2ndDTypes))]
		n := dt.itemsize
		for _, s := range shape {
			n *= int(s)
		}
		data := b2ndData(r, n)
		o := b2ndOptions(r)
		cp := cblosc2.Params{Codec: int(o.Codec), Level: o.Level, Typesize: dt.itemsize, Threads: 1}
		for i, f := range o.Filters {
			cp.Filters[i] = uint8(f)
		}
		ca, err := cblosc2.ArrayFromCBuffer(cp, shape, chunks, blocks, dt.dtype, data)
		if err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		fr, err := ca.Frame()
		ca.Free()
		if err != nil {
			t.Fatal(err)
		}
		a, err := b2nd.OpenBytes(fr)
		if err != nil {
			t.Fatalf("iter %d: %v", iter, err)
		}
		got, err := a.Read(nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("iter %d: our Read of c-blosc2's array differs (%v)", iter, err)
		}
		ours, err := b2nd.FromBuffer(b2nd.Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, DType: dt.dtype, Options: o}, data)
		if err != nil {
			t.Fatal(err)
		}
		cm, _ := a.SChunk().Metalayer(b2nd.MetaName)
		gm, _ := ours.SChunk().Metalayer(b2nd.MetaName)
		if !bytes.Equal(cm, gm) {
			t.Fatalf("iter %d: metalayer\n%x\nc-blosc2's\n%x", iter, gm, cm)
		}
	}
}

// TestB2NDChangesLikeC runs the same resizes, appends, inserts, deletes
// and slice writes on a Go array in a frame file and on a c-blosc2 array
// made from the same data, and after each checks that both read the same
// (including what a grow after a shrink brings back from the edge chunks'
// padding) and that c-blosc2 reads our file.
func TestB2NDChangesLikeC(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	dir := t.TempDir()
	for iter := range 16 {
		shape, chunks, blocks := randB2NDGeom(r, 3)
		if len(shape) == 0 {
			continue
		}
		dt := b2ndDTypes[r.IntN(4)]
		n := dt.itemsize
		for _, s := range shape {
			n *= int(s)
		}
		data := b2ndData(r, n)
		o := b2ndOptions(r)
		p := b2nd.Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, DType: dt.dtype, Options: o,
			Path: filepath.Join(dir, "c"+string(rune('a'+iter))+".b2nd")}
		a, err := b2nd.FromBuffer(p, data)
		if err != nil {
			t.Fatal(err)
		}
		cp := cblosc2.Params{Codec: int(o.Codec), Level: o.Level, Typesize: dt.itemsize, Threads: 1}
		for i, f := range o.Filters {
			cp.Filters[i] = uint8(f)
		}
		ca, err := cblosc2.ArrayFromCBuffer(cp, shape, chunks, blocks, dt.dtype, data)
		if err != nil {
			t.Fatal(err)
		}
		for op := range 8 {
			cur := a.Shape()
			nd := len(cur)
			axis := r.IntN(nd)
			c := int64(chunks[axis])
			plane := int64(dt.itemsize)
			for i, s := range cur {
				if i != axis {
					plane *= s
				}
			}
			var what string
			var gerr, cerr error
			switch r.IntN(5) {
			case 0: // resize at the ends, any sizes
				ns := make([]int64, nd)
				for i := range ns {
					ns[i] = max(0, cur[i]+int64(r.IntN(9))-4)
				}
				what = fmt.Sprintf("resize to %v", ns)
				gerr, cerr = a.Resize(ns, nil), ca.Resize(ns, nil)
			case 1:
				m := int64(r.IntN(5))
				src := b2ndData(r, int(m*plane))
				what = fmt.Sprintf("append %d along %d", m, axis)
				if plane == 0 {
					continue
				}
				gerr, cerr = a.Append(src, axis), ca.Append(src, axis)
			case 2:
				at := c * r.Int64N(cur[axis]/c+1)
				m := c * int64(1+r.IntN(2))
				src := b2ndData(r, int(m*plane))
				what = fmt.Sprintf("insert %d at %d along %d", m, at, axis)
				if plane == 0 {
					continue
				}
				gerr, cerr = a.Insert(src, axis, at), ca.Insert(src, axis, at)
			case 3:
				var at, m int64
				if r.IntN(2) == 0 || cur[axis] < c {
					m = r.Int64N(cur[axis] + 1)
					at = cur[axis] - m
				} else {
					m = c * (1 + r.Int64N(cur[axis]/c))
					at = c * r.Int64N((cur[axis]-m)/c+1)
				}
				what = fmt.Sprintf("delete %d at %d along %d", m, at, axis)
				gerr, cerr = a.Delete(axis, at, m), ca.Delete(axis, at, m)
			default:
				start, stop := randB2NDSlice(r, cur)
				m := dt.itemsize
				for i := range start {
					m *= int(stop[i] - start[i])
				}
				what = fmt.Sprintf("set slice [%v, %v)", start, stop)
				gerr = a.SetSlice(b2ndData(r, m), start, stop)
				if gerr == nil {
					// c-blosc2 gets our result for the slice: the same write.
					got, _ := a.GetSlice(nil, start, stop)
					cerr = ca.SetSlice(got, start, stop)
				}
			}
			if gerr != nil || cerr != nil {
				t.Fatalf("iter %d op %d %s: ours %v, c-blosc2 %v", iter, op, what, gerr, cerr)
			}
			t.Logf("iter %d op %d: %s: shape %v", iter, op, what, a.Shape())
			cReadsLike(t, what+" (c-blosc2's own array)", r, ca, a)
			fa, err := cblosc2.OpenArray(p.Path)
			if err != nil {
				t.Fatalf("iter %d op %d %s: c-blosc2 opens our file: %v", iter, op, what, err)
			}
			cReadsLike(t, what+" (our file)", r, fa, a)
			fa.Free()
		}
		ca.Free()
		a.Close()
	}
}
