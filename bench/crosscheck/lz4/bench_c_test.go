//go:build cblosc2 && cgo

package lz4_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/lz4"
	"github.com/goblosc/blosc/internal/lz4test"
)

// BenchmarkStreamsVersusC compresses the byte-shuffled streams of
// f32_noise blocks with CompressBlock and with C's LZ4_compress_fast,
// alternating the two every iteration, and reports each one's best time
// and their ratio: the codec's share of the Blosc2 f32_noise comparison,
// without the chunk around it. The 512 KiB blocks are those of a 64 MiB
// chunk at level 5 (128 KiB streams), the 4 KiB ones a small chunk's.
func BenchmarkStreamsVersusC(b *testing.B) {
	const ts = 4
	for _, n := range []int{4 << 10, 512 << 10} {
		const blocks = 16
		p := lz4test.Must(golden.Pattern("f32_noise", n*blocks))
		m := n / ts
		var streams [][]byte
		for j := range blocks {
			for k := range ts {
				s := make([]byte, m)
				for i := range m {
					s[i] = p[j*n+ts*i+k]
				}
				streams = append(streams, s)
			}
		}
		b.Run(fmt.Sprintf("f32_noise/n=%s/lz4-%s", lz4test.Size(n), cblosc2.LZ4Version()), func(b *testing.B) {
			var c lz4.Compressor
			gd, cd := make([]byte, m), make([]byte, m)
			for _, s := range streams {
				g, x := c.CompressBlock(gd, s, 5), cblosc2.LZ4CompressFast(cd, s, 5)
				if g != x || !bytes.Equal(gd[:g], cd[:x]) {
					b.Fatalf("Go wrote %d bytes, C %d, or other bytes", g, x)
				}
			}
			bestGo, bestC := time.Duration(1<<62), time.Duration(1<<62)
			for b.Loop() {
				t0 := time.Now()
				for _, s := range streams {
					c.CompressBlock(gd, s, 5)
				}
				t1 := time.Now()
				for _, s := range streams {
					cblosc2.LZ4CompressFast(cd, s, 5)
				}
				t2 := time.Now()
				bestGo, bestC = min(bestGo, t1.Sub(t0)), min(bestC, t2.Sub(t1))
			}
			total := float64(n * blocks)
			b.ReportMetric(total/bestGo.Seconds()/1e9, "go-GB/s")
			b.ReportMetric(total/bestC.Seconds()/1e9, "c-GB/s")
			b.ReportMetric(float64(bestC)/float64(bestGo), "go/c")
		})
	}
}
