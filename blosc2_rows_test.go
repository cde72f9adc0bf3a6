package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/schunkhook"
	"github.com/goblosc/blosc/internal/testrand"
)

// shuffleRows writes rows of items straight into a block's streams: the
// source rows and the streams sit against a guard page, at either end,
// so a kernel that reads or writes a byte outside the rows (a row's last
// elements go through masks, or a copy on the stack) faults, and every
// byte of the streams must be the row's item or left as it was. Every
// kernel level the CPU has runs, for each typesize it has a kernel of.
// The prefetch distance is any value: a prefetch never faults.
func TestShuffleRowsMatchesOracle(t *testing.T) {
	ran := 0
	for _, k := range runnableKernels(t) {
		restore := forceShuffleLevel(k.Level)
		for _, ts := range []int{2, 4, 8} {
			if canShuffleRows(ts) {
				ran++
				testShuffleRows(t, k.Name(), ts)
			}
		}
		restore()
	}
	if ran == 0 {
		t.Skip("SKIPPED: no kernel shuffles rows into streams on this CPU or build")
	}
}

// rowLengths are the row lengths the row kernel tests take: around each
// vector's elements (16 of 8 or 4 bytes, 32 of 2 at AVX-512; 16 at AVX2)
// and their multiples.
var rowLengths = []int{1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 51, 63, 64, 65, 95, 100}

func testShuffleRows(t *testing.T, kernel string, ts int) {
	rng := rand.New(rand.NewPCG(7, uint64(ts)))
	for _, row := range rowLengths {
		for _, n1 := range []int{1, 2, 3, 16} {
			for _, side := range []guard.Side{guard.End, guard.Start} {
				ss1 := row + rng.IntN(20)
				ds1 := row + rng.IntN(20)
				if n1 > 1 && rng.IntN(4) == 0 {
					ss1 = rng.IntN(row + 1) // rows that share items
				}
				sp := rng.IntN(30)
				if side == guard.Start {
					sp = 0
				}
				// The streams: n items each, the last row ending at
				// the end of the last stream.
				n := (n1-1)*ds1 + row
				gs := guard.New((sp+(n1-1)*ss1+row)*ts, side)
				src := gs.Bytes
				testrand.Fill(rng, src)
				gd := guard.New(n*ts, side)
				dst := gd.Bytes
				for k := range dst {
					dst[k] = 0xa5
				}
				want := bytes.Clone(dst)
				for k := range n1 {
					for e := range row {
						for j := range ts {
							want[j*n+k*ds1+e] = src[(sp+k*ss1+e)*ts+j]
						}
					}
				}
				pf := []int{0, 64, 8 << 10, -1 << 20, 1 << 30}[rng.IntN(5)]
				shuffleRows(dst, src[sp*ts:], ts, n, row, n1, ds1, ss1*ts, pf)
				if !bytes.Equal(dst, want) {
					t.Fatalf("%s ts %d row %d n1 %d ss1 %d ds1 %d side %d:\n%s", kernel, ts, row, n1, ss1, ds1, side, diffReport(dst, want))
				}
				gd.Free()
				gs.Free()
			}
		}
	}
}

// rowsCase is a chunk of blocks placed in a larger buffer of items.
type rowsCase struct {
	r      schunkhook.BlockRows
	chunk  []byte // the blocks laid end to end, gathered here by hand
	ts     int
	buffer *guard.Buffer
}

// newRowsCase places nblocks blocks of rows in a buffer of random content
// (or of a smooth series, or zeros) that ends at a guard page, the last
// block's last row against it.
func newRowsCase(rng *rand.Rand, ts, dims, nblocks int, content string) rowsCase {
	var c rowsCase
	c.ts = ts
	r := &c.r
	r.Row = int64(1 + rng.IntN(70))
	r.Dims = dims
	span := r.Row - 1 // the last item of a block past its first
	for i := range dims {
		r.Counts[i] = int64(1 + rng.IntN(6))
	}
	// Strides from the innermost level out, each past the rows it
	// steps over, sometimes right after them (rows that merge).
	inner := r.Row
	for i := dims - 1; i >= 0; i-- {
		r.Strides[i] = inner + int64(rng.IntN(3))*int64(rng.IntN(40))
		span += (r.Counts[i] - 1) * r.Strides[i]
		inner = span + 1
	}
	n := span + 1 + int64(rng.IntN(300))
	c.buffer = guard.New(int(n)*ts, guard.End)
	src := c.buffer.Bytes
	switch content {
	case "random":
		testrand.Fill(rng, src)
	case "smooth":
		for k := 0; k+ts <= len(src); k += ts {
			for j := range ts {
				src[k+j] = byte((k / ts) >> (8 * min(j, 3)))
			}
		}
	}
	r.Src = src
	for j := range nblocks {
		b := rng.Int64N(n - span)
		if j == nblocks-1 {
			b = n - 1 - span // against the guard page
		}
		r.Blocks = append(r.Blocks, b)
	}
	for _, b := range r.Blocks {
		var idx [7]int64
		for {
			p := b
			for i := range dims {
				p += idx[i] * r.Strides[i]
			}
			c.chunk = append(c.chunk, src[p*int64(ts):(p+r.Row)*int64(ts)]...)
			i := dims - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < r.Counts[i] {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	return c
}

// CompressRows makes the very chunk Compress makes of the blocks laid end
// to end, at every shuffle level the CPU has (below AVX-512 it takes
// nothing and says so), for every codec, typesizes with and without a
// kernel, blocks whose rows merge or not, contents that compress, that do
// not (a chunk stored as a copy, gathered from the rows) and zeros (a
// zeros special chunk), at one and several threads.
func TestCompressRowsMatchesCompress(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	took := 0
	for _, k := range runnableKernels(t) {
		restore := forceShuffleLevel(k.Level)
		for it := range 300 {
			ts := []int{8, 8, 8, 1, 2, 4, 16}[rng.IntN(7)]
			dims := rng.IntN(4)
			content := []string{"random", "smooth", "smooth", "zeros"}[rng.IntN(4)]
			c := newRowsCase(rng, ts, dims, 1+rng.IntN(6), content)
			o := Options{Format: FormatBlosc2, Codec: []Codec{LZ4, Zstd, BloscLZ, LZ4HC, Zlib}[rng.IntN(5)],
				Level: 1 + rng.IntN(9), Typesize: ts, Threads: 1 + rng.IntN(2)}
			o.Filters[MaxFilters-1] = ByteShuffle
			if rng.IntN(3) == 0 {
				o.FilterMeta[MaxFilters-1] = uint8(ts)
			}
			o.Blocksize = len(c.chunk) / len(c.r.Blocks)
			want, err := Compress(nil, c.chunk, o)
			name := fmt.Sprintf("%s/%d: ts %d dims %d row %d counts %v blocks %d %s %s", k.Name(), it, ts, dims, c.r.Row, c.r.Counts[:dims], len(c.r.Blocks), content, o.Codec)
			if err != nil {
				t.Fatalf("%s: Compress: %v", name, err)
			}
			got, ok, err := schunkhook.CompressRows(make([]byte, 0, 16), &c.r, &o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// A block size Compress does not keep (one it rounds, or
			// cuts to a small chunk's size) is refused.
			l := func() layout2 { p, _ := o.params(); return p.layout2(len(c.chunk)) }()
			kept := l.blocksize == o.Blocksize && l.leftover == 0
			// Rows shorter than the level's kernels take well are
			// refused too.
			rs, _ := newRowSource(&c.r, ts)
			if wantOK := schunkhook.CompressesRows(&o) && kept && rs.row >= rowsMinItems(); ok != wantOK {
				t.Fatalf("%s: took it %v, want %v", name, ok, wantOK)
			}
			if ok {
				took++
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: the chunks differ:\n%s", name, diffReport(got, want))
				}
			}
			c.buffer.Free()
		}
		restore()
	}
	if canShuffleRows(8) && took == 0 {
		t.Error("no chunk was compressed from rows")
	}
}

// CompressRows refuses what it cannot take, compressing nothing: rows
// outside the buffer, bad counts, options whose pipeline is not a byte
// shuffle alone, dictionaries, Blosc1, and options that are not an
// *Options.
func TestCompressRowsRefuses(t *testing.T) {
	if !canShuffleRows(8) {
		if schunkhook.CompressesRows(&Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8,
			Filters: [MaxFilters]Filter{MaxFilters - 1: ByteShuffle}}) {
			t.Fatal("CompressesRows without a kernel")
		}
		t.Skip("SKIPPED: no kernel shuffles rows into streams on this CPU or build")
	}
	src := make([]byte, 64*64*8)
	good := func() (schunkhook.BlockRows, Options) {
		r := schunkhook.BlockRows{Src: src, Row: 64, Dims: 1, Counts: [7]int64{32}, Strides: [7]int64{64}, Blocks: []int64{0, 32 * 64}}
		o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 32 * 64 * 8}
		o.Filters[MaxFilters-1] = ByteShuffle
		return r, o
	}
	r, o := good()
	if _, ok, err := schunkhook.CompressRows(nil, &r, &o); !ok || err != nil {
		t.Fatalf("the good case: %v %v", ok, err)
	}
	for name, change := range map[string]func(r *schunkhook.BlockRows, o *Options){
		"block past the end":  func(r *schunkhook.BlockRows, o *Options) { r.Blocks[1]++ },
		"negative block":      func(r *schunkhook.BlockRows, o *Options) { r.Blocks[0] = -1 },
		"a row too many":      func(r *schunkhook.BlockRows, o *Options) { r.Counts[0] = 65 },
		"zero count":          func(r *schunkhook.BlockRows, o *Options) { r.Counts[0] = 0 },
		"negative stride":     func(r *schunkhook.BlockRows, o *Options) { r.Strides[0] = -64 },
		"zero row":            func(r *schunkhook.BlockRows, o *Options) { r.Row = 0 },
		"row past the end":    func(r *schunkhook.BlockRows, o *Options) { r.Row = 64*64 + 1; r.Dims = 0 },
		"dims":                func(r *schunkhook.BlockRows, o *Options) { r.Dims = 8 },
		"huge stride":         func(r *schunkhook.BlockRows, o *Options) { r.Strides[0] = 1 << 62 },
		"other block size":    func(r *schunkhook.BlockRows, o *Options) { o.Blocksize = 16 * 64 * 8 },
		"delta":               func(r *schunkhook.BlockRows, o *Options) { o.Filters[0] = Delta },
		"two shuffles":        func(r *schunkhook.BlockRows, o *Options) { o.Filters[0] = ByteShuffle },
		"bit shuffle":         func(r *schunkhook.BlockRows, o *Options) { o.Filters[MaxFilters-1] = BitShuffle },
		"no shuffle":          func(r *schunkhook.BlockRows, o *Options) { o.Filters[MaxFilters-1] = NoFilter },
		"shuffle of 4 bytes":  func(r *schunkhook.BlockRows, o *Options) { o.FilterMeta[MaxFilters-1] = 4 },
		"typesize 4":          func(r *schunkhook.BlockRows, o *Options) { o.Typesize = 4 },
		"dictionary":          func(r *schunkhook.BlockRows, o *Options) { o.Codec, o.Dict = Zstd, true },
		"level 0":             func(r *schunkhook.BlockRows, o *Options) { o.Level = 0 },
		"blosc1":              func(r *schunkhook.BlockRows, o *Options) { o.Format = FormatBlosc1 },
		"trunc_prec":          func(r *schunkhook.BlockRows, o *Options) { o.Filters[1] = TruncPrec; o.FilterMeta[1] = 20 },
		"options not pointer": nil,
	} {
		r, o := good()
		r.Blocks = append([]int64(nil), r.Blocks...)
		var opts any = &o
		if change == nil {
			opts = o
		} else {
			change(&r, &o)
		}
		if out, ok, _ := schunkhook.CompressRows(nil, &r, opts); ok || out != nil {
			t.Errorf("%s: took it", name)
		}
	}
}

// With dst's room, CompressRows allocates nothing.
func TestCompressRowsDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED under -race: the race runtime allocates")
	}
	if !canShuffleRows(8) {
		t.Skip("SKIPPED: no kernel shuffles rows into streams on this CPU or build")
	}
	src := make([]byte, 1024*256*8)
	for k := range src {
		src[k] = byte(k / 64)
	}
	r := schunkhook.BlockRows{Src: src, Row: 64, Dims: 1, Counts: [7]int64{64}, Strides: [7]int64{1024}}
	for b := range int64(16) {
		r.Blocks = append(r.Blocks, b/4*64*1024+b%4*64)
	}
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8, Blocksize: 64 * 64 * 8}
	o.Filters[MaxFilters-1] = ByteShuffle
	dst := make([]byte, 0, 16*64*64*8+64)
	var failed bool
	allocs := testing.AllocsPerRun(20, func() {
		if _, ok, err := schunkhook.CompressRows(dst, &r, &o); !ok || err != nil {
			failed = true
		}
	})
	if failed {
		t.Fatal("CompressRows refused or failed")
	}
	if allocs != 0 {
		t.Errorf("%v allocations a call", allocs)
	}
}

// At the portable level CompressesRows is false.
func TestCompressesRowsNeedsKernel(t *testing.T) {
	o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 8}
	o.Filters[MaxFilters-1] = ByteShuffle
	restore := forceShuffleLevel(cpu.Generic)
	defer restore()
	if schunkhook.CompressesRows(&o) {
		t.Error("the portable level compresses rows")
	}
}

// A chunk large enough that its blocks are compressed on several threads
// reads the same rows from every thread and makes the same chunk.
func TestCompressRowsThreads(t *testing.T) {
	if !canShuffleRows(8) {
		t.Skip("SKIPPED: no kernel shuffles rows into streams on this CPU or build")
	}
	// A 2-D array 1024 items wide; the chunk is 256 x 256 of it in
	// blocks of 32 x 64, its rows ending against a guard page.
	const width, rows = 1024, 300
	g := guard.New(width*rows*8, guard.End)
	defer g.Free()
	for k := 0; k < len(g.Bytes); k += 8 {
		binary.LittleEndian.PutUint64(g.Bytes[k:], math.Float64bits(float64(k)/7))
	}
	r := schunkhook.BlockRows{Src: g.Bytes, Row: 64, Dims: 1, Counts: [7]int64{32}, Strides: [7]int64{width}}
	var chunk []byte
	origin := int64((rows-256)*width + width - 256)
	for b0 := range int64(8) {
		for b1 := range int64(4) {
			base := origin + b0*32*width + b1*64
			r.Blocks = append(r.Blocks, base)
			for k := range int64(32) {
				p := (base + k*width) * 8
				chunk = append(chunk, g.Bytes[p:p+64*8]...)
			}
		}
	}
	for _, codec := range []Codec{LZ4, Zstd} {
		o := Options{Format: FormatBlosc2, Codec: codec, Level: 5, Typesize: 8, Blocksize: 32 * 64 * 8, Threads: 4}
		o.Filters[MaxFilters-1] = ByteShuffle
		want, err := Compress(nil, chunk, o)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := schunkhook.CompressRows(nil, &r, &o)
		if !ok || err != nil {
			t.Fatalf("%s: refused (%v)", codec, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the chunks differ:\n%s", codec, diffReport(got, want))
		}
	}
}

// BenchmarkShuffleRows shuffles the blocks of 64 MiB of float64 items
// from their rows in a make's order, as the 2-D and 3-D arrays of
// BenchmarkB2NDVersusC lay them out (2-D: 1024 items wide, 512x512
// chunks of 64x64 blocks; 3-D: 128x128 planes, 64^3 chunks of 16^3
// blocks), with the kernel prefetching a lead of 0 to 8 KiB of a block's
// data ahead (rowsPrefetchLead).
func BenchmarkShuffleRows(b *testing.B) {
	if !canShuffleRows(8) {
		b.Skip("no kernel shuffles rows into streams on this CPU or build")
	}
	const size = 64 << 20
	src := make([]byte, size)
	for k := 0; k < size; k += 8 {
		binary.LittleEndian.PutUint64(src[k:], math.Float64bits(float64(k)))
	}
	// blocks returns the rows of every block of the array of shape,
	// in the order a make compresses them.
	blocks := func(shape, chunk, block []int64) schunkhook.BlockRows {
		nd := len(shape)
		r := schunkhook.BlockRows{Src: src, Row: block[nd-1], Dims: nd - 1}
		stride := make([]int64, nd)
		for i, st := nd-1, int64(1); i >= 0; i-- {
			stride[i] = st
			st *= shape[i]
		}
		for i := range nd - 1 {
			r.Counts[i], r.Strides[i] = block[i], stride[i]
		}
		// Chunks in C order, then their blocks in C order.
		var walk func(i int, base int64, step, extent []int64, fn func(int64))
		walk = func(i int, base int64, step, extent []int64, fn func(int64)) {
			if i == nd {
				fn(base)
				return
			}
			for c := int64(0); c < extent[i]; c += step[i] {
				walk(i+1, base+c*stride[i], step, extent, fn)
			}
		}
		walk(0, 0, chunk, shape, func(base int64) {
			walk(0, base, block, chunk, func(b int64) { r.Blocks = append(r.Blocks, b) })
		})
		return r
	}
	n := int64(size / 8)
	for _, set := range []struct {
		name                string
		shape, chunk, block []int64
	}{
		{"2d", []int64{n / 1024, 1024}, []int64{512, 512}, []int64{64, 64}},
		{"3d", []int64{n / (128 * 128), 128, 128}, []int64{64, 64, 64}, []int64{16, 16, 16}},
	} {
		r := blocks(set.shape, set.chunk, set.block)
		rs, ok := newRowSource(&r, 8)
		if !ok {
			b.Fatal("rows refused")
		}
		dst := make([]byte, rs.blockItems*8)
		for _, lead := range []int64{0, 2 << 10, 4 << 10, 8 << 10} {
			rs.pf = 0
			if lead > 0 {
				rs.pf = rowsPrefetch(lead, int64(rs.row), 8, r.Counts[:rs.dims], r.Strides[:rs.dims])
			}
			b.Run(fmt.Sprintf("%s/lead=%d", set.name, lead), func(b *testing.B) {
				b.SetBytes(size)
				for b.Loop() {
					for j := range rs.blocks {
						rs.shuffle(dst, j)
					}
				}
			})
		}
	}
}

// FuzzCompressRows hands CompressRows fuzzed rows over a small buffer:
// rows outside it, negative or huge counts and strides, blocks anywhere.
// It must never panic nor touch a byte outside the buffer (which ends
// against a guard page), and a chunk it takes must be the one Compress
// makes of the rows gathered by hand. The bits of dims above its two
// lowest pick the item size (8, 4 or 2 bytes) and the kernel level (the
// CPU's, or AVX2 where it has more), so the seeds keep their meaning.
func FuzzCompressRows(f *testing.F) {
	f.Add(int64(16), uint8(1), int64(4), int64(20), int64(0), int64(0), int64(0), int64(3), uint16(700))
	f.Add(int64(5), uint8(2), int64(3), int64(40), int64(2), int64(8), int64(1), int64(9), uint16(600))
	f.Add(int64(64), uint8(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(64), uint16(200))
	f.Add(int64(3), uint8(1), int64(-1), int64(1<<62), int64(7), int64(5), int64(-3), int64(0), uint16(100))
	f.Add(int64(23), uint8(5), int64(3), int64(30), int64(2), int64(9), int64(1), int64(11), uint16(900))
	f.Add(int64(40), uint8(0x48), int64(2), int64(41), int64(0), int64(0), int64(0), int64(82), uint16(300))
	f.Add(int64(9), uint8(0x41), int64(5), int64(12), int64(0), int64(0), int64(2), int64(60), uint16(400))
	f.Fuzz(func(t *testing.T, row int64, dims uint8, c0, s0, c1, s1, b0, b1 int64, items uint16) {
		ts := []int{8, 4, 2}[int(dims/4)%3]
		if dims&0x40 != 0 && currentShuffleLevel() == cpu.AVX512 {
			defer forceShuffleLevel(cpu.AVX2)()
		}
		g := guard.New(int(items)*ts, guard.End)
		defer g.Free()
		for k := range g.Bytes {
			g.Bytes[k] = byte(k / 24)
		}
		r := schunkhook.BlockRows{Src: g.Bytes, Row: row, Dims: int(dims % 4), Counts: [7]int64{c0, c1, 2}, Strides: [7]int64{s0, s1, 3}, Blocks: []int64{b0, b1}}
		o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: ts}
		o.Filters[MaxFilters-1] = ByteShuffle
		items0 := row
		for i := range r.Dims {
			items0 *= r.Counts[i]
		}
		if items0 > 0 && items0 < 1<<16 {
			o.Blocksize = int(items0) * ts
		}
		got, ok, err := schunkhook.CompressRows(nil, &r, &o)
		if err != nil || !ok {
			return
		}
		// Gather the rows by hand (every one lies inside the buffer, or
		// the call would have refused).
		var chunk []byte
		for _, b := range r.Blocks {
			var idx [7]int64
			for {
				p := b
				for i := range r.Dims {
					p += idx[i] * r.Strides[i]
				}
				chunk = append(chunk, g.Bytes[p*int64(ts):(p+r.Row)*int64(ts)]...)
				i := r.Dims - 1
				for ; i >= 0; i-- {
					if idx[i]++; idx[i] < r.Counts[i] {
						break
					}
					idx[i] = 0
				}
				if i < 0 {
					break
				}
			}
		}
		want, err := Compress(nil, chunk, o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the chunks differ:\n%s", diffReport(got, want))
		}
	})
}
