package bitshuffle

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
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
		// Buffers are made by the first sub-benchmark that runs, so a
		// filtered run does not pay for the 64 MiB ones.
		var src, dst []byte
		setup := func() {
			if src != nil {
				return
			}
			src, dst = make([]byte, size.n), make([]byte, size.n)
			rng := rand.New(rand.NewPCG(1, 1))
			for i := 0; i+8 <= len(src); i += 8 {
				binary.LittleEndian.PutUint64(src[i:], rng.Uint64())
			}
			copy(dst, src) // fault the pages in outside the timed loop
		}
		b.Run(fmt.Sprintf("kernel=memcpy/size=%s", size.name), func(b *testing.B) {
			setup()
			b.SetBytes(int64(size.n))
			b.ReportAllocs()
			done := cputime.Throughput(b, size.n)
			for b.Loop() {
				copy(dst, src)
			}
			done()
		})
		for _, k := range usable {
			for _, ts := range benchTypesizes {
				b.Run(fmt.Sprintf("kernel=%s/ts=%d/size=%s", k, ts, size.name), func(b *testing.B) {
					setup()
					b.SetBytes(int64(size.n))
					b.ReportAllocs()
					done := cputime.Throughput(b, size.n)
					for b.Loop() {
						if inverse {
							unshuffleWith(k, dst, src, ts)
						} else {
							shuffleWith(k, dst, src, ts)
						}
					}
					done()
				})
			}
		}
	}
}

func BenchmarkShuffleKernels(b *testing.B)   { benchKernels(b, false) }
func BenchmarkUnshuffleKernels(b *testing.B) { benchKernels(b, true) }
