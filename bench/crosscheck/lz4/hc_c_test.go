//go:build cblosc && cgo

// Package lz4_test holds internal/lz4's encoders to liblz4: byte for byte
// (TestHCVersusC, FuzzHCVersusC under -tags cblosc) and in speed
// (BenchmarkHCVersusC; BenchmarkStreamsVersusC under -tags cblosc2).
package lz4_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/bench/internal/clz4"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/lz4"
	pierrec "github.com/pierrec/lz4/v4"
)

// hcInputs are the patterns, plain and shuffled as Blosc stores them, at
// sizes around LZ4's limits and Blosc's block sizes.
func hcInputs(t testing.TB) map[string][]byte {
	m := map[string][]byte{}
	for _, name := range golden.Names {
		for _, n := range []int{0, 1, 12, 13, 100, 4096, 65536 + 11, 200000} {
			p, err := golden.Pattern(name, n)
			if err != nil {
				t.Fatal(err)
			}
			m[fmt.Sprintf("%s/n=%d", name, n)] = p
			m[fmt.Sprintf("%s/n=%d/shuffle4", name, n)] = golden.Shuffled(p, 4)
		}
	}
	return m
}

// Every level c-blosc passes writes C's bytes, with the room Blosc gives
// (the input's size, limited output) and with the full bound.
func TestHCVersusC(t *testing.T) {
	t.Logf("liblz4 %s", clz4.Version())
	var c lz4.HCCompressor
	for name, src := range hcInputs(t) {
		for level := 1; level <= lz4.MaxHCLevel; level++ {
			if len(src) > 1<<17 && level != 1 && level != 4 && level != 9 {
				continue // slow; its levels' shapes are covered by the smaller inputs
			}
			for _, room := range []int{len(src), lz4.CompressBlockBound(len(src)), len(src) / 2} {
				want := make([]byte, max(room, 1))
				wn := clz4.CompressHC(want, src, level)
				got := make([]byte, max(room, 1))
				gn := c.CompressBlockHC(got, src, level)
				if gn != wn || !bytes.Equal(got[:gn], want[:wn]) {
					i := 0
					for i < min(gn, wn) && got[i] == want[i] {
						i++
					}
					t.Fatalf("%s level %d room %d: %d bytes, C %d; first difference at %d", name, level, room, gn, wn, i)
				}
			}
		}
	}
}

// FuzzHCVersusC holds CompressBlockHC to LZ4_compress_HC on any input,
// level and room, and the block to a round trip.
func FuzzHCVersusC(f *testing.F) {
	for _, s := range []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "abcabcabcabcabcabcabcabcabcabcabcabcabcabc xyz"} {
		f.Add([]byte(s), uint8(9), uint16(100))
	}
	p, _ := golden.Pattern("text", 3000)
	f.Add(p, uint8(5), uint16(3000))
	var c lz4.HCCompressor
	f.Fuzz(func(t *testing.T, src []byte, level uint8, room uint16) {
		lv := int(level%lz4.MaxHCLevel) + 1
		want := make([]byte, int(room)+1)
		wn := clz4.CompressHC(want, src, lv)
		got := make([]byte, int(room)+1)
		gn := c.CompressBlockHC(got, src, lv)
		if gn != wn || !bytes.Equal(got[:gn], want[:wn]) {
			t.Fatalf("level %d room %d: %d bytes, C %d", lv, room, gn, wn)
		}
		if gn > 0 {
			back := make([]byte, len(src))
			if n, err := pierrec.UncompressBlock(got[:gn], back); err != nil || n != len(src) || !bytes.Equal(back, src) {
				t.Fatalf("round trip: %d, %v", n, err)
			}
		}
	})
}

// BenchmarkHCVersusC alternates CompressBlockHC and LZ4_compress_HC on
// Blosc-shaped streams (256 KiB, shuffled) and reports each one's best
// time and the ratio; run with -benchtime=20x or so.
func BenchmarkHCVersusC(b *testing.B) {
	const n = 256 << 10
	for _, set := range []struct {
		name string
		ts   int
	}{{"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}, {"arange_i16", 2}, {"runs", 4}} {
		p, _ := golden.Pattern(set.name, n)
		src := golden.Shuffled(p, set.ts)
		for _, level := range []int{1, 5, 9} {
			b.Run(fmt.Sprintf("%s/level=%d", set.name, level), func(b *testing.B) {
				var c lz4.HCCompressor
				dst := make([]byte, n)
				bestGo, bestC := time.Duration(1<<62), time.Duration(1<<62)
				var size int
				for b.Loop() {
					t0 := time.Now()
					size = c.CompressBlockHC(dst, src, level)
					t1 := time.Now()
					clz4.CompressHC(dst, src, level)
					t2 := time.Now()
					bestGo, bestC = min(bestGo, t1.Sub(t0)), min(bestC, t2.Sub(t1))
				}
				b.ReportMetric(float64(n)/bestGo.Seconds()/1e9, "go-GB/s")
				b.ReportMetric(float64(n)/bestC.Seconds()/1e9, "c-GB/s")
				b.ReportMetric(float64(bestC)/float64(bestGo), "go/c")
				if size > 0 {
					b.ReportMetric(float64(n)/float64(size), "ratio")
				}
			})
		}
	}
}
