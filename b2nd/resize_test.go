package b2nd

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// refInsert inserts src (n planes across axis) into the C-order array ref
// before index at, the plain way.
func refInsert(ref []byte, shape []int64, itemsize, axis int, at int64, src []byte, n int64) ([]byte, []int64) {
	ns := append([]int64(nil), shape...)
	ns[axis] += n
	out := make([]byte, len(ref)+len(src))
	full := func(sh []int64, lo, hi int64) ([]int64, []int64) {
		start, stop := make([]int64, len(sh)), append([]int64(nil), sh...)
		start[axis], stop[axis] = lo, hi
		return start, stop
	}
	s0, e0 := full(shape, 0, at)
	d0, f0 := full(ns, 0, at)
	refSetSlice(out, ns, d0, f0, itemsize, refSlice(ref, shape, s0, e0, itemsize))
	d1, f1 := full(ns, at, at+n)
	refSetSlice(out, ns, d1, f1, itemsize, src)
	s2, e2 := full(shape, at, shape[axis])
	d2, f2 := full(ns, at+n, ns[axis])
	refSetSlice(out, ns, d2, f2, itemsize, refSlice(ref, shape, s2, e2, itemsize))
	return out, ns
}

// refDelete removes n planes across axis from index at, the plain way.
func refDelete(ref []byte, shape []int64, itemsize, axis int, at, n int64) ([]byte, []int64) {
	ns := append([]int64(nil), shape...)
	ns[axis] -= n
	cut := func(lo, hi int64) []byte {
		start, stop := make([]int64, len(shape)), append([]int64(nil), shape...)
		start[axis], stop[axis] = lo, hi
		return refSlice(ref, shape, start, stop, itemsize)
	}
	a, b := cut(0, at), cut(at+n, shape[axis])
	out := make([]byte, 0, len(a)+len(b))
	if axis == 0 {
		return append(append(out, a...), b...), ns
	}
	out = make([]byte, len(a)+len(b))
	start, stop := make([]int64, len(ns)), append([]int64(nil), ns...)
	stop[axis] = at
	refSetSlice(out, ns, start, stop, itemsize, a)
	start[axis], stop[axis] = at, ns[axis]
	refSetSlice(out, ns, start, stop, itemsize, b)
	return out, ns
}

// TestAppendInsertDelete runs random appends, inserts and deletes along
// random axes and checks the array against a plain reference after each,
// in memory and in files (opened again at the end).
func TestAppendInsertDelete(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for iter := range 24 {
		nd := 1 + r.IntN(3)
		var shape []int64
		var chunks, blocks []int32
		for range nd {
			c := int32(1 + r.IntN(5))
			shape = append(shape, int64(r.IntN(12)))
			chunks = append(chunks, c)
			blocks = append(blocks, int32(1+r.IntN(int(c))))
		}
		itemsize := 1 + r.IntN(4)
		st := storages(t)[iter%3]
		p := st
		p.Shape, p.ChunkShape, p.BlockShape, p.Itemsize, p.Options = shape, chunks, blocks, itemsize, testOptions()
		n := itemsize
		for _, s := range shape {
			n *= int(s)
		}
		ref := randBytes(r, n)
		a, err := FromBuffer(p, ref)
		if err != nil {
			t.Fatal(err)
		}
		for op := range 6 {
			axis := r.IntN(nd)
			plane := int64(itemsize)
			for i, s := range shape {
				if i != axis {
					plane *= s
				}
			}
			c := int64(chunks[axis])
			var what string
			switch k := r.IntN(3); {
			case k == 0 || shape[axis] == 0:
				m := int64(r.IntN(7))
				src := randBytes(r, int(m*plane))
				what = "append"
				err = a.Append(src, axis)
				if plane > 0 {
					ref, shape = refInsert(ref, shape, itemsize, axis, shape[axis], src, m)
				}
			case k == 1:
				at := c * r.Int64N(shape[axis]/c+1)
				m := c * int64(1+r.IntN(2))
				src := randBytes(r, int(m*plane))
				what = "insert"
				err = a.Insert(src, axis, at)
				if plane > 0 {
					ref, shape = refInsert(ref, shape, itemsize, axis, at, src, m)
				}
			default:
				var at, m int64
				if r.IntN(2) == 0 || shape[axis] < c {
					m = r.Int64N(shape[axis] + 1)
					at = shape[axis] - m
				} else {
					m = c * (1 + r.Int64N(shape[axis]/c))
					at = c * r.Int64N((shape[axis]-m)/c+1)
				}
				what = "delete"
				err = a.Delete(axis, at, m)
				ref, shape = refDelete(ref, shape, itemsize, axis, at, m)
			}
			if err != nil {
				t.Fatalf("iter %d op %d: %s along %d: %v", iter, op, what, axis, err)
			}
			got, err := a.Read(nil)
			if err != nil || !bytes.Equal(got, ref) {
				t.Fatalf("iter %d op %d: after %s along axis %d: shape %v (want %v), Read differs (%v)", iter, op, what, axis, a.Shape(), shape, err)
			}
		}
		a.Close()
		if p.Path != "" {
			b, err := Open(p.Path)
			if err != nil {
				t.Fatalf("iter %d: reopen: %v", iter, err)
			}
			got, err := b.Read(nil)
			if err != nil || !bytes.Equal(got, ref) {
				t.Fatalf("iter %d: reopened file differs (%v)", iter, err)
			}
			b.Close()
		}
	}
}

// TestResizeGrowsZeros: growing a fresh array adds zeros, shrinking cuts,
// and a bad start is refused.
func TestResizeGrowsZeros(t *testing.T) {
	p := Params{Shape: []int64{5, 6}, ChunkShape: []int32{4, 4}, BlockShape: []int32{2, 2}, Itemsize: 1, Options: testOptions(),
		Path: filepath.Join(t.TempDir(), "r.b2nd")}
	data := make([]byte, 30)
	for i := range data {
		data[i] = byte(1 + i)
	}
	a, err := FromBuffer(p, data)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Resize([]int64{9, 7}, nil); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 63)
	refSetSlice(want, []int64{9, 7}, []int64{0, 0}, []int64{5, 6}, 1, data)
	if got, err := a.Read(nil); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("grown: %v\n%v (%v)", got, want, err)
	}
	if err := a.Resize([]int64{3, 7}, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Read(nil); err != nil || !bytes.Equal(got, want[:21]) {
		t.Fatalf("shrunk: %v (%v)", got, err)
	}
	if err := a.Resize([]int64{5, 7}, []int64{1, 0}); err == nil {
		t.Fatal("growth of 2 rows at row 1 (chunks of 4) accepted")
	}
}
