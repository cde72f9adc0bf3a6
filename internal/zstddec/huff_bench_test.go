package zstddec

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdtest"
	"github.com/klauspost/compress/huff0"
)

// BenchmarkHuff4 times decode4 on 4-stream sections of 128 KiB (a zstd
// block's literals at most) cut from Blosc-like inputs, with the assembly
// loop where there is one and with the portable loop alone.
func BenchmarkHuff4(b *testing.B) {
	const n = 128 << 10
	haveAsm := useHuffAsm // as the CPU and the build tags set it
	sets := map[string][]byte{"noisy_f32": golden.Shuffled(zstdtest.NoisyFloats(4*n), 4)}
	for _, name := range []string{"f32_noise", "text", "linspace_f64"} {
		p, _ := golden.Pattern(name, 4*n)
		sets[name] = golden.Shuffled(p, 4)
	}
	for _, name := range []string{"noisy_f32", "f32_noise", "text", "linspace_f64"} {
		src := sets[name]
		// Each byte plane of a 512 KiB input is one section.
		for plane := range 4 {
			in := src[plane*n : (plane+1)*n]
			var s huff0.Scratch
			sec, _, err := huff0.Compress4X(in, &s)
			if err != nil {
				continue
			}
			for _, asm := range []bool{true, false} {
				if asm && !haveAsm {
					continue
				}
				loop := "portable"
				if asm {
					loop = "asm"
				}
				b.Run(fmt.Sprintf("%s/plane=%d/%s", name, plane, loop), func(b *testing.B) {
					var d Decoder
					rest, err := d.readHuffTable(sec)
					if err != nil {
						b.Fatal(err)
					}
					dst := make([]byte, n)
					defer func(u bool) { useHuffAsm = u }(useHuffAsm)
					useHuffAsm = asm
					b.SetBytes(n)
					b.ReportAllocs()
					for b.Loop() {
						if err := d.ht.decode4(dst, rest); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(sec))/n, "csize/n")
					b.ReportMetric(float64(d.ht.maxBits), "maxBits")
				})
			}
		}
	}
}
