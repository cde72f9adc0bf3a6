//go:build cblosc && cgo

package blosclz_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/bench/internal/cblosc"
	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/blosclztest"
	"github.com/goblosc/blosc/internal/golden"
)

var crossPatterns = []string{"arange_i64", "linspace_f64", "f32_noise", "text", "runs", "rand_s1", "rec12", "zeros", "arange_i16"}

// C's streams, found in chunks c-blosc 1.21 made with BloscLZ, no shuffle
// and typesize 1, decode with blosclz.Decompress, and blosclz.Compress re-creates them
// byte for byte.
func TestCrossCStreams(t *testing.T) {
	t.Logf("c-blosc %s", cblosc.Version())
	streams := 0
	for _, name := range crossPatterns {
		for _, size := range []int{200, 5000, 1 << 16, 1 << 20} {
			src := blosclztest.Shuffled(t, name, size)
			for level := 1; level <= blosclz.MaxLevel; level++ {
				for _, blocksize := range []int{0, size} {
					ch := cChunk(t, src, level, blocksize)
					c, err := blosclztest.ParseChunk(ch, false)
					if err != nil {
						t.Fatalf("%s/%d/l%d: %v", name, size, level, err)
					}
					out, _, err := blosclztest.DecodeChunk(ch, c)
					if err != nil || !bytes.Equal(out, src) {
						t.Fatalf("%s/%d/l%d: decoding C's chunk: %v", name, size, level, err)
					}
					for _, s := range c.Streams {
						in := src[s.Block*c.Blocksize+s.DstStart:][:s.Neblock]
						maxout := min(s.Neblock, size+16-s.Offset)
						dst := make([]byte, s.Neblock)
						n := blosclz.CompressBlock(dst[:maxout], in, level, s.Split)
						raw := int(s.Csize) == s.Neblock
						if raw != (n == 0 || n == s.Neblock) || (!raw && !bytes.Equal(dst[:n], s.Payload)) {
							t.Errorf("%s/%d/l%d block %d: C wrote %d bytes, we %d; first difference at %d",
								name, size, level, s.Block, s.Csize, n, golden.FirstDiff(dst[:n], s.Payload))
						}
						streams++
					}
				}
			}
		}
	}
	t.Logf("%d streams compared", streams)
}

// oneStreamChunk wraps a BloscLZ stream in a Blosc1 chunk of one block
// marked "not split", the form c-blosc decodes with blosclz_decompress.
func oneStreamChunk(stream []byte, nbytes int) []byte {
	ch := make([]byte, 16+4+4+len(stream))
	ch[0], ch[1], ch[2], ch[3] = 2, 1, 0x10, 1
	binary.LittleEndian.PutUint32(ch[4:], uint32(nbytes))
	binary.LittleEndian.PutUint32(ch[8:], uint32(nbytes))
	binary.LittleEndian.PutUint32(ch[12:], uint32(len(ch)))
	binary.LittleEndian.PutUint32(ch[16:], 20)
	binary.LittleEndian.PutUint32(ch[20:], uint32(len(stream)))
	copy(ch[24:], stream)
	return ch
}

// C decodes what blosclz.Compress writes, at every level, split or not.
func TestCrossCDecodesOurs(t *testing.T) {
	checked := 0
	for _, name := range append(crossPatterns, "f32_noise", "rec12") {
		for _, size := range []int{100, 4096, 77777, 1 << 20} {
			src := blosclztest.Shuffled(t, name, size)
			for level := 1; level <= blosclz.MaxLevel; level++ {
				for _, mode := range []string{"split", "unsplit", "2.5.3"} {
					dst := make([]byte, size)
					var n int
					if mode == "2.5.3" {
						n = blosclz.CompressBlosc2(dst, src, level)
					} else {
						n = blosclz.CompressBlock(dst, src, level, mode == "split")
					}
					if n == 0 || n == size {
						continue
					}
					out := make([]byte, size)
					m, err := cblosc.Decompress(out, oneStreamChunk(dst[:n], size), 1)
					if err != nil || m != size || !bytes.Equal(out, src) {
						t.Fatalf("%s/%d/l%d %s: C decoded %d, %v", name, size, level, mode, m, err)
					}
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d streams checked", checked)
	}
}

// Ratios of whole chunks, ours against c-blosc's, on shuffled patterns:
// our chunk is laid out like C's (same blocks, one stream each since the
// typesize is 1) with the streams blosclz.Compress writes.
func TestCrossCRatio(t *testing.T) {
	for _, name := range golden.Names {
		src := blosclztest.Shuffled(t, name, 1<<20)
		for level := 1; level <= blosclz.MaxLevel; level++ {
			ch := cChunk(t, src, level, len(src))
			c, err := blosclztest.ParseChunk(ch, false)
			if err != nil || c.Blocksize <= 0 {
				t.Fatalf("%s l%d: %v", name, level, err)
			}
			n := 16
			dst := make([]byte, c.Blocksize)
			for start := 0; start < len(src); start += c.Blocksize {
				blk := src[start:min(len(src), start+c.Blocksize)]
				m := blosclz.CompressBlock(dst[:len(blk)], blk, level, c.Flags&0x10 == 0)
				if m == 0 {
					m = len(blk)
				}
				n += 8 + m
			}
			n = min(n, 16+len(src)) // stored as a memcpyed chunk instead
			if d := float64(n-len(ch)) / float64(len(ch)); d > 0.02 || d < -0.02 {
				t.Errorf("%s l%d: %d bytes, C %d", name, level, n, len(ch))
			}
			if level == 5 {
				t.Logf("%-12s l5: ratio %.3f, C %.3f", name, float64(len(src))/float64(n), float64(len(src))/float64(len(ch)))
			}
		}
	}
}

// Damaged streams: C's decoder and ours agree on which decode to the full
// size, and on the bytes when they do.
func TestCrossCDamagedStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	agreed, accepted := 0, 0
	for _, name := range []string{"text", "linspace_f64", "f32_noise", "runs", "rec12", "arange_i16"} {
		src := blosclztest.Shuffled(t, name, 3000)
		comp := make([]byte, len(src))
		n := blosclz.Compress(comp, src, 5)
		if n == 0 {
			continue
		}
		for i := 0; i < 400; i++ {
			s := append([]byte(nil), comp[:n]...)
			switch i % 4 {
			case 0:
				s[rng.IntN(len(s))] ^= byte(1 << rng.IntN(8))
			case 1:
				s[rng.IntN(len(s))] = byte(rng.Uint32())
			case 2:
				s = s[:1+rng.IntN(len(s))]
			default:
				s[1+rng.IntN(len(s)-1)] = 0xFF
			}
			size := len(src) + rng.IntN(3) - 1
			if len(s) >= size {
				continue // C would take the stream as raw
			}
			want := make([]byte, size)
			_, cerr := cblosc.Decompress(want, oneStreamChunk(s, size), 1)
			got := make([]byte, size)
			m, err := blosclz.Decompress(got, s)
			ok := err == nil && m == size
			if ok != (cerr == nil) || (ok && !bytes.Equal(got, want)) {
				t.Fatalf("%s case %d: ours %d, %v; C %v", name, i, m, err, cerr)
			}
			agreed++
			if ok {
				accepted++
			}
		}
	}
	t.Logf("%d damaged streams, %d accepted by both", agreed, accepted)
	if agreed < 1000 {
		t.Errorf("only %d streams compared", agreed)
	}
}

// FuzzCrossCDecompress: on any stream, C and blosclz.Decompress agree on whether it
// decodes to exactly size bytes, and on those bytes.
func FuzzCrossCDecompress(f *testing.F) {
	blosclztest.SeedStreams(f)
	f.Fuzz(func(t *testing.T, s []byte, size uint16) {
		if len(s) == 0 || len(s) >= int(size) {
			return // empty, or what C would take as a raw stream
		}
		want := make([]byte, size)
		_, cerr := cblosc.Decompress(want, oneStreamChunk(s, int(size)), 1)
		got := make([]byte, size)
		m, err := blosclz.Decompress(got, s)
		ok := err == nil && m == int(size)
		if ok != (cerr == nil) || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("ours %d, %v; C %v", m, err, cerr)
		}
	})
}

// fuzzEncoder is one Encoder for every input FuzzCrossCCompress gives a
// worker, so that each input meets a table the previous ones used.
var fuzzEncoder blosclz.Encoder

// FuzzCrossCCompress: on any input and level, c-blosc 1.21's chunk (BloscLZ,
// no shuffle, typesize 1, one block or its own blocks) holds exactly the
// streams one reused Encoder writes for the same bytes, and stores raw the
// blocks it gives up on.
func FuzzCrossCCompress(f *testing.F) {
	for i, name := range crossPatterns {
		f.Add(golden.MustPattern(f, name, 300+997*i), uint8(i), false)
		f.Add(blosclztest.Shuffled(f, name, 5000+i), uint8(i+5), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, lv uint8, whole bool) {
		if len(src) == 0 || len(src) > 1<<18 {
			return
		}
		level := 1 + int(lv)%blosclz.MaxLevel
		blocksize := 0
		if whole {
			blocksize = len(src)
		}
		ch := cChunk(t, src, level, blocksize)
		c, err := blosclztest.ParseChunk(ch, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Streams {
			in := src[s.Block*c.Blocksize+s.DstStart:][:s.Neblock]
			maxout := min(s.Neblock, len(src)+16-s.Offset)
			dst := make([]byte, s.Neblock)
			n := fuzzEncoder.CompressBlock(dst[:maxout], in, level, s.Split)
			raw := int(s.Csize) == s.Neblock
			if raw != (n == 0 || n == s.Neblock) || (!raw && !bytes.Equal(dst[:n], s.Payload)) {
				t.Fatalf("level %d, block %d of %d bytes: C wrote %d bytes, we %d; first difference at %d",
					level, s.Block, s.Neblock, s.Csize, n, golden.FirstDiff(dst[:n], s.Payload))
			}
		}
	})
}
