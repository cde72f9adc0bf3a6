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

// BenchmarkShuffleLargeTypesizes covers every typesize 2..16 on 64 MiB,
// where the AVX-512 shuffle uses its non-temporal kernels (the shifted ones
// whenever the streams do not start on 64-byte lines), each row after a
// memcpy row of its own: memory bandwidth drifts too much between rows
// minutes apart on a shared machine for one memcpy row to serve them all.
func BenchmarkShuffleLargeTypesizes(b *testing.B) {
	const size = 64 << 20
	for _, k := range cpu.Kernels("shuffle") {
		if !k.Available() || k.Level != cpu.AVX512 {
			continue
		}
		for ts := 2; ts <= 16; ts++ {
			b.Run(fmt.Sprintf("ts=%d/kernel=memcpy", ts), func(b *testing.B) {
				dst, src := benchBuffers(size)
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					copy(dst, src)
				}
			})
			b.Run(fmt.Sprintf("ts=%d/kernel=%s", ts, k.Name()), func(b *testing.B) {
				dst, src := benchBuffers(size)
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					k.Shuffle(dst, src, ts)
				}
			})
		}
	}
}
