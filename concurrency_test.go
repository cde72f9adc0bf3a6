package blosc

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestConcurrentUse runs 64 goroutines at once through every way the
// package shares state between callers: the package-level functions (which
// draw contexts from pools), one Compressor and Decompressor per goroutine,
// and the process-wide block workers (Threads 0 and 2, chunks large enough
// to go parallel). Every result is checked, so a data race that corrupts
// output fails the test even without -race; CI also runs it under -race.
func TestConcurrentUse(t *testing.T) {
	const goroutines = 64
	inputs := make([][]byte, 4)
	for i, name := range []string{"arange_i64", "linspace_f64", "f32_noise", "text"} {
		var err error
		if inputs[i], err = golden.Pattern(name, 150_000+i*70_001); err != nil {
			t.Fatal(err)
		}
	}
	codecs := []Codec{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			src := inputs[g%len(inputs)]
			o := DefaultOptions()
			o.Codec = codecs[g%len(codecs)]
			o.Format = Format(g % 2)
			o.Threads = []int{0, 1, 2}[g%3]
			o.Typesize = []int{8, 4, 2}[g%3]
			if g%4 == 3 {
				o.Filters[MaxFilters-1] = BitShuffle
			}
			c, err := NewCompressor(o)
			if err != nil {
				errs <- err
				return
			}
			d, err := NewDecompressor(DecompressOptions{Threads: o.Threads})
			if err != nil {
				errs <- err
				return
			}
			var chunk, out []byte
			for r := 0; r < rounds; r++ {
				// A context reused by its own goroutine...
				if chunk, err = c.Compress(chunk[:0], src); err != nil {
					errs <- fmt.Errorf("goroutine %d: %w", g, err)
					return
				}
				if out, err = d.Decompress(out[:0], chunk); err != nil || !bytes.Equal(out, src) {
					errs <- fmt.Errorf("goroutine %d round %d: context round trip failed: %v", g, r, err)
					return
				}
				// ...and the pooled package-level functions, which must give
				// the same chunk byte for byte.
				again, err := Compress(nil, src, o)
				if err != nil || !bytes.Equal(again, chunk) {
					errs <- fmt.Errorf("goroutine %d: package-level Compress differs from the context's (%v)", g, err)
					return
				}
				back, err := Decompress(nil, again)
				if err != nil || !bytes.Equal(back, src) {
					errs <- fmt.Errorf("goroutine %d: package-level round trip failed: %v", g, err)
					return
				}
				start := (g * 97) % (len(src) / o.Typesize / 2)
				items, err := GetItems(nil, chunk, int64(start), 100)
				if err != nil || !bytes.Equal(items, src[start*o.Typesize:(start+100)*o.Typesize]) {
					errs <- fmt.Errorf("goroutine %d: GetItem(%d, 100) wrong: %v", g, start, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
