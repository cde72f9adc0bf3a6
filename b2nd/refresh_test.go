package b2nd

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc"
)

// TestRefresh: a second handle of an array file sees another handle's
// append (a new shape and new chunks) after Refresh, and not before;
// with locking, both handles share c-blosc2's lock.
func TestRefresh(t *testing.T) {
	for _, locking := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "a.b2nd")
		data := make([]byte, 10*6*8)
		for i := range data {
			data[i] = byte(i)
		}
		p := Params{Shape: []int64{10, 6}, ChunkShape: []int32{4, 6}, BlockShape: []int32{2, 3}, DType: "<f8", Path: path,
			Options: blosc.Options{Codec: blosc.LZ4, Level: 5}}
		w, err := FromBuffer(p, data)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if w, err = OpenFile(path, blosc.FileOptions{Writable: true, Locking: locking}); err != nil {
			t.Fatal(err)
		}
		r, err := OpenFile(path, blosc.FileOptions{Locking: locking})
		if err != nil {
			t.Fatal(err)
		}
		more := make([]byte, 3*6*8)
		for i := range more {
			more[i] = byte(200 + i)
		}
		if err := w.Append(more, 0); err != nil {
			t.Fatal(err)
		}
		if got := r.Shape(); !slices.Equal(got, []int64{10, 6}) {
			t.Fatalf("before Refresh the reader has shape %v", got)
		}
		changed, err := r.Refresh()
		if err != nil || !changed {
			t.Fatalf("Refresh: %v %v", changed, err)
		}
		if got := r.Shape(); !slices.Equal(got, []int64{13, 6}) {
			t.Fatalf("after Refresh the reader has shape %v", got)
		}
		got, err := r.GetSlice(nil, []int64{0, 0}, []int64{13, 6})
		if err != nil {
			t.Fatal(err)
		}
		if want := append(append([]byte(nil), data...), more...); string(got) != string(want) {
			t.Fatal("the refreshed reader reads other data than the writer wrote")
		}
		if changed, err := r.Refresh(); err != nil || changed {
			t.Fatalf("second Refresh: %v %v", changed, err)
		}
		r.Close()
		w.Close()
	}
}
