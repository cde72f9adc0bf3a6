//go:build cblosc && cgo

package zstddec_test

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/klauspost/compress/zstd"
)

// bloscSets are cmd/blosc bench's datasets with their typesizes.
var bloscSets = []struct {
	name string
	ts   int
}{{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"rand_s1", 8}, {"text", 1},
	{"runs", 4}, {"rec12", 4}, {"arange_i16", 2}, {"zeros", 8}}

// cDecodeStream is libzstd's ZSTD_decompressDCtx with a context kept
// across calls, as c-blosc2 keeps one.
var cDecodeStream = func() func(dst, src []byte) error {
	dc := czstd.NewDCtx()
	return func(dst, src []byte) error {
		n, err := dc.Decompress(dst, src)
		if err == nil && n != len(dst) {
			err = fmt.Errorf("libzstd gave %d bytes, want %d", n, len(dst))
		}
		return err
	}
}()

// bloscStreams compresses n bytes of a dataset as a Blosc2 chunk with
// zstd, byte shuffle and the given clevel, and returns its zstd frames:
// each starts with the frame magic right after its 4-byte stream size.
func bloscStreams(tb testing.TB, name string, ts, clevel, n int) [][]byte {
	src, err := golden.Pattern(name, n)
	if err != nil {
		tb.Fatal(err)
	}
	o := blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.Zstd, Level: clevel, Typesize: ts,
		Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
	c, err := blosc.Compress(nil, src, o)
	if err != nil {
		tb.Fatal(err)
	}
	var frames [][]byte
	for i := 4; i+4 <= len(c); i++ {
		if binary.LittleEndian.Uint32(c[i:]) != 0xFD2FB528 {
			continue
		}
		size := int(binary.LittleEndian.Uint32(c[i-4:]))
		if size <= 0 || i+size > len(c) {
			continue
		}
		frames = append(frames, c[i:i+size])
		i += size - 1
	}
	return frames
}

// contentSize decodes a frame with klauspost to learn its size.
func decodedSizes(tb testing.TB, o *zstd.Decoder, frames [][]byte) []int {
	var sizes []int
	for _, f := range frames {
		out, err := o.DecodeAll(f, make([]byte, 0, 1<<20))
		if err != nil {
			tb.Fatal(err)
		}
		sizes = append(sizes, len(out))
	}
	return sizes
}

// BenchmarkBloscStreams decodes the zstd frames of 1 MiB Blosc2 chunks
// (as blosc.Compress writes them) with zstddec, with klauspost (into
// dst as is, and as internal/codec calls it, with 16 bytes to spare) and,
// under -tags cblosc, with libzstd, alternating in one run, and reports
// each one's best GB/s and go/c. Profile one decoder with
// -bench 'BloscStreams/.*/go$'.
func BenchmarkBloscStreams(b *testing.B) {
	o, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range bloscSets {
		for _, clevel := range []int{1, 5, 9} {
			frames := bloscStreams(b, s.name, s.ts, clevel, 1<<20)
			if len(frames) == 0 {
				continue // stored without zstd (rand_s1, zeros)
			}
			sizes := decodedSizes(b, o, frames)
			total := 0
			for _, n := range sizes {
				total += n
			}
			var d zstddec.Decoder
			dst := make([]byte, 1<<20+64)
			slack := make([]byte, 1<<20+64)
			sides := map[string]func() error{
				"go": func() error {
					for i, f := range frames {
						if err := d.Decode(dst[:sizes[i]], f); err != nil {
							return err
						}
					}
					return nil
				},
				"klauspost": func() error {
					for i, f := range frames {
						if _, err := o.DecodeAll(f, dst[:0:sizes[i]]); err != nil {
							return err
						}
					}
					return nil
				},
				// As internal/codec calls it: into scratch with 16 bytes
				// to spare, then copied.
				"kslack": func() error {
					for i, f := range frames {
						out, err := o.DecodeAll(f, slack[:0:sizes[i]+16])
						if err != nil {
							return err
						}
						copy(dst, out)
					}
					return nil
				},
			}
			if cDecodeStream != nil {
				sides["c"] = func() error {
					for i, f := range frames {
						if err := cDecodeStream(dst[:sizes[i]], f); err != nil {
							return err
						}
					}
					return nil
				}
			}
			names := []string{"go", "klauspost", "kslack", "c"}
			if cDecodeStream == nil {
				names = names[:3]
			}
			label := fmt.Sprintf("%s/clevel=%d", s.name, clevel)
			for _, nm := range names {
				f := sides[nm]
				b.Run(label+"/"+nm, func(b *testing.B) {
					b.SetBytes(int64(total))
					for b.Loop() {
						if err := f(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			b.Run(label+"/all", func(b *testing.B) {
				best := map[string]time.Duration{}
				for b.Loop() {
					for _, nm := range names {
						t0 := time.Now()
						if err := sides[nm](); err != nil {
							b.Fatal(nm, err)
						}
						if el := time.Since(t0); best[nm] == 0 || el < best[nm] {
							best[nm] = el
						}
					}
				}
				for _, nm := range names {
					b.ReportMetric(float64(total)/best[nm].Seconds()/1e9, nm+"-GB/s")
				}
				b.ReportMetric(float64(best["klauspost"])/float64(best["go"]), "go/klauspost")
				b.ReportMetric(float64(best["kslack"])/float64(best["go"]), "go/kslack")
				if cDecodeStream != nil {
					b.ReportMetric(float64(best["c"])/float64(best["go"]), "go/c")
				}
				b.ReportMetric(float64(len(frames)), "frames")
				b.ReportMetric(float64(total)/float64(len(frames)), "B/frame")
			})
		}
	}
}
