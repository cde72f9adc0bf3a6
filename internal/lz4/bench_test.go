package lz4

import (
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/lz4test"
	pierrec "github.com/pierrec/lz4/v4"
)

// shuffled8 returns linspace_f64 of n bytes with its bytes grouped by
// position in the 8-byte element, as a ts=8 byte-shuffled Blosc block
// holds it: the streams c-blosc hands to LZ4.
func shuffled8(b *testing.B, n int) []byte {
	p, err := golden.Pattern("linspace_f64", n)
	if err != nil {
		b.Fatal(err)
	}
	return golden.Shuffled(p, 8)
}

func BenchmarkCompressBlock(b *testing.B) {
	for _, n := range []int{512, 4 << 10, 64 << 10, 1 << 20} {
		for _, data := range []struct {
			name string
			src  []byte
		}{{"shuffled_f64", shuffled8(b, n)}, {"text", lz4test.Must(golden.Pattern("text", n))}} {
			dst := make([]byte, CompressBlockBound(n))
			name := fmt.Sprintf("n=%s/%s", lz4test.Size(n), data.name)
			b.Run(name+"/memcpy", func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					copy(dst, data.src)
				}
			})
			b.Run(name+"/pierrec", func(b *testing.B) {
				c := pierrec.CompressorCCompat{Acceleration: 5}
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					c.CompressBlock(data.src, dst)
				}
			})
			b.Run(name+"/ours", func(b *testing.B) {
				var c Compressor
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					c.CompressBlock(dst, data.src, 5)
				}
			})
		}
	}
}

// BenchmarkBloscStreams compresses the four streams of an f32_noise block
// byte-shuffled at typesize 4, each into a dst of its own length at
// acceleration 5, as c-blosc's LZ4 codec at level 5 does: the per-stream
// cost of a 4 KiB chunk (1 KiB streams, the byU16 table), and of the 512
// KiB blocks of a large chunk at that level (128 KiB streams, byU32).
func BenchmarkBloscStreams(b *testing.B) {
	const ts = 4
	for _, n := range []int{4 << 10, 512 << 10} {
		p := lz4test.Must(golden.Pattern("f32_noise", n))
		m := n / ts
		dst := make([]byte, m)
		var c Compressor
		for k := range ts {
			stream := make([]byte, m)
			for i := range m {
				stream[i] = p[ts*i+k]
			}
			name := fmt.Sprintf("f32_noise/stream=%d", k)
			if n != 4<<10 {
				name = fmt.Sprintf("f32_noise/n=%s/stream=%d", lz4test.Size(n), k)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(m))
				b.ReportAllocs()
				var got int
				for b.Loop() {
					got = c.CompressBlock(dst, stream, 5)
				}
				b.ReportMetric(float64(got), "out-bytes")
			})
		}
	}
}

// BenchmarkBloscStreamsVaried compresses the four streams of one of 64
// different 4 KiB f32_noise blocks per iteration, in turn, so that the
// branch predictor cannot learn one block's branches by heart as it can
// when BloscStreams repeats the same stream.
func BenchmarkBloscStreamsVaried(b *testing.B) {
	const n, ts, blocks = 4 << 10, 4, 64
	p := lz4test.Must(golden.Pattern("f32_noise", n*blocks))
	m := n / ts
	streams := make([][]byte, blocks*ts)
	for j := range blocks {
		for k := range ts {
			s := make([]byte, m)
			for i := range m {
				s[i] = p[j*n+ts*i+k]
			}
			streams[j*ts+k] = s
		}
	}
	dst := make([]byte, m)
	var c Compressor
	b.SetBytes(n)
	b.ReportAllocs()
	j := 0
	for b.Loop() {
		for _, s := range streams[j*ts : (j+1)*ts] {
			c.CompressBlock(dst, s, 5)
		}
		j = (j + 1) % blocks
	}
}

// BenchmarkCompressBlockHC compresses 256 KiB Blosc-shaped streams (the
// patterns byte-shuffled at their typesize) at the levels c-blosc passes
// most, and reports the best time: the Go side of bench/crosscheck/lz4's BenchmarkHCVersusC, for
// profiles without cgo in them.
func BenchmarkCompressBlockHC(b *testing.B) {
	const n = 256 << 10
	for _, set := range []struct {
		name string
		ts   int
	}{{"linspace_f64", 8}, {"f32_noise", 4}, {"text", 1}, {"arange_i16", 2}, {"runs", 4}} {
		src := golden.Shuffled(lz4test.Must(golden.Pattern(set.name, n)), set.ts)
		for _, level := range []int{1, 5, 9} {
			b.Run(fmt.Sprintf("%s/level=%d", set.name, level), func(b *testing.B) {
				var c HCCompressor
				dst := make([]byte, CompressBlockBound(n))
				b.SetBytes(n)
				b.ReportAllocs()
				best := time.Duration(1 << 62)
				for b.Loop() {
					t0 := time.Now()
					c.CompressBlockHC(dst, src, level)
					best = min(best, time.Since(t0))
				}
				// On a shared machine the best run is the steadiest figure.
				b.ReportMetric(float64(best.Nanoseconds()), "best-ns")
			})
		}
	}
}

// BenchmarkDecompressBlock decodes the blocks Compressor writes at
// acceleration 5, as c-blosc's LZ4 codec does, for the byte-shuffled
// streams of one f32_noise and one linspace_f64 block, with the assembly
// loop, the portable one and pierrec/lz4, beside a memcpy of the output.
// bench/crosscheck/lz4 compares the same with liblz4.
func BenchmarkDecompressBlock(b *testing.B) {
	for _, set := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}} {
		for _, n := range []int{64 << 10, 512 << 10} {
			p := golden.Shuffled(lz4test.Must(golden.Pattern(set.name, n)), set.ts)
			m := n / set.ts
			var c Compressor
			var comp [][]byte
			total := 0
			for k := range set.ts {
				d := make([]byte, CompressBlockBound(m))
				if l := c.CompressBlock(d, p[k*m:(k+1)*m], 5); l > 0 && l < m {
					comp = append(comp, d[:l])
					total += m
				}
			}
			dst := make([]byte, m)
			name := fmt.Sprintf("%s/n=%s", set.name, lz4test.Size(n))
			b.Run(name+"/memcpy", func(b *testing.B) {
				b.SetBytes(int64(total))
				for b.Loop() {
					for range comp {
						copy(dst, p[:m])
					}
				}
			})
			for _, dec := range []struct {
				name   string
				decode func([]byte, []byte) (int, error)
			}{
				{"asm", func(d, s []byte) (int, error) { return decode(d, s, nil, haveDecodeAsm) }},
				{"portable", func(d, s []byte) (int, error) { return decode(d, s, nil, false) }},
				{"pierrec", func(d, s []byte) (int, error) { return pierrec.UncompressBlock(s, d) }},
			} {
				b.Run(name+"/"+dec.name, func(b *testing.B) {
					b.SetBytes(int64(total))
					b.ReportAllocs()
					for b.Loop() {
						for _, s := range comp {
							if k, err := dec.decode(dst, s); k != m || err != nil {
								b.Fatalf("decoded %d bytes of %d: %v", k, m, err)
							}
						}
					}
				})
			}
		}
	}
}
