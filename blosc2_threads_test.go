package blosc

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// A Blosc2 chunk is the same whatever the thread count: blocks compressed
// in parallel are placed as the serial pass would place them, and those
// whose budgets the room left would cut are redone serially.
func TestCompress2ThreadsIdentical(t *testing.T) {
	inputs := map[string][]byte{
		"linspace": golden.MustPattern(t, "linspace_f64", 3<<20+5),
		"f32noise": golden.MustPattern(t, "f32_noise", 2<<20),
		// Nearly incompressible: the last blocks hit the room-left
		// budgets, then the chunk is stored as a copy.
		"mostlyrandom": append(golden.MustPattern(t, "rand_s9", 1<<20), golden.MustPattern(t, "zeros", 40000)...),
		// Every stream a run of zeros: a zeros special chunk.
		"zeros": golden.MustPattern(t, "zeros", 1<<20),
	}
	pipelines := [][MaxFilters]Filter{{5: ByteShuffle}, {Delta, ByteShuffle}, {4: BitShuffle}}
	codecs := []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	if testing.Short() {
		// The race detector's run: one codec still covers every
		// placement path.
		pipelines, codecs = pipelines[:2], []Codec{LZ4}
	}
	for _, c := range codecs {
		for name, in := range inputs {
			for _, fs := range pipelines {
				o := Options{Format: FormatBlosc2, Codec: c, Level: 4, Typesize: 4, Blocksize: 64 << 10, Filters: fs, Threads: 1}
				want, err := Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, th := range []int{2, 3, 8} {
					o.Threads = th
					label := fmt.Sprintf("%s/%s/%v/threads=%d", c, name, fs, th)
					got, err := Compress(nil, in, o)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: chunk differs from threads=1 (%s)", label, golden.ChunkDiff(got, want))
					}
					out, err := (&Decompressor{threads: th}).Decompress(nil, got)
					if err != nil || !bytes.Equal(out, in) {
						t.Fatalf("%s: decode: %v", label, err)
					}
				}
			}
		}
	}
}

// Staged decoding (see stageOutput) gives the input back for every
// pipeline, with groups that end on a short last block, at any thread
// count, and passes a damaged block's error on.
func TestDecompress2Staged(t *testing.T) {
	in := append(golden.MustPattern(t, "linspace_f64", 2<<20), golden.MustPattern(t, "text", 1<<20+24)...)
	pipelines := [][MaxFilters]Filter{{5: ByteShuffle}, {Delta, ByteShuffle}, {4: BitShuffle}, {BitShuffle, ByteShuffle}, {Delta}, {ByteShuffle, Delta}}
	for _, fs := range pipelines {
		for _, bs := range []int{64 << 10, 3000 << 3, 1 << 20, 3 << 19} {
			o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: bs, Filters: fs, Threads: 1}
			chunk, err := Compress(nil, in, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, th := range []int{1, 2, 3} {
				label := fmt.Sprintf("%v/blocksize=%d/threads=%d", fs, bs, th)
				d := &Decompressor{threads: th}
				d.e.stageMin, d.e.parallelMin = 1, 1
				c, _ := openChunk2(chunk)
				if g, staged := c.blockGroups(1); stageOutput && (!staged || g*bs < stageCopyMin) {
					t.Fatalf("%s: groups of %d blocks, staged %v", label, g, staged)
				}
				out, err := d.Decompress(nil, chunk)
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("%s: decode: %v (first difference at %d)", label, err, golden.FirstDiff(out, in))
				}
				// Fill the last codec stream with 0xff: to LZ4 a literal
				// run longer than the stream, found only when its block is
				// decoded, whichever group holds it.
				bad := append([]byte(nil), chunk...)
				if !spoilLastStream(c, bad) {
					t.Fatalf("%s: no codec stream", label)
				}
				if _, err := d.Decompress(out, bad); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: damaged chunk: %v", label, err)
				}
			}
		}
	}
}

// spoilLastStream fills the last codec stream (not a run, zeros or raw
// bytes) of the regular chunk c, read from buf, with 0xff.
func spoilLastStream(c chunk2, buf []byte) bool {
	for i := c.nblocks - 1; i >= 0; i-- {
		p := c.bstart(i)
		ns, ne, _ := c.streams(i)
		last := -1
		for j := 0; j < ns; j++ {
			cs := int(int32(le32(buf[p:])))
			if cs > 0 && cs != ne {
				last = p
			}
			p += 4 + max(cs, 0)
			if cs < 0 {
				p++
			}
		}
		if last >= 0 {
			cs := int(le32(buf[last:]))
			for k := last + 4; k < last+4+cs; k++ {
				buf[k] = 0xff
			}
			return true
		}
	}
	return false
}
