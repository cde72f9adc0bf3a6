package b2nd

import (
	"bytes"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
)

// TestChangesCrashSafe interrupts every write of each kind of in-place
// change of an array in a frame file (a slice across chunks, an append,
// inserts and deletes inside the array, a resize), whole or torn, and
// checks that the file then opens to the array before or after the
// change.
func TestChangesCrashSafe(t *testing.T) {
	shape := []int64{9, 10}
	data := make([]byte, 90*2)
	for i := range data {
		data[i] = byte(i * 3)
	}
	a, err := FromBuffer(Params{Shape: shape, ChunkShape: []int32{3, 4}, BlockShape: []int32{2, 2}, DType: "<i2", Options: testOptions()}, data)
	if err != nil {
		t.Fatal(err)
	}
	base, err := a.AppendFrame(nil)
	if err != nil {
		t.Fatal(err)
	}
	plane := bytes.Repeat([]byte{7, 9}, 10)
	ops := []struct {
		name string
		do   func(a *Array) error
	}{
		{"set slice", func(a *Array) error { return a.SetSlice(bytes.Repeat([]byte{1, 2}, 5*6), []int64{2, 3}, []int64{7, 9}) }},
		{"append", func(a *Array) error { return a.Append(append(plane, plane...), 0) }},
		{"insert", func(a *Array) error { return a.Insert(bytes.Repeat(plane, 3), 0, 3) }},
		{"delete", func(a *Array) error { return a.Delete(0, 3, 3) }},
		{"resize", func(a *Array) error { return a.Resize([]int64{5, 14}, nil) }},
	}
	for _, op := range ops {
		// The states before and after, read from a file changed without
		// faults.
		f := faultfile.New(base, faultfile.NoFault)
		ok, err := OpenFrameFile(f)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := ok.Read(nil)
		if err := op.do(ok); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		after, _ := ok.Read(nil)
		afterShape := ok.Shape()
		crashes := 0
		for k := 0; ; k++ {
			done := false
			for _, keep := range []int{0, 1, 7} {
				f := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
				a, err := OpenFrameFile(f)
				if err != nil {
					t.Fatal(err)
				}
				err = op.do(a)
				if !f.Crashed() {
					if err != nil {
						t.Fatalf("%s: %v", op.name, err)
					}
					done = true
					break
				}
				crashes++
				r, err := OpenFrameFile(faultfile.New(f.Bytes(), faultfile.NoFault))
				if err != nil {
					t.Fatalf("%s: crash at write %d (%d bytes kept): reopen: %v", op.name, k, keep, err)
				}
				got, err := r.Read(nil)
				if err != nil {
					t.Fatalf("%s: crash at write %d (%d bytes kept): read: %v", op.name, k, keep, err)
				}
				if !bytes.Equal(got, before) && !(bytes.Equal(got, after) && slices.Equal(r.Shape(), afterShape)) {
					t.Fatalf("%s: crash at write %d (%d bytes kept): the array is neither the one before nor after (shape %v)", op.name, k, keep, r.Shape())
				}
			}
			if done {
				break
			}
		}
		if crashes == 0 {
			t.Errorf("%s: no write was interrupted", op.name)
		}
		t.Logf("%s: %d interrupted changes, each read back whole", op.name, crashes)
	}
}
