package blosc

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
)

// BenchmarkThreadsDefault times the default thread count (Threads 0: every
// core) against Threads 1 on the same chunk, alternating the two call by
// call in one loop so that both see the same machine, and reports each
// one's median call (default-us, one-us) and their ratio (x-one: above 1,
// the default is faster). One iteration is one call of each. On a shared
// machine run it with -benchtime=Nx (N pairs) and take the median of
// x-one over a few runs (docs/threads.md gives the command).
func BenchmarkThreadsDefault(b *testing.B) {
	sizes := []int{4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20}
	for _, n := range sizes {
		if testing.Short() && n > 4<<20 {
			continue
		}
		in := golden.MustPattern(b, "f32_noise", n)
		for _, c := range []Codec{BloscLZ, LZ4, LZ4HC, Zstd} {
			o := withFilter(Options{Format: FormatBlosc2, Codec: c, Level: 5, Typesize: 4}, ByteShuffle)
			one := o
			one.Threads = 1
			def, err := NewCompressor(o)
			if err != nil {
				b.Fatal(err)
			}
			single, err := NewCompressor(one)
			if err != nil {
				b.Fatal(err)
			}
			chunk, err := single.Compress(nil, in)
			if err != nil {
				b.Fatal(err)
			}
			h, _ := ReadHeader(chunk)
			cdst := make([]byte, CompressBound(n))
			ddef, done := &Decompressor{}, &Decompressor{threads: 1}
			out := make([]byte, n)
			name := fmt.Sprintf("n=%s/nblocks=%d/codec=%s", sizeLabel(n), h.Nblocks, c)
			pair(b, name+"/op=compress", n,
				func() { def.Compress(cdst, in) }, func() { single.Compress(cdst, in) })
			pair(b, name+"/op=decompress", n,
				func() { ddef.Decompress(out, chunk) }, func() { done.Decompress(out, chunk) })
		}
	}
}

// pair runs the sub-benchmark name timing def and one alternately.
func pair(b *testing.B, name string, n int, def, one func()) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(2 * n))
		def()
		one()
		var td, to []time.Duration
		i := 0
		for b.Loop() {
			first, second := def, one
			if i%2 == 1 {
				first, second = one, def
			}
			t0 := time.Now()
			first()
			t1 := time.Now()
			second()
			t2 := time.Now()
			if i%2 == 0 {
				td, to = append(td, t1.Sub(t0)), append(to, t2.Sub(t1))
			} else {
				to, td = append(to, t1.Sub(t0)), append(td, t2.Sub(t1))
			}
			i++
		}
		md, mo := median(td), median(to)
		b.ReportMetric(md.Seconds()*1e6, "default-us")
		b.ReportMetric(mo.Seconds()*1e6, "one-us")
		b.ReportMetric(float64(mo)/float64(max(md, 1)), "x-one")
	})
}

func median(ts []time.Duration) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}
