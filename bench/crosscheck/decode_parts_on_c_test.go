//go:build cblosc2 && cgo && amd64

package crosscheck

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/lz4"
)

// BenchmarkDecodePartsOnC splits the rows of BenchmarkBloscLZDecodeOnC and
// BenchmarkLZ4DecodeOnC into their two parts, so that a row near 1 says
// which part is behind: codec= decodes every compressed stream of C's
// chunk with our decoder and C's (blosclz_decompress, LZ4_decompress_safe),
// unshuffle= undoes the byte shuffle of every block with our kernels and
// c-blosc2's unshuffle_avx2 (the one its decoder calls here). Streams
// stored raw, runs and zeros are left out: they are copies and fills.
// cpu-go-on-c/c is C's thread CPU time over ours, as in the whole rows.
func BenchmarkDecodePartsOnC(b *testing.B) {
	const n = 1 << 20
	for _, codec := range []blosc.Codec{blosc.BloscLZ, blosc.LZ4} {
		for _, s := range zstdChunkSets() {
			for level := 1; level <= 9; level++ {
				in := golden.MustPattern(b, s.name, n)
				o := blosc.Options{Format: blosc.FormatBlosc2, Codec: codec, Level: level, Typesize: s.ts,
					Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				name := fmt.Sprintf("%v/%s/clevel=%d", codec, s.name, level)
				var streams []cStream
				var blocks, bsize int
				load := func(b *testing.B) {
					if bsize == 0 {
						streams, bsize, blocks = chunkStreams(b, compressC(b, in, o))
					}
				}
				b.Run(name+"/codec", func(b *testing.B) {
					load(b)
					// Like both decoders, into one block's scratch buffer.
					out := make([]byte, bsize)
					goDec := func(dst, src []byte) int { k, _ := blosclz.Decompress(dst, src); return k }
					cDec := cblosc2.BloscLZDecompress
					if codec == blosc.LZ4 {
						goDec = func(dst, src []byte) int { k, _ := lz4.DecompressBlock(dst, src); return k }
						cDec = cblosc2.LZ4DecompressSafe
					}
					for _, st := range streams {
						if g, c := goDec(out[st.off:st.off+st.n], st.src), cDec(out[st.off:st.off+st.n], st.src); g != st.n || c != st.n {
							b.Fatalf("a stream decoded to %d bytes (Go) and %d (C), want %d", g, c, st.n)
						}
					}
					timeParts(b, func() {
						for _, st := range streams {
							goDec(out[st.off:st.off+st.n], st.src)
						}
					}, func() {
						for _, st := range streams {
							cDec(out[st.off:st.off+st.n], st.src)
						}
					})
				})
				b.Run(name+"/unshuffle", func(b *testing.B) {
					load(b)
					if blocks == 0 {
						b.Skip("no shuffled blocks")
					}
					// Like both decoders, from one block's scratch buffer
					// into the output.
					src, dst := golden.MustPattern(b, "rand_s1", bsize), make([]byte, n)
					timeParts(b, func() {
						for i := 0; i < n; i += bsize {
							blosc.Unshuffle(dst[i:i+bsize], src, s.ts)
						}
					}, func() {
						for i := 0; i < n; i += bsize {
							cblosc2.UnshuffleAVX2(dst[i:i+bsize], src, s.ts)
						}
					})
				})
			}
		}
	}
}

// cStream is one compressed stream of a chunk and its decoded size.
type cStream struct {
	src    []byte
	off, n int // where it decodes to in the block
}

// chunkStreams returns the compressed streams of Blosc2 chunk c, its
// block size, and how many blocks it has when they are all whole and
// split (0 otherwise).
func chunkStreams(tb testing.TB, c []byte) ([]cStream, int, int) {
	h, err := blosc.ReadHeader(c)
	if err != nil {
		tb.Fatal(err)
	}
	if h.Memcpyed {
		return nil, h.Blocksize, 0
	}
	nblocks, split := h.Nblocks, h.Split
	var out []cStream
	for i := 0; i < nblocks; i++ {
		p := int(binary.LittleEndian.Uint32(c[h.HeaderLen+4*i:]))
		bsize := min(h.Blocksize, h.Nbytes-i*h.Blocksize)
		ns := 1
		if split && bsize == h.Blocksize {
			ns = h.Typesize
		}
		for j := 0; j < ns; j++ {
			cs := int(int32(binary.LittleEndian.Uint32(c[p:])))
			switch {
			case cs <= 0:
				p += 4
				if cs < 0 {
					p++
				}
			default:
				if cs != bsize/ns {
					out = append(out, cStream{c[p+4 : p+4+cs], j * (bsize / ns), bsize / ns})
				}
				p += 4 + cs
			}
		}
	}
	if !split || h.Nbytes%h.Blocksize != 0 {
		nblocks = 0
	}
	return out, h.Blocksize, nblocks
}

// timeParts runs goF and cF alternately and reports C's best thread CPU
// time over Go's.
func timeParts(b *testing.B, goF, cF func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpuGo, cpuC := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		for range 4 {
			c0, _ := cputime.Thread()
			goF()
			c1, _ := cputime.Thread()
			cF()
			c2, _ := cputime.Thread()
			cpuGo, cpuC = min(cpuGo, c1-c0), min(cpuC, c2-c1)
		}
	}
	if cpuGo > 0 && cpuC > 0 {
		b.ReportMetric(float64(cpuC)/float64(cpuGo), "cpu-go-on-c/c")
		b.ReportMetric(float64(cpuGo.Nanoseconds())/1e3, "go-us")
	}
}
