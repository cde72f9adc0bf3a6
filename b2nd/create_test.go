package b2nd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/schunkhook"
)

// swapRowsHooks replaces the hooks of compressing chunks from the
// caller's rows for the rest of the test. The tests that call it do not
// run in parallel, so nothing else makes arrays meanwhile.
func swapRowsHooks(t *testing.T, compresses func(any) bool, compress func([]byte, *schunkhook.BlockRows, any) ([]byte, bool, error)) {
	c0, c1 := schunkhook.CompressesRows, schunkhook.CompressRows
	schunkhook.CompressesRows, schunkhook.CompressRows = compresses, compress
	t.Cleanup(func() { schunkhook.CompressesRows, schunkhook.CompressRows = c0, c1 })
}

// makeFrames makes an array of data and writes a slice into it, and
// returns the frames after each.
func makeFrames(t *testing.T, p Params, data []byte, start, stop []int64, edit []byte) (made, written []byte) {
	t.Helper()
	a, err := FromBuffer(p, data)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if made, err = a.AppendFrame(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSlice(edit, start, stop); err != nil {
		t.Fatal(err)
	}
	if written, err = a.AppendFrame(nil); err != nil {
		t.Fatal(err)
	}
	return made, written
}

// TestMakeFromRowsMatchesCopy makes arrays whose whole chunks are
// compressed straight from the caller's rows (where a kernel takes their
// item size) and writes slices covering some chunks whole, then does the
// same with every chunk copied first: the frames must be the same bytes.
// Shapes of 1 to 4 dimensions, chunks with and without padding, item
// sizes with and without a kernel, codecs, contents that compress, that
// do not (chunks stored as a copy) and zeros, at 1 and 3 threads; the
// data ends against a guard page (at either end of its buffer), so a
// row read past it faults. With a kernel, some chunks must have taken
// the rows.
func TestMakeFromRowsMatchesCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	var took atomic.Int64
	compress := schunkhook.CompressRows
	swapRowsHooks(t, schunkhook.CompressesRows, func(dst []byte, r *schunkhook.BlockRows, opts any) ([]byte, bool, error) {
		out, ok, err := compress(dst, r, opts)
		if ok {
			took.Add(1)
		}
		return out, ok, err
	})
	compresses := schunkhook.CompressesRows
	for iter := range 150 {
		nd := 1 + rng.IntN(4)
		var shape []int64
		var chunks, blocks []int32
		for range nd {
			b := int32(1 + rng.IntN(12))
			c := b * int32(1+rng.IntN(3))
			if rng.IntN(4) == 0 {
				c += int32(rng.IntN(int(b))) // blocks that pad the chunk
			}
			s := int64(c) * int64(1+rng.IntN(3))
			if rng.IntN(3) == 0 {
				s += int64(rng.IntN(int(c))) // chunks that pad the array
			}
			shape, chunks, blocks = append(shape, s), append(chunks, c), append(blocks, b)
		}
		itemsize := []int{8, 8, 8, 1, 2, 4, 16}[rng.IntN(7)]
		n := int64(itemsize)
		for _, s := range shape {
			n *= s
		}
		side := []guard.Side{guard.End, guard.Start}[rng.IntN(2)]
		buf := guard.New(int(n), side)
		data := buf.Bytes
		content := []string{"runs", "noise", "zeros", "floats"}[rng.IntN(4)]
		switch content {
		case "runs":
			copy(data, randBytes(rng, len(data)))
		case "noise":
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
		case "floats":
			for i := 0; i+itemsize <= len(data); i += itemsize {
				v := math.Float64bits(float64(i) / 3)
				var b [16]byte
				binary.LittleEndian.PutUint64(b[:], v)
				copy(data[i:i+itemsize], b[:])
			}
		}
		start, stop := randSlice(rng, shape)
		if rng.IntN(2) == 0 {
			// Whole chunks, more often than a random slice covers any.
			for i := range shape {
				c := int64(chunks[i])
				start[i] = min(start[i]/c*c, shape[i])
				stop[i] = max(stop[i], min(start[i]+c, shape[i]))
			}
		}
		m := int64(itemsize)
		for i := range start {
			m *= stop[i] - start[i]
		}
		edit := make([]byte, m)
		for i := range edit {
			edit[i] = byte(rng.IntN(3))
		}
		o := testOptions()
		o.Codec = []blosc.Codec{blosc.LZ4, blosc.Zstd, blosc.BloscLZ}[rng.IntN(3)]
		o.Threads = []int{1, 3}[rng.IntN(2)]
		o.Filters = [blosc.MaxFilters]blosc.Filter{blosc.MaxFilters - 1: blosc.ByteShuffle}
		p := Params{Shape: shape, ChunkShape: chunks, BlockShape: blocks, Itemsize: itemsize, Options: o}
		name := fmt.Sprintf("iteration %d: shape %v chunks %v blocks %v itemsize %d %s %s threads %d slice %v-%v",
			iter, shape, chunks, blocks, itemsize, content, o.Codec, o.Threads, start, stop)
		made, written := makeFrames(t, p, data, start, stop, edit)
		schunkhook.CompressesRows = func(any) bool { return false }
		wantMade, wantWritten := makeFrames(t, p, data, start, stop, edit)
		schunkhook.CompressesRows = compresses
		if !bytes.Equal(made, wantMade) {
			t.Fatalf("%s: the frames made differ at %d", name, golden.FirstDiff(made, wantMade))
		}
		if !bytes.Equal(written, wantWritten) {
			t.Fatalf("%s: the frames written differ at %d", name, golden.FirstDiff(written, wantWritten))
		}
		buf.Free()
	}
	o := testOptions()
	o.Typesize = 8
	o.Format = blosc.FormatBlosc2
	if schunkhook.CompressesRows(&o) && took.Load() == 0 {
		t.Error("no chunk was compressed from the rows")
	}
	t.Logf("%d chunks compressed from the rows", took.Load())
}

// Where CompressRows refuses a chunk that CompressesRows promised (rows
// it finds outside the buffer, a block size it does not keep), the chunk
// is filled and compressed as before: the same frame.
func TestMakeFromRowsFallsBack(t *testing.T) {
	data := golden.MustPattern(t, "linspace_f64", 64*96*8)
	o := testOptions()
	o.Filters = [blosc.MaxFilters]blosc.Filter{blosc.MaxFilters - 1: blosc.ByteShuffle}
	p := Params{Shape: []int64{64, 96}, ChunkShape: []int32{32, 32}, BlockShape: []int32{16, 8}, DType: "<f8", Options: o}
	edit := make([]byte, 32*64*8)
	want, wantWritten := makeFrames(t, p, data, []int64{0, 32}, []int64{32, 96}, edit)
	var asked atomic.Int64
	swapRowsHooks(t, func(any) bool { return true }, func([]byte, *schunkhook.BlockRows, any) ([]byte, bool, error) {
		asked.Add(1)
		return nil, false, nil
	})
	got, gotWritten := makeFrames(t, p, data, []int64{0, 32}, []int64{32, 96}, edit)
	if !bytes.Equal(got, want) || !bytes.Equal(gotWritten, wantWritten) {
		t.Fatal("the frames differ")
	}
	if asked.Load() != 6+2 {
		t.Errorf("CompressRows was asked for %d chunks, want the 6 made and 2 written", asked.Load())
	}
}
