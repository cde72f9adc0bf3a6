package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/goblosc/blosc/internal/faultfile"
)

// TestFrameWriter: a stream written in pieces of any size makes the same
// frame bytes as AppendData of the whole, at any thread count.
func TestFrameWriter(t *testing.T) {
	data := pattern(t, "linspace_f64", 3<<20+1000)
	for _, th := range []int{1, 2, 4} {
		for _, cs := range []int{64 << 10, 1 << 20} {
			t.Run(fmt.Sprintf("threads=%d/cs=%d", th, cs), func(t *testing.T) {
				o := SChunkOptions{Options: DefaultOptions(), ChunkSize: cs}
				o.Codec, o.Threads = LZ4, th
				mem, _ := NewSChunk(o)
				if err := mem.AddMetalayer("m", []byte("meta")); err != nil {
					t.Fatal(err)
				}
				if err := mem.AppendData(data); err != nil {
					t.Fatal(err)
				}
				want, _ := mem.Frame(nil)
				f := faultfile.New(nil, faultfile.NoFault)
				w, err := NewFrameWriter(f, o)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.SChunk().AddMetalayer("m", []byte("meta")); err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(th), uint64(cs)))
				for p := data; len(p) > 0; {
					k := min(len(p), rng.IntN(300000)+1)
					if n, err := w.Write(p[:k]); err != nil || n != k {
						t.Fatalf("Write: %d, %v", n, err)
					}
					p = p[k:]
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if got := f.Bytes(); !bytes.Equal(got, want) {
					t.Fatalf("streamed frame of %d bytes differs from AppendData's %d", len(got), len(want))
				}
				if _, err := w.Write([]byte("x")); err == nil {
					t.Error("Write after Close accepted")
				}
			})
		}
	}
}

// TestAppendFrom: appending a stream to a frame file in place is one
// change: the file opens to the frame before or after it whatever write a
// crash interrupts, and a failing reader leaves the frame as it was.
func TestAppendFrom(t *testing.T) {
	full := baseFrameFile(t)
	s0, f0, err := reopen(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := s0.AppendData([]byte("a short last chunk")); err != nil {
		t.Fatal(err)
	}
	for name, base := range map[string][]byte{"full last chunk": full, "short last chunk": f0.Bytes()} {
		t.Run(name, func(t *testing.T) { testAppendFrom(t, base) })
	}
}

func testAppendFrom(t *testing.T, base []byte) {
	add := bytes.Repeat([]byte("stream me, "), 500)
	mem, _ := ParseFrame(base)
	before := stateOf(t, mem)
	if err := mem.AppendData(add); err != nil {
		t.Fatal(err)
	}
	after := stateOf(t, mem)
	s, f, err := reopen(base)
	if err != nil {
		t.Fatal(err)
	}
	s.opts.Threads = 2
	if n, err := s.AppendFrom(bytes.NewReader(add)); err != nil || n != int64(len(add)) {
		t.Fatalf("AppendFrom: %d, %v", n, err)
	}
	if !stateOf(t, s).equal(after) {
		t.Fatal("state after AppendFrom differs")
	}
	r, _, err := reopen(f.Bytes())
	if err != nil || !stateOf(t, r).equal(after) {
		t.Fatalf("reopened after AppendFrom differs (%v)", err)
	}
	writes := f.Log()
	if len(writes) < 5 {
		t.Fatalf("only %d writes: the stream was not written in pieces", len(writes))
	}
	for k, w := range writes {
		for keep := 0; keep <= w.Len; keep += max(1, w.Len/50) {
			ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
			s, err := OpenFrameFile(ff)
			if err != nil {
				t.Fatal(err)
			}
			s.opts.Threads = 2
			if _, err := s.AppendFrom(bytes.NewReader(add)); err == nil {
				t.Fatalf("write %d torn at %d: no error", k, keep)
			}
			checkBeforeOrAfter(t, fmt.Sprintf("write %d torn at %d", k, keep), ff.Bytes(), before, after)
		}
	}
	// A reader failing half-way leaves the frame as it was.
	ff := faultfile.New(base, faultfile.NoFault)
	s2, _ := OpenFrameFile(ff)
	boom := errors.New("boom")
	_, err = s2.AppendFrom(io.MultiReader(bytes.NewReader(add[:3000]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Fatalf("AppendFrom with a failing reader: %v", err)
	}
	if err := s2.AppendData([]byte("x")); err == nil {
		t.Error("a super-chunk whose change failed accepted another")
	}
	r2, _, err := reopen(ff.Bytes())
	if err != nil || !stateOf(t, r2).equal(before) {
		t.Fatalf("after a failed AppendFrom the file is not as before (%v)", err)
	}
}
