package blosc

import (
	"bytes"
	"fmt"
	"testing"
)

// A Blosc2 chunk is the same whatever the thread count: blocks compressed
// in parallel are placed as the serial pass would place them, and those
// whose budgets the room left would cut are redone serially.
func TestCompress2ThreadsIdentical(t *testing.T) {
	inputs := map[string][]byte{
		"linspace": pattern(t, "linspace_f64", 3<<20+5),
		"f32noise": pattern(t, "f32_noise", 2<<20),
		// Nearly incompressible: the last blocks hit the room-left
		// budgets, then the chunk is stored as a copy.
		"mostlyrandom": append(pattern(t, "rand_s9", 1<<20), pattern(t, "zeros", 40000)...),
		// Every stream a run of zeros: a zeros special chunk.
		"zeros": pattern(t, "zeros", 1<<20),
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
						t.Fatalf("%s: chunk differs from threads=1 (%s)", label, chunkDiff(got, want))
					}
					out, err := (&Decompressor{Threads: th}).Decompress(nil, got)
					if err != nil || !bytes.Equal(out, in) {
						t.Fatalf("%s: decode: %v", label, err)
					}
				}
			}
		}
	}
}
