package blosc

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/goblosc/blosc/internal/golden"
)

// at returns n bytes of b starting off bytes past a 64-byte boundary.
func at(b []byte, off, n int) []byte {
	mis := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
	s := (64 - mis) & 63
	return b[s+off : s+off+n]
}

func TestCopyOut(t *testing.T) {
	src := golden.MustPattern(t, "rand_s1", 3<<20+200)
	buf := make([]byte, len(src)+128)
	for _, n := range []int{0, 1, 4095, memmoveNTMin - 1, memmoveNTMin, memmoveNTMin + 1,
		copyPiece*3 + 7, 3<<20 + 5} {
		for _, off := range []int{0, 1, 8, 33} {
			for _, bypass := range []bool{false, true} {
				clear(buf)
				dst := at(buf, off, n)
				s := src[off : off+n]
				if got := copyOut(dst, s, bypass); got != n {
					t.Fatalf("n=%d off=%d bypass=%v: copied %d", n, off, bypass, got)
				}
				if !bytes.Equal(dst, s) {
					t.Fatalf("n=%d off=%d bypass=%v: bytes differ", n, off, bypass)
				}
				// Nothing outside dst is written.
				whole := at(buf, 0, len(buf)-64)
				for i, c := range whole[:off] {
					if c != 0 {
						t.Fatalf("n=%d off=%d: byte %d before dst written", n, off, i)
					}
				}
				for i, c := range whole[off+n:] {
					if c != 0 {
						t.Fatalf("n=%d off=%d: byte %d after dst written", n, off, off+n+i)
					}
				}
			}
		}
	}
	// A shorter dst bounds the copy, as copy's does.
	if got := copyOut(make([]byte, memmoveNTMin+3), src, false); got != memmoveNTMin+3 {
		t.Fatalf("short dst: copied %d", got)
	}
}

// TestMemcpyedChunkUnalignedDst decodes incompressible chunks of the
// sizes whose copy copyOut splits into destinations at every alignment.
func TestMemcpyedChunkUnalignedDst(t *testing.T) {
	for _, n := range []int{memmoveNTMin, 3<<20 + 8} {
		src := golden.MustPattern(t, "rand_s1", n)
		for _, f := range []Format{FormatBlosc1, FormatBlosc2} {
			chunk, err := Compress(nil, src, Options{Format: f, Codec: LZ4, Level: 5, Typesize: 8, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			if h, _ := ReadHeader(chunk); !h.Memcpyed {
				t.Fatalf("%v n=%d: chunk not memcpyed", f, n)
			}
			buf := make([]byte, n+128)
			for _, off := range []int{0, 8, 40} {
				d := &Decompressor{}
				got, err := d.Decompress(at(buf, off, n)[:0], chunk)
				if err != nil || !bytes.Equal(got, src) {
					t.Fatalf("%v n=%d off=%d: %v", f, n, off, err)
				}
				it, err := d.GetItems(at(buf, off, n-8)[:0], chunk, 1, int64(n/8-1))
				if err != nil || !bytes.Equal(it, src[8:]) {
					t.Fatalf("%v n=%d off=%d: GetItem: %v", f, n, off, err)
				}
			}
		}
	}
}

func TestCopyOutZeroAlloc(t *testing.T) {
	src := make([]byte, 2<<20)
	dst := make([]byte, len(src)+8)
	if a := testing.AllocsPerRun(5, func() { copyOut(dst[8:], src, false) }); a != 0 {
		t.Fatalf("%v allocs", a)
	}
}

// BenchmarkMemcpyedChunk decodes an incompressible (memcpyed) chunk into
// a destination at a 64-byte boundary and 8 bytes past one, beside a
// plain copy of the same bytes to the same places. On a shared machine
// compare the best call (best-us), alternating runs of two binaries.
func BenchmarkMemcpyedChunk(b *testing.B) {
	for _, n := range []int{1 << 20, 4 << 20} {
		src := golden.MustPattern(b, "rand_s1", n)
		chunk, err := Compress(nil, src, Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Threads: 1})
		if err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, n+128)
		for _, off := range []int{0, 8} {
			dst := at(buf, off, n)
			b.Run(fmt.Sprintf("n=%s/dstoff=%d/op=copy", sizeLabel(n), off), func(b *testing.B) {
				b.SetBytes(int64(n))
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					copy(dst, chunk[header2Len:])
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(best.Seconds()*1e6, "best-us")
			})
			d := &Decompressor{}
			d.threads = 1
			b.Run(fmt.Sprintf("n=%s/dstoff=%d/op=decompress", sizeLabel(n), off), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					if _, err := d.Decompress(dst[:0], chunk); err != nil {
						b.Fatal(err)
					}
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(best.Seconds()*1e6, "best-us")
			})
		}
	}
}

func sizeLabel(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}
