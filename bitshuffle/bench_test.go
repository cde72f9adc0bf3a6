package bitshuffle

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var benchSizes = []struct {
	name string
	n    int
}{{"4KiB", 4 << 10}, {"256KiB", 256 << 10}, {"64MiB", 64 << 20}}

var benchTypesizes = []int{1, 2, 4, 8, 16, 3, 7, 12}

// benchKernels runs every usable kernel over every typesize and size, with a
// memcpy row per size as the physical limit of the same run.
func benchKernels(b *testing.B, inverse bool) {
	usable, _ := usableKernels()
	for _, size := range benchSizes {
		src := make([]byte, size.n)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		dst := make([]byte, size.n)
		b.Run(fmt.Sprintf("kernel=memcpy/size=%s", size.name), func(b *testing.B) {
			b.SetBytes(int64(size.n))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		for _, k := range usable {
			for _, ts := range benchTypesizes {
				b.Run(fmt.Sprintf("kernel=%s/ts=%d/size=%s", k, ts, size.name), func(b *testing.B) {
					b.SetBytes(int64(size.n))
					b.ReportAllocs()
					for b.Loop() {
						if inverse {
							unshuffleWith(k, dst, src, ts)
						} else {
							shuffleWith(k, dst, src, ts)
						}
					}
				})
			}
		}
	}
}

func BenchmarkShuffleKernels(b *testing.B)   { benchKernels(b, false) }
func BenchmarkUnshuffleKernels(b *testing.B) { benchKernels(b, true) }
