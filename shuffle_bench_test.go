package blosc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/cputime"
)

var benchSizes = []struct {
	name string
	n    int
}{{"4KiB", 4 << 10}, {"256KiB", 256 << 10}, {"64MiB", 64 << 20}}

var benchTypesizes = []int{2, 3, 4, 7, 8, 12, 16}

// benchBuffers holds one pair of buffers of the largest size, shared by all
// sub-benchmarks so the 64 MiB rows do not allocate per row.
var benchSrc, benchDst []byte

func benchBuffers(n int) (dst, src []byte) {
	if benchSrc == nil {
		benchSrc = make([]byte, 64<<20)
		benchDst = make([]byte, 64<<20)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range benchSrc {
			benchSrc[i] = byte(rng.Uint32() & 0x0f) // compressible-ish, like real data
		}
	}
	return benchDst[:n], benchSrc[:n]
}

func benchKernels(b *testing.B, unshuffle bool) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("kernel=memcpy/size=%s", size.name), func(b *testing.B) {
			dst, src := benchBuffers(size.n)
			b.SetBytes(int64(size.n))
			b.ReportAllocs()
			done := cputime.Throughput(b, size.n)
			for b.Loop() {
				copy(dst, src)
			}
			done()
		})
	}
	for _, k := range cpu.Kernels("shuffle") {
		if !k.Available() {
			continue
		}
		for _, ts := range benchTypesizes {
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("kernel=%s/ts=%d/size=%s", k.Name(), ts, size.name), func(b *testing.B) {
					dst, src := benchBuffers(size.n)
					f := k.Shuffle
					if unshuffle {
						f = k.Unshuffle
					}
					b.SetBytes(int64(size.n))
					b.ReportAllocs()
					done := cputime.Throughput(b, size.n)
					for b.Loop() {
						f(dst, src, ts)
					}
					done()
				})
			}
		}
	}
}

func BenchmarkShuffleKernels(b *testing.B)   { benchKernels(b, false) }
func BenchmarkUnshuffleKernels(b *testing.B) { benchKernels(b, true) }
