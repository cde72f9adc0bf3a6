package zstdenc

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
)

func BenchmarkEncode(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"arange_i64", 8}} {
		src := golden.Shuffled(golden.MustPattern(b, s.name, 256<<10), s.ts)
		for _, lvl := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
				dst := e.Encode(nil, src, lvl)
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					dst = e.Encode(dst[:0], src, lvl)
				}
				done()
			})
		}
	}
}

// BenchmarkEncodePlanes encodes what c-blosc2 hands zstd at clevels 1-5
// with byte shuffle: one frame per byte plane of 32 KiB (libzstd levels
// 1 and 3, clevels 1-2; level 5, clevel 3) or 64 KiB (levels 7 and 9,
// clevels 4-5).
func BenchmarkEncodePlanes(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"runs", 4}, {"sensor_f32", 4}, {"timestamps_i64", 8}} {
		for _, lvl := range []int{1, 3, 5, 7, 9} {
			pl := 32 << 10
			if lvl >= 7 {
				pl = 64 << 10
			}
			src := golden.Shuffled(golden.MustPattern(b, s.name, pl*s.ts), s.ts)
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
				dst := e.Encode(nil, src, lvl)
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					for p := 0; p < s.ts; p++ {
						dst = e.Encode(dst[:0], src[p*pl:(p+1)*pl], lvl)
					}
				}
				done()
			})
		}
	}
}

// BenchmarkEncodeChunkPlanes encodes every byte plane of a 1 MiB chunk
// as c-blosc2 cuts it at clevels 1-2 (blocks of typesize planes of 32
// KiB, each shuffled; libzstd levels 1 and 3): the chunk's later blocks
// differ from its first (f32_noise's mantissa planes, timestamps'
// gaps), which is what BenchmarkEncodePlanes sees.
func BenchmarkEncodeChunkPlanes(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"text", 1}, {"runs", 4}} {
		const pl = 32 << 10
		in := golden.MustPattern(b, s.name, 1<<20)
		var src []byte
		for off := 0; off+pl*s.ts <= len(in); off += pl * s.ts {
			src = append(src, golden.Shuffled(in[off:off+pl*s.ts], s.ts)...)
		}
		for _, lvl := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
				dst := e.Encode(nil, src[:pl], lvl)
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					for p := 0; p < len(src); p += pl {
						dst = e.Encode(dst[:0], src[p:p+pl], lvl)
					}
				}
				done()
			})
		}
	}
}

// BenchmarkEntropy times the entropy stage alone (compressBlock: literals,
// sequence codes, table choice, bit streams) on the sequences the level 1
// and 3 finders leave for the byte planes BenchmarkEncodePlanes encodes.
func BenchmarkEntropy(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"f32_noise", 4}, {"linspace_f64", 8}, {"text", 1}, {"sensor_f32", 4}, {"timestamps_i64", 8}} {
		for _, lvl := range []int{1, 3} {
			const pl = 32 << 10
			src := golden.Shuffled(golden.MustPattern(b, s.name, pl*s.ts), s.ts)
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
				var seqs [][]seq
				var lits [][]byte
				for p := 0; p < s.ts; p++ {
					plane := src[p*pl : (p+1)*pl]
					e.Encode(nil, plane, lvl)
					e.seqs, e.lits = e.seqs[:0], e.lits[:0]
					e.reset(len(plane))
					if e.strategy == stratFast {
						e.fast(plane, 0, len(plane))
					} else {
						e.dfast(plane, 0, len(plane))
					}
					seqs = append(seqs, append([]seq(nil), e.seqs...))
					lits = append(lits, append([]byte(nil), e.lits...))
				}
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					for p := range seqs {
						e.rep = [3]uint32{1, 4, 8}
						e.hufValid = false
						e.fse.valid = [3]bool{}
						e.seqs = append(e.seqs[:0], seqs[p]...)
						e.lits = append(e.lits[:0], lits[p]...)
						e.compressBlock()
					}
				}
				done()
			})
		}
	}
}

// BenchmarkEncodeSmallPlanes encodes the byte planes of 32 KiB blocks,
// as c-blosc2 hands zstd a python-blosc2 b2nd array's 64x64 float64
// blocks at clevels 1-5: frames of 4 KiB (8-byte items) or 8 KiB
// (4-byte), where the per-frame work (tables reset, Huffman and FSE
// tables built and described) weighs as much as the search.
func BenchmarkEncodeSmallPlanes(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   int
	}{{"linspace_f64", 8}, {"f32_noise", 4}, {"sensor_f32", 4}, {"timestamps_i64", 8}} {
		for _, lvl := range []int{1, 3, 5} {
			const bs = 32 << 10
			pl := bs / s.ts
			raw := golden.MustPattern(b, s.name, 8*bs)
			var src []byte
			for off := 0; off < len(raw); off += bs {
				src = append(src, golden.Shuffled(raw[off:off+bs], s.ts)...)
			}
			b.Run(fmt.Sprintf("%s/l%d", s.name, lvl), func(b *testing.B) {
				var e Encoder
				dst := e.Encode(nil, src[:pl], lvl)
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					for off := 0; off < len(src); off += bs {
						blk := src[off : off+bs]
						for p := 0; p < s.ts; p++ {
							dst = e.Encode(dst[:0], blk[p*pl:(p+1)*pl], lvl)
						}
					}
				}
				done()
			})
		}
	}
}

// BenchmarkFSEBuild times fseCTable.build on tables of the sizes the
// sequences' codes get (logs 6 and 9), with and without low-probability
// symbols.
func BenchmarkFSEBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		log  int
		low  bool
	}{{"log6", 6, false}, {"log9", 9, false}, {"log9low", 9, true}} {
		var count [64]uint32
		total := 0
		for s := 0; s < 36; s++ {
			count[s] = uint32(4000 >> (s / 3))
			if c.low && s%5 == 4 {
				count[s] = 1
			}
			total += int(count[s])
		}
		norm := make([]int16, 36)
		normalizeCount(norm, uint(c.log), count[:], total, 35, false)
		b.Run(c.name, func(b *testing.B) {
			var t fseCTable
			for b.Loop() {
				t.build(norm, uint8(c.log))
			}
		})
	}
}

// BenchmarkHuffBuild times huffBuilder.build on the literal counts of a
// text plane and of a noisy one (all 256 symbols, counts about equal).
func BenchmarkHuffBuild(b *testing.B) {
	for _, name := range []string{"text", "f32_noise"} {
		src := golden.Shuffled(golden.MustPattern(b, name, 128<<10), 4)[64<<10 : 96<<10]
		var count [256]uint32
		countBytes(&count, src)
		maxSym := 255
		for count[maxSym] == 0 {
			maxSym--
		}
		b.Run(name, func(b *testing.B) {
			var hb huffBuilder
			var t huffCTable
			for b.Loop() {
				hb.build(&t, &count, maxSym, huffMaxLog)
			}
		})
	}
}
