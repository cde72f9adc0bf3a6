package blosc

import (
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/cpu"
)

func TestProbe(t *testing.T) {
	const n = 256 << 10
	srcB := make([]byte, n+8192)
	dstB := make([]byte, n+8192)
	for i := range srcB {
		srcB[i] = byte(i*7 + i>>9)
	}
	var k cpu.Kernel
	for _, kk := range cpu.Kernels("shuffle") {
		if kk.Name() == "avx512" {
			k = kk
		}
	}
	tm := func(f func()) float64 {
		f()
		best := time.Hour
		for r := 0; r < 200; r++ {
			s := time.Now()
			for i := 0; i < 10; i++ {
				f()
			}
			if e := time.Since(s); e < best {
				best = e
			}
		}
		return float64(10*n) / best.Seconds() / 1e9
	}
	for _, do := range []int{0, 64, 256, 1024, 2048, 2048 + 64, 4096 + 512} {
		src := srcB[:n]
		dst := dstB[do : do+n]
		fmt.Printf("do=%5d memcpy %.1f", do, tm(func() { copy(dst, src) }))
		for _, ts := range []int{2, 4, 8, 16} {
			fmt.Printf("  ts%d %.1f/%.1f", ts, tm(func() { k.Shuffle(dst, src, ts) }), tm(func() { k.Unshuffle(src, dst, ts) }))
		}
		fmt.Println()
	}
}
