package bloscpack

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/golden"
)

// benchSize is the input per dataset: 64 MiB by default, enough to spread
// over the workers and to leave the caches; BLOSCPACK_BENCH_MIB overrides
// it (1024 for a run of 1 GiB).
func benchSize() int {
	if s := os.Getenv("BLOSCPACK_BENCH_MIB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n << 20
		}
	}
	return 64 << 20
}

var benchData = map[string][]byte{}

func benchInput(b *testing.B, name string) []byte {
	if d, ok := benchData[name]; ok {
		return d
	}
	d, err := golden.Pattern(name, benchSize())
	if err != nil {
		b.Fatal(err)
	}
	benchData[name] = d
	return d
}

// BenchmarkPack compares, in one run, packing and unpacking a file (lz4,
// shuffle, 1 MiB chunks, no checksum and sha256) with the same data
// through the Blosc1 chunk pipeline alone (1 MiB chunks one after the
// other, blocks spread over the cores), SHA-256 alone over the compressed
// bytes, and memcpy. The target: pack/unpack with a checksum at least 0.9x
// the speed of chunks+sha256 (their times added), without one 0.9x chunks.
//
//	go test -run '^$' -bench Pack -benchtime 4x -count 3 ./bloscpack
func BenchmarkPack(b *testing.B) {
	for _, ds := range []struct {
		name     string
		typesize int
	}{{"f32_noise", 4}, {"linspace_f64", 8}} {
		src := benchInput(b, ds.name)
		o := DefaultOptions()
		o.Blosc = blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: ds.typesize}
		o.Blosc.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
		o.ChunkSize = 1 << 20
		packed := map[Checksum][]byte{}
		for _, c := range []Checksum{NoChecksum, SHA256} {
			o.Checksum = c
			p, err := Pack(src, o)
			if err != nil {
				b.Fatal(err)
			}
			packed[c] = p
		}
		comp, err := blosc.NewCompressor(o.Blosc)
		if err != nil {
			b.Fatal(err)
		}
		var chunks [][]byte
		for p := src; len(p) > 0; p = p[min(len(p), o.ChunkSize):] {
			c, err := comp.Compress(nil, p[:min(len(p), o.ChunkSize)])
			if err != nil {
				b.Fatal(err)
			}
			chunks = append(chunks, c)
		}
		pre := ds.name + "/"
		b.Run(pre+"memcpy", func(b *testing.B) {
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				copy(dst, src)
			}
		})
		b.Run(pre+"chunks/compress", func(b *testing.B) {
			out := make([]byte, 0, len(src)+len(src)/64)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				out = out[:0]
				for p := src; len(p) > 0; p = p[min(len(p), o.ChunkSize):] {
					c, err := comp.Compress(out[len(out):cap(out)], p[:min(len(p), o.ChunkSize)])
					if err != nil {
						b.Fatal(err)
					}
					out = out[:len(out)+len(c)]
				}
			}
			b.ReportMetric(float64(len(src))/float64(len(out)), "ratio")
		})
		b.Run(pre+"chunks/decompress", func(b *testing.B) {
			var d blosc.Decompressor
			buf := make([]byte, o.ChunkSize)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range chunks {
					if _, err := d.Decompress(buf, c); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(pre+"sha256-of-compressed", func(b *testing.B) {
			// Reported per input byte, so its time adds to the others'.
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				for _, c := range chunks {
					sha256.Sum256(c)
				}
			}
		})
		for _, c := range []Checksum{NoChecksum, SHA256} {
			o.Checksum = c
			b.Run(fmt.Sprintf("%spack/%s", pre, c), func(b *testing.B) {
				m := &memFile{b: make([]byte, 0, len(packed[c]))}
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					m.b = m.b[:0]
					w, err := NewWriter(m, int64(len(src)), o)
					if err != nil {
						b.Fatal(err)
					}
					w.Write(src)
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
				if !bytes.Equal(m.b, packed[c]) {
					b.Fatal("the benchmark's file differs from Pack's")
				}
			})
			b.Run(fmt.Sprintf("%sunpack/%s", pre, c), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					r, err := NewReader(bytes.NewReader(packed[c]))
					if err != nil {
						b.Fatal(err)
					}
					n, err := r.WriteTo(io.Discard)
					if err != nil || n != int64(len(src)) {
						b.Fatal(n, err)
					}
				}
			})
		}
	}
}
