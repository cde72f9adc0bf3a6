package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"testing/iotest"
	"time"

	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/golden"
)

// TestFrameWriter: a stream written in pieces of any size makes the same
// frame bytes as AppendData of the whole, at any thread count.
func TestFrameWriter(t *testing.T) {
	data := golden.MustPattern(t, "linspace_f64", 3<<20+1000)
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
				want, _ := mem.AppendFrame(nil)
				// newWriter is a FrameWriter into a new file, with the
				// metalayer mem has.
				newWriter := func() (*faultfile.File, *FrameWriter) {
					f := faultfile.New(nil, faultfile.NoFault)
					w, err := NewFrameWriter(f, o)
					if err != nil {
						t.Fatal(err)
					}
					if err := w.SChunk().AddMetalayer("m", []byte("meta")); err != nil {
						t.Fatal(err)
					}
					return f, w
				}
				f, w := newWriter()
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
				// io.Copy takes ReadFrom, which reads straight into the
				// batch buffers: the same bytes again.
				f2, w2 := newWriter()
				if n, err := io.Copy(w2, &pieces{data: data, rng: rng}); err != nil || n != int64(len(data)) {
					t.Fatalf("io.Copy: %d, %v", n, err)
				}
				if err := w2.Close(); err != nil {
					t.Fatal(err)
				}
				if got := f2.Bytes(); !bytes.Equal(got, want) {
					t.Fatalf("frame streamed by ReadFrom, %d bytes, differs from AppendData's %d", len(got), len(want))
				}
				// Whole units of a large Write are compressed where they
				// lie; Write keeps none of its argument, which may change
				// as soon as it returns.
				f3, w3 := newWriter()
				rest := data
				for _, k := range []int{100, len(data) / 2, len(data)} { // off a unit's start, then whole units
					p := bytes.Clone(rest[:min(k, len(rest))])
					if n, err := w3.Write(p); err != nil || n != len(p) {
						t.Fatalf("Write: %d, %v", n, err)
					}
					rest = rest[len(p):]
					clear(p)
				}
				if err := w3.Close(); err != nil {
					t.Fatal(err)
				}
				if got := f3.Bytes(); !bytes.Equal(got, want) {
					t.Fatalf("frame of large writes, %d bytes, differs from AppendData's %d", len(got), len(want))
				}
			})
		}
	}
}

// pieces yields data in reads of random sizes and is not an io.WriterTo,
// so io.Copy uses the destination's ReadFrom.
type pieces struct {
	data []byte
	rng  *rand.Rand
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(b), len(p.data), p.rng.IntN(200000)+1)
	copy(b, p.data[:k])
	p.data = p.data[k:]
	return k, nil
}

// TestFrameWriterFailingWrite: a write that fails while a batch is being
// written in the background is reported, by a later Write, by ReadFrom
// or by Close, for every write of the stream; the destination then holds
// no header, and Close reports the same error again.
func TestFrameWriterFailingWrite(t *testing.T) {
	data := golden.MustPattern(t, "f32_noise", 2<<20+333)
	o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 64 << 10}
	o.Codec, o.Typesize, o.Threads = LZ4, 4, 2
	ref := faultfile.New(nil, faultfile.NoFault)
	w, _ := NewFrameWriter(ref, o)
	if _, err := io.Copy(w, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	writes := ref.Writes()
	if writes < 4 {
		t.Fatalf("only %d writes: the stream was not written in batches", writes)
	}
	for k := range writes {
		for _, useCopy := range []bool{false, true} {
			f := faultfile.New(nil, faultfile.Plan{At: k, Keep: 1})
			w, err := NewFrameWriter(f, o)
			if err != nil {
				t.Fatal(err)
			}
			var werr error
			if useCopy {
				_, werr = io.Copy(w, &pieces{data: data, rng: rand.New(rand.NewPCG(1, uint64(k)))})
			} else {
				for p := data; len(p) > 0 && werr == nil; p = p[min(len(p), 100000):] {
					_, werr = w.Write(p[:min(len(p), 100000)])
				}
			}
			cerr := w.Close()
			if cerr == nil {
				t.Fatalf("write %d failing (copy %v): Close reported no error (Write: %v)", k, useCopy, werr)
			}
			if werr != nil && !errors.Is(cerr, werr) && cerr.Error() != werr.Error() {
				t.Errorf("write %d: Write said %v, Close %v", k, werr, cerr)
			}
			if again := w.Close(); again == nil || again.Error() != cerr.Error() {
				t.Errorf("write %d: a second Close said %v, the first %v", k, again, cerr)
			}
			if _, err := ParseFrame(f.Bytes()); err == nil {
				t.Errorf("write %d failing: the destination holds a frame", k)
			}
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
	if !stateOf(t, s).Equal(after) {
		t.Fatal("state after AppendFrom differs")
	}
	r, _, err := reopen(f.Bytes())
	if err != nil || !stateOf(t, r).Equal(after) {
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
			_, err = s.AppendFrom(bytes.NewReader(add))
			checkCrash(t, fmt.Sprintf("write %d torn at %d", k, keep), err, ff.Bytes(), before, after)
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
	if err != nil || !stateOf(t, r2).Equal(before) {
		t.Fatalf("after a failed AppendFrom the file is not as before (%v)", err)
	}
}

// TestFrameWriterDroppedEndsGoroutines: a FrameWriter dropped without
// Close, mid-stream, does not leave its pipeline's goroutines running.
func TestFrameWriterDroppedEndsGoroutines(t *testing.T) {
	data := golden.MustPattern(t, "f32_noise", 2<<20)
	before := runtime.NumGoroutine()
	func() {
		o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 64 << 10}
		o.Codec, o.Threads = LZ4, 4
		w, err := NewFrameWriter(faultfile.New(nil, faultfile.NoFault), o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data[:1<<20+100]); err != nil {
			t.Fatal(err)
		}
		if runtime.NumGoroutine() < before+5 {
			t.Fatalf("%d goroutines while streaming, from %d: the pipeline did not start", runtime.NumGoroutine(), before)
		}
	}()
	for range 100 {
		runtime.GC()
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d goroutines a second after the FrameWriter was dropped, %d before it", runtime.NumGoroutine(), before)
}
