package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/schunkhook"
)

// schunkModel is the plain in-memory model a super-chunk is checked
// against: the data of every chunk, and the metalayers.
type schunkModel struct {
	chunks [][]byte
	meta   map[string][]byte
	vlmeta map[string][]byte
	vlord  []string
	metord []string
}

func (m *schunkModel) data() []byte { return bytes.Join(m.chunks, nil) }

func (m *schunkModel) check(t *testing.T, s *SChunk, step string) {
	t.Helper()
	if s.Nchunks() != len(m.chunks) {
		t.Fatalf("%s: %d chunks, model %d", step, s.Nchunks(), len(m.chunks))
	}
	want := m.data()
	if s.Nbytes() != int64(len(want)) {
		t.Fatalf("%s: nbytes %d, model %d", step, s.Nbytes(), len(want))
	}
	for i, c := range m.chunks {
		got, err := s.DecompressChunk(nil, i)
		if err != nil {
			t.Fatalf("%s: chunk %d: %v", step, i, err)
		}
		if !bytes.Equal(got, c) {
			t.Fatalf("%s: chunk %d differs from the model", step, i)
		}
	}
	all, err := s.Decompress(nil)
	if err != nil {
		t.Fatalf("%s: Decompress: %v", step, err)
	}
	if !bytes.Equal(all, want) {
		t.Fatalf("%s: Decompress differs from the model", step)
	}
	if !slices.Equal(s.MetalayerNames(), m.metord) || !slices.Equal(s.VLMetalayerNames(), m.vlord) {
		t.Fatalf("%s: metalayers %v %v, model %v %v", step, s.MetalayerNames(), s.VLMetalayerNames(), m.metord, m.vlord)
	}
	for name, c := range m.vlmeta {
		got, err := s.VLMetalayer(name)
		if err != nil || !bytes.Equal(got, c) {
			t.Fatalf("%s: vlmetalayer %q = %q, %v; model %q", step, name, got, err, c)
		}
	}
	for name, c := range m.meta {
		got, err := s.Metalayer(name)
		if err != nil || !bytes.Equal(got, c) {
			t.Fatalf("%s: metalayer %q = %q, %v; model %q", step, name, got, err, c)
		}
	}
	// The frame opens to the same content and writes back the same bytes.
	f, err := s.AppendFrame(nil)
	if err != nil {
		t.Fatalf("%s: Frame: %v", step, err)
	}
	if n, err := s.FrameLen(); err != nil || n != int64(len(f)) {
		t.Fatalf("%s: FrameLen %d, %v; Frame wrote %d", step, n, err, len(f))
	}
	var w bytes.Buffer
	if _, err := s.WriteTo(&w); err != nil || !bytes.Equal(w.Bytes(), f) {
		t.Fatalf("%s: WriteTo differs from Frame (%v)", step, err)
	}
	r, err := ParseFrame(f)
	if err != nil {
		t.Fatalf("%s: ParseFrame(Frame()): %v", step, err)
	}
	back, err := r.Decompress(nil)
	if err != nil || !bytes.Equal(back, want) {
		t.Fatalf("%s: the frame written decodes differently (%v)", step, err)
	}
	f2, err := r.AppendFrame(nil)
	if err != nil || !bytes.Equal(f2, f) {
		t.Fatalf("%s: a parsed frame writes back different bytes (%v)", step, err)
	}
	// Byte ranges across chunk boundaries.
	rng := rand.New(rand.NewPCG(uint64(len(want)), 7))
	for k := 0; k < 4 && len(want) > 0; k++ {
		off := rng.IntN(len(want))
		n := rng.IntN(len(want) - off + 1)
		p := make([]byte, n)
		if got, err := s.ReadAt(p, int64(off)); err != nil || got != n || !bytes.Equal(p, want[off:off+n]) {
			t.Fatalf("%s: ReadAt(%d bytes at %d) = %d, %v", step, n, off, got, err)
		}
	}
	if _, err := s.ReadAt(make([]byte, 2), int64(len(want))-1); len(want) > 0 && err != io.EOF {
		t.Fatalf("%s: ReadAt past the end: %v, want io.EOF", step, err)
	}
}

// chunkData makes n bytes of one of several kinds, so that chunks come out
// compressed, stored, zero-special (coded in the index) and repeated-value.
func chunkData(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	switch rng.IntN(5) {
	case 0: // zeros: a zeros special chunk
	case 1:
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	case 2:
		for i := 0; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(b[i:], uint64(i/8+rng.IntN(3)))
		}
	case 3: // a repeated value
		v := rng.Uint64() | 1
		for i := 0; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(b[i:], v)
		}
	default:
		for i := range b {
			b[i] = byte(i / 100)
		}
	}
	return b
}

// TestSChunkOperationsModel runs random sequences of every operation on a
// super-chunk and checks it, and the frame it writes, against a plain
// model after each step. Invalid operations must fail and change nothing.
func TestSChunkOperationsModel(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			const cs = 4096
			opts := SChunkOptions{ChunkSize: cs}
			opts.Options = DefaultOptions()
			opts.Codec = []Codec{BloscLZ, LZ4, Zstd, Zlib}[seed%4]
			opts.Threads = int(seed%3) + 1
			s, err := NewSChunk(opts)
			if err != nil {
				t.Fatal(err)
			}
			m := &schunkModel{meta: map[string][]byte{}, vlmeta: map[string][]byte{}}
			comp := func(d []byte) []byte {
				o := opts.Options
				o.Format = FormatBlosc2
				c, err := Compress(nil, d, o)
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			lastShort := func() bool {
				return len(m.chunks) > 0 && len(m.chunks[len(m.chunks)-1]) < cs
			}
			if seed%2 == 0 {
				if err := s.AddMetalayer("b2nd", []byte("shape")); err != nil {
					t.Fatal(err)
				}
				m.meta["b2nd"] = []byte("shape")
				m.metord = append(m.metord, "b2nd")
			}
			for step := 0; step < 40; step++ {
				var desc string
				switch op := rng.IntN(9); op {
				case 0, 1:
					d := chunkData(rng, rng.IntN(3*cs))
					desc = fmt.Sprintf("AppendData(%d)", len(d))
					if err := s.AppendData(d); err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					all := append(m.data(), d...)
					m.chunks = nil
					for len(all) > 0 {
						k := min(cs, len(all))
						m.chunks = append(m.chunks, all[:k:k])
						all = all[k:]
					}
				case 2:
					d := chunkData(rng, cs)
					desc = "AppendChunk"
					err := s.AppendChunk(comp(d))
					if lastShort() {
						if err == nil {
							t.Fatalf("%s after a short chunk was accepted", desc)
						}
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					m.chunks = append(m.chunks, d)
				case 3:
					i := rng.IntN(len(m.chunks) + 1)
					d := chunkData(rng, cs)
					desc = fmt.Sprintf("InsertChunk(%d)", i)
					err := s.InsertChunk(i, comp(d))
					if i == len(m.chunks) && lastShort() {
						if err == nil {
							t.Fatalf("%s after a short chunk was accepted", desc)
						}
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					m.chunks = slices.Insert(m.chunks, i, d)
				case 4:
					if len(m.chunks) == 0 {
						continue
					}
					i := rng.IntN(len(m.chunks))
					n := cs
					if i == len(m.chunks)-1 && rng.IntN(2) == 0 {
						n = 8 * (1 + rng.IntN(cs/8-1))
					}
					d := chunkData(rng, n)
					desc = fmt.Sprintf("UpdateChunk(%d, %d bytes)", i, n)
					if err := s.UpdateChunk(i, comp(d)); err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					m.chunks[i] = d
				case 5:
					if len(m.chunks) == 0 {
						continue
					}
					i := rng.IntN(len(m.chunks))
					desc = fmt.Sprintf("DeleteChunk(%d)", i)
					if err := s.DeleteChunk(i); err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					m.chunks = slices.Delete(m.chunks, i, i+1)
				case 6:
					kind := []Special{SpecialZeros, SpecialNaN, SpecialValue, SpecialUninit}[rng.IntN(4)]
					n := int64(rng.IntN(3 * cs / 8))
					v := make([]byte, 8)
					binary.LittleEndian.PutUint64(v, rng.Uint64())
					desc = fmt.Sprintf("AppendSpecial(%v, %d)", kind, n)
					if err := s.AppendSpecial(kind, n, v); err != nil {
						t.Fatalf("%s: %v", desc, err)
					}
					pat := make([]byte, n*8)
					h := header2{typesize: 8, b2flags: uint8(kind) << b2SpecialShift, cbytes: header2Len + 8}
					if err := expandSpecialAt(pat, &h, append(make([]byte, header2Len), v...), 0); err != nil {
						t.Fatal(err)
					}
					all := append(m.data(), pat...)
					m.chunks = nil
					for len(all) > 0 {
						k := min(cs, len(all))
						m.chunks = append(m.chunks, all[:k:k])
						all = all[k:]
					}
				case 7:
					name := fmt.Sprintf("vl%d", rng.IntN(4))
					content := chunkData(rng, rng.IntN(300))
					switch _, ok := m.vlmeta[name]; {
					case !ok:
						desc = "AddVLMetalayer " + name
						if err := s.AddVLMetalayer(name, content); err != nil {
							t.Fatalf("%s: %v", desc, err)
						}
						m.vlord = append(m.vlord, name)
						m.vlmeta[name] = content
					case rng.IntN(2) == 0:
						desc = "UpdateVLMetalayer " + name
						if err := s.UpdateVLMetalayer(name, content); err != nil {
							t.Fatalf("%s: %v", desc, err)
						}
						m.vlmeta[name] = content
					default:
						desc = "DeleteVLMetalayer " + name
						if err := s.DeleteVLMetalayer(name); err != nil {
							t.Fatalf("%s: %v", desc, err)
						}
						delete(m.vlmeta, name)
						m.vlord = slices.DeleteFunc(m.vlord, func(n string) bool { return n == name })
					}
				case 8:
					desc = "UpdateMetalayer / AddMetalayer after data"
					if _, ok := m.meta["b2nd"]; ok {
						if err := s.UpdateMetalayer("b2nd", []byte("SHAPE")); err != nil {
							t.Fatalf("%s: %v", desc, err)
						}
						m.meta["b2nd"] = []byte("SHAPE")
						if err := s.UpdateMetalayer("b2nd", []byte("longer")); !errors.Is(err, ErrInvalidOptions) {
							t.Fatalf("a metalayer update of another size: %v", err)
						}
					}
					if len(m.chunks) > 0 {
						if err := s.AddMetalayer("late", nil); !errors.Is(err, ErrInvalidOptions) {
							t.Fatalf("a metalayer added after data: %v", err)
						}
					}
				}
				m.check(t, s, fmt.Sprintf("step %d %s", step, desc))
			}
		})
	}
}

// TestSChunkRefusesChunks: every chunk that does not fit is refused with
// an error naming why, and the super-chunk stays as it was.
func TestSChunkRefusesChunks(t *testing.T) {
	opts := SChunkOptions{Options: DefaultOptions(), ChunkSize: 8000}
	s, err := NewSChunk(opts)
	if err != nil {
		t.Fatal(err)
	}
	o2 := opts.Options
	o2.Format = FormatBlosc2
	full, _ := Compress(nil, make([]byte, 8000), o2)
	if err := s.AppendChunk(full); err != nil {
		t.Fatal(err)
	}
	before, _ := s.AppendFrame(nil)
	o1 := opts.Options
	blosc1, _ := Compress(nil, bytes.Repeat([]byte("ab"), 4000), o1)
	big, _ := Compress(nil, make([]byte, 8008), o2)
	short, _ := Compress(nil, bytes.Repeat([]byte{1}, 800), o2)
	o4 := o2
	o4.Typesize = 4
	ts4, _ := Compress(nil, bytes.Repeat([]byte("abcd"), 2000), o4)
	cases := []struct {
		name string
		do   func() error
		want error
	}{
		{"Blosc1 chunk", func() error { return s.AppendChunk(blosc1) }, ErrInvalidOptions},
		{"larger than the chunk size", func() error { return s.AppendChunk(big) }, ErrInvalidOptions},
		{"another typesize", func() error { return s.AppendChunk(ts4) }, ErrInvalidOptions},
		{"short chunk in the middle", func() error { return s.InsertChunk(0, short) }, ErrInvalidOptions},
		{"short update not last", func() error { _ = s.AppendChunk(full); defer s.DeleteChunk(1); return s.UpdateChunk(0, short) }, ErrInvalidOptions},
		{"truncated chunk", func() error { return s.AppendChunk(full[:len(full)-1]) }, ErrCorrupt},
		{"index out of range", func() error { return s.UpdateChunk(5, full) }, ErrRange},
		{"insert out of range", func() error { return s.InsertChunk(-1, full) }, ErrRange},
		{"delete out of range", func() error { return s.DeleteChunk(1) }, ErrRange},
		{"missing vlmetalayer", func() error { _, err := s.VLMetalayer("x"); return err }, ErrNotFound},
		{"missing metalayer", func() error { _, err := s.Metalayer("x"); return err }, ErrNotFound},
		{"metalayer name too long", func() error { return s.AddVLMetalayer(string(make([]byte, 32)), nil) }, ErrInvalidOptions},
	}
	for _, c := range cases {
		err := c.do()
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// Deleting the chunk added in "short update not last" restores the
	// frame but for unreferenced bytes; compare the content instead.
	after, _ := s.Decompress(nil)
	if want, _ := ParseFrame(before); !bytes.Equal(after, must(want.Decompress(nil))) {
		t.Errorf("refused operations changed the data")
	}
	if err := s.AppendChunk(short); err != nil {
		t.Fatalf("short last chunk: %v", err)
	}
	if err := s.AppendChunk(full); err == nil {
		t.Errorf("a chunk after a short last chunk was accepted")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSChunkThreadsIdentical: the frame AppendData writes, and what
// Decompress returns, do not depend on the thread count, also with chunks
// of zeros (which only the offsets index stores) and of one repeated byte
// (a few bytes of runs) among the others of a parallel group.
func TestSChunkThreadsIdentical(t *testing.T) {
	data := chunkData(rand.New(rand.NewPCG(3, 3)), 1<<20+12345)
	for i := range data {
		data[i] ^= byte(i >> 10)
	}
	for _, c := range []int{3, 5, 6, 15} {
		clear(data[c<<16 : (c+1)<<16])
	}
	for i := range 1 << 16 {
		data[9<<16+i] = 0x5A
	}
	// Appends of 100,000 bytes into 64 KiB chunks refill a short chunk
	// each time and compress one or two more; one append of everything
	// into 4 KiB chunks makes more chunks than AppendData's ring has
	// slots, so its workers wait for slots to free; appends of 100,000
	// bytes into 4 KiB chunks reuse the ring at a slot count that varies.
	for _, tc := range []struct{ chunk, piece int }{{64 << 10, 100000}, {4 << 10, len(data)}, {4 << 10, 100000}} {
		var ref []byte
		for _, th := range []int{1, 2, 3, 8} {
			o := SChunkOptions{Options: DefaultOptions(), ChunkSize: tc.chunk}
			o.Codec, o.Threads = LZ4, th
			s, err := NewSChunk(o)
			if err != nil {
				t.Fatal(err)
			}
			for p := data; len(p) > 0; {
				k := min(len(p), tc.piece)
				if err := s.AppendData(p[:k]); err != nil {
					t.Fatal(err)
				}
				p = p[k:]
			}
			f, err := s.AppendFrame(nil)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = f
			} else if !bytes.Equal(f, ref) {
				t.Errorf("chunks of %d, threads %d: frame differs from threads 1", tc.chunk, th)
			}
			got, err := s.Decompress(nil)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("chunks of %d, threads %d: Decompress: %v", tc.chunk, th, err)
			}
			i := 5 << 16 / tc.chunk
			if info, err := s.ChunkInfo(i); err != nil || info.Special != SpecialZeros {
				t.Errorf("chunks of %d, threads %d: chunk %d is %+v (%v), want a chunk of zeros", tc.chunk, th, i, info, err)
			}
		}
	}
}

func TestSChunkGetItemsNoAlloc(t *testing.T) {
	o := SChunkOptions{Options: DefaultOptions(), ChunkSize: 4096}
	o.Codec, o.Typesize = LZ4, 4
	s, err := NewSChunk(o)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 1000*4096)
	for i := range data {
		data[i] = byte(i * 7 >> 8)
	}
	if err := s.AppendData(data); err != nil {
		t.Fatal(err)
	}
	f, _ := s.AppendFrame(nil)
	r, err := ParseFrame(f)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, 40)
	start := int64(len(data)/8 - 3)
	if got, err := r.GetItems(dst, start, 10); err != nil || !bytes.Equal(got, data[start*4:start*4+40]) {
		t.Fatalf("GetItems: %v", err)
	}
	if raceEnabled {
		t.Log("allocation count not checked under the race detector (sync.Pool drops items at random)")
		return
	}
	if n := testing.AllocsPerRun(200, func() { _, _ = r.GetItems(dst, start, 10) }); n != 0 {
		t.Errorf("GetItems allocates %v times per call", n)
	}
}

// TestDecodeBypassLarge decodes outputs of bypassMinBytes and more, whose
// last unshuffle writes around the caches where the CPU can: a frame's
// data (one piece per chunk, at one and two threads), a Blosc2 chunk and a
// Blosc1 chunk, through every kind of pipeline, against the input.
func TestDecodeBypassLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 17 MiB buffers")
	}
	data := golden.MustPattern(t, "f32_noise", bypassMinBytes+1<<20+12)
	for _, tc := range []struct {
		name    string
		filters [MaxFilters]Filter
		meta    [MaxFilters]uint8
		bypass  bool
	}{
		{"shuffle", [MaxFilters]Filter{5: ByteShuffle}, [MaxFilters]uint8{}, true},
		{"shuffle-ts8", [MaxFilters]Filter{5: ByteShuffle}, [MaxFilters]uint8{5: 8}, true},
		{"bitshuffle", [MaxFilters]Filter{5: BitShuffle}, [MaxFilters]uint8{}, false},
		{"delta-shuffle", [MaxFilters]Filter{4: Delta, 5: ByteShuffle}, [MaxFilters]uint8{}, false},
		{"shuffle-then-bitshuffle", [MaxFilters]Filter{4: BitShuffle, 5: ByteShuffle}, [MaxFilters]uint8{}, false},
		{"bitshuffle-then-shuffle", [MaxFilters]Filter{4: ByteShuffle, 5: BitShuffle}, [MaxFilters]uint8{}, true},
		{"none", [MaxFilters]Filter{}, [MaxFilters]uint8{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pipeline2{typesize: 4}
			for i := range p.filters {
				p.filters[i], p.meta[i] = uint8(tc.filters[i]), tc.meta[i]
			}
			if got, want := p.bypassable(), tc.bypass && canBypass(4); got != want {
				t.Errorf("bypassable() = %v, want %v", got, want)
			}
			o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: 4, Filters: tc.filters, FilterMeta: tc.meta}
			for _, th := range []int{1, 2} {
				o.Threads = th
				s := must(NewSChunk(SChunkOptions{Options: o, ChunkSize: 1 << 20}))
				if err := s.AppendData(data); err != nil {
					t.Fatal(err)
				}
				if got, err := s.Decompress(nil); err != nil || !bytes.Equal(got, data) {
					t.Errorf("frame, threads %d: the data differs (%v)", th, err)
				}
				c := must(Compress(nil, data, o))
				if got, err := Decompress(nil, c); err != nil || !bytes.Equal(got, data) {
					t.Errorf("Blosc2 chunk, threads %d: the data differs (%v)", th, err)
				}
			}
		})
	}
	o := Options{Format: FormatBlosc1, Codec: LZ4, Level: 5, Typesize: 4, Filters: [MaxFilters]Filter{5: ByteShuffle}}
	c := must(Compress(nil, data, o))
	if got, err := Decompress(nil, c); err != nil || !bytes.Equal(got, data) {
		t.Errorf("Blosc1 chunk: the data differs (%v)", err)
	}
}

// TestSChunkReserveHint: the room b2nd reserves through schunkhook grows
// an in-memory frame's buffer once, at least by a quarter, changes no
// byte of the frame, and does nothing to a frame in a file.
func TestSChunkReserveHint(t *testing.T) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i / 100)
	}
	o := SChunkOptions{Options: Options{Codec: LZ4, Level: 5, Typesize: 4, Threads: 1}, ChunkSize: 16 << 10}
	var frames [2][]byte
	for k, hint := range []bool{false, true} {
		s, err := NewSChunk(o)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(data); i += 16 << 10 {
			if i == 32<<10 && hint {
				before := cap(s.region)
				schunkhook.Reserve(s, 1<<20)
				if got := cap(s.region) - len(s.region); got < 1<<20 || cap(s.region) < before+before/4 {
					t.Fatalf("after a reserve of 1 MiB the region has %d bytes of room (capacity %d, was %d)", got, cap(s.region), before)
				}
				c := cap(s.region)
				schunkhook.Reserve(s, 1<<20)
				if cap(s.region) != c {
					t.Fatal("a reserve with room enough grew the region")
				}
			}
			if err := s.AppendData(data[i : i+16<<10]); err != nil {
				t.Fatal(err)
			}
		}
		if frames[k], err = s.AppendFrame(nil); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(frames[0], frames[1]) {
		t.Fatal("the reserve changed the frame")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f.b2frame"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := CreateFrameFile(f, o)
	if err != nil {
		t.Fatal(err)
	}
	schunkhook.Reserve(s, 1<<20)
	if cap(s.region) >= 1<<20 {
		t.Errorf("a frame file's region took the reserve: capacity %d", cap(s.region))
	}
}
