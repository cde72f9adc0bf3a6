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
	pierrec "github.com/pierrec/lz4/v4"
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

// BenchmarkDecodeStreamsVersusC decodes the LZ4 blocks liblz4 writes for
// the byte-shuffled streams of f32_noise and linspace_f64 blocks (64 KiB,
// a 64 KiB chunk's one block, and 512 KiB, a 64 MiB chunk's) with the
// decoder internal/codec calls (internal/lz4's DecompressBlock), with
// pierrec/lz4's UncompressBlock, which it replaced, and with
// LZ4_decompress_safe, in turn, and reports each one's best time and the
// ratios go/c and pierrec/c: the codec's share of decoding a Blosc2 LZ4
// chunk.
func BenchmarkDecodeStreamsVersusC(b *testing.B) {
	for _, set := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}} {
		for _, n := range []int{64 << 10, 512 << 10} {
			const blocks = 16
			p := lz4test.Must(golden.Pattern(set.name, n*blocks))
			m := n / set.ts
			var comp [][]byte
			raw := 0
			for j := range blocks {
				for k := range set.ts {
					s := make([]byte, m)
					for i := range m {
						s[i] = p[j*n+set.ts*i+k]
					}
					d := make([]byte, lz4.CompressBlockBound(m))
					if c := cblosc2.LZ4CompressFast(d, s, 5); c > 0 && c < m {
						comp = append(comp, d[:c])
					} else {
						raw++ // Blosc stores such a stream as it is
					}
				}
			}
			b.Run(fmt.Sprintf("%s/n=%s/lz4-%s", set.name, lz4test.Size(n), cblosc2.LZ4Version()), func(b *testing.B) {
				gd, pd, cd := make([]byte, m), make([]byte, m), make([]byte, m)
				for _, c := range comp {
					g, err := lz4.DecompressBlock(gd, c)
					pg, perr := pierrec.UncompressBlock(c, pd)
					x := cblosc2.LZ4DecompressSafe(cd, c)
					if err != nil || perr != nil || g != m || pg != m || x != m || !bytes.Equal(gd, cd) || !bytes.Equal(pd, cd) {
						b.Fatalf("Go decoded %d bytes (%v), pierrec %d (%v), C %d, or other bytes", g, err, pg, perr, x)
					}
				}
				bestGo, bestP, bestC := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
				for b.Loop() {
					t0 := time.Now()
					for _, c := range comp {
						lz4.DecompressBlock(gd, c)
					}
					t1 := time.Now()
					for _, c := range comp {
						pierrec.UncompressBlock(c, pd)
					}
					t2 := time.Now()
					for _, c := range comp {
						cblosc2.LZ4DecompressSafe(cd, c)
					}
					t3 := time.Now()
					bestGo, bestP, bestC = min(bestGo, t1.Sub(t0)), min(bestP, t2.Sub(t1)), min(bestC, t3.Sub(t2))
				}
				total := float64(m * len(comp))
				b.ReportMetric(total/bestGo.Seconds()/1e9, "go-GB/s")
				b.ReportMetric(total/bestP.Seconds()/1e9, "pierrec-GB/s")
				b.ReportMetric(total/bestC.Seconds()/1e9, "c-GB/s")
				b.ReportMetric(float64(bestC)/float64(bestGo), "go/c")
				b.ReportMetric(float64(bestC)/float64(bestP), "pierrec/c")
				b.ReportMetric(float64(raw), "raw-streams")
			})
		}
	}
}
