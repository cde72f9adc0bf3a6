//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/faultfile"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/fsys"
	"github.com/goblosc/blosc/internal/golden"
)

// frameOps drives the same operations on a Go super-chunk and a c-blosc2
// one: metalayers, data in chunks (full ones and a short last one),
// update, insert, delete, vlmetalayer add/update/delete.
type frameOps struct {
	data  []byte
	cs    int
	edits bool
}

func (f frameOps) goFrame(t *testing.T, o blosc.Options) (*blosc.SChunk, []byte) {
	t.Helper()
	s, err := blosc.NewSChunk(blosc.SChunkOptions{Options: o, ChunkSize: f.cs})
	if err != nil {
		t.Fatal(err)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(s.AddMetalayer("b2nd", []byte("\x95\x00\x01\x91\xd3")))
	check(s.AddMetalayer("app", []byte("v1")))
	check(s.AppendData(f.data))
	want := slices.Clone(f.data)
	if f.edits && s.Nchunks() >= 3 {
		o2 := o
		o2.Format = blosc.FormatBlosc2
		upd := bytes.Repeat([]byte("update me"), f.cs/9+1)[:f.cs]
		c, err := blosc.Compress(nil, upd, o2)
		check(err)
		check(s.UpdateChunk(1, c))
		copy(want[f.cs:], must(blosc.Decompress(nil, c)))
		ins := make([]byte, f.cs)
		for i := range ins {
			ins[i] = byte(i % 7)
		}
		c, err = blosc.Compress(nil, ins, o2)
		check(err)
		check(s.InsertChunk(0, c))
		want = append(must(blosc.Decompress(nil, c)), want...)
		check(s.DeleteChunk(2))
		want = append(want[:2*f.cs:2*f.cs], want[3*f.cs:]...)
	}
	check(s.AddVLMetalayer("author", []byte("golden")))
	check(s.AddVLMetalayer("attrs", []byte(`{"units": "m/s"}`)))
	check(s.AddVLMetalayer("gone", []byte("x")))
	check(s.UpdateVLMetalayer("attrs", []byte(`{"units": "km/h", "scale": 2}`)))
	check(s.DeleteVLMetalayer("gone"))
	return s, want
}

func (f frameOps) cFrame(t *testing.T, o blosc.Options, path string) *cblosc2.SChunk {
	t.Helper()
	s, err := cblosc2.NewSChunk(cParams(o), path)
	if err != nil {
		t.Fatal(err)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			s.Free()
			t.Fatal(err)
		}
	}
	check(s.AddMeta("b2nd", []byte("\x95\x00\x01\x91\xd3")))
	check(s.AddMeta("app", []byte("v1")))
	for p := f.data; len(p) > 0; p = p[min(f.cs, len(p)):] {
		check(s.AppendBuffer(p[:min(f.cs, len(p))]))
	}
	if f.edits && s.NChunks() >= 3 {
		cc, err := cblosc2.NewCompressor(cParams(o))
		check(err)
		defer cc.Free()
		comp := func(d []byte) []byte {
			dst := make([]byte, len(d)+32)
			n, err := cc.Compress(dst, d)
			check(err)
			return dst[:n]
		}
		upd := bytes.Repeat([]byte("update me"), f.cs/9+1)[:f.cs]
		check(s.UpdateChunk(1, comp(upd)))
		ins := make([]byte, f.cs)
		for i := range ins {
			ins[i] = byte(i % 7)
		}
		check(s.InsertChunk(0, comp(ins)))
		check(s.DeleteChunk(2))
	}
	check(s.AddVLMeta("author", []byte("golden")))
	check(s.AddVLMeta("attrs", []byte(`{"units": "m/s"}`)))
	check(s.AddVLMeta("gone", []byte("x")))
	check(s.UpdateVLMeta("attrs", []byte(`{"units": "km/h", "scale": 2}`)))
	check(s.DeleteVLMeta("gone"))
	return s
}

// checkCReads opens a frame with c-blosc2 and compares everything it reads
// with want.
func checkCReads(t *testing.T, c *cblosc2.SChunk, want []byte, cs int) {
	t.Helper()
	got, err := c.Decompress(cs)
	if err != nil {
		t.Fatalf("c-blosc2 decoding our frame: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("c-blosc2 decodes our frame to %d bytes differing from the data (%d)", len(got), len(want))
	}
	if m, err := c.Meta("b2nd"); err != nil || string(m) != "\x95\x00\x01\x91\xd3" {
		t.Errorf("c-blosc2 reads metalayer b2nd as %q, %v", m, err)
	}
	if m, err := c.VLMeta("attrs"); err != nil || string(m) != `{"units": "km/h", "scale": 2}` {
		t.Errorf("c-blosc2 reads vlmetalayer attrs as %q, %v", m, err)
	}
	if names := c.VLMetaNames(); !slices.Equal(names, []string{"author", "attrs"}) {
		t.Errorf("c-blosc2 lists vlmetalayers %v", names)
	}
}

// TestFrameCrossC: for every codec and pipeline, c-blosc2 opens the frames
// we write (from bytes and from a file) and we open the ones it writes,
// after the same operations; BloscLZ and LZ4 frames are byte-identical.
func TestFrameCrossC(t *testing.T) {
	dir := t.TempDir()
	pipes := [][blosc.MaxFilters]blosc.Filter{{5: blosc.ByteShuffle}, {5: blosc.BitShuffle}, {}, {4: blosc.Delta, 5: blosc.ByteShuffle}, {4: blosc.TruncPrec, 5: blosc.BitShuffle}}
	for _, codec := range []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Zlib, blosc.Zstd} {
		for pi, pipe := range pipes {
			for _, ts := range []int{4, 8} {
				for _, mode := range []string{"append", "edits", "edits-short-last"} {
					edits := mode != "append"
					name := fmt.Sprintf("%v/pipe%d/ts%d/%s", codec, pi, ts, mode)
					t.Run(name, func(t *testing.T) {
						o := blosc.Options{Codec: codec, Level: 5, Typesize: ts, Filters: pipe, Threads: 1}
						if pipe[4] == blosc.TruncPrec {
							o.FilterMeta[4] = 12
						}
						pat := "linspace_f64"
						if ts == 4 {
							pat = "f32_noise"
						}
						// The short last chunk holds whole elements: c-blosc2's
						// reused context splits a last block of a partial element
						// into typesize streams that drop its tail bytes.
						n := 5*40000 + 1232
						if mode == "edits" {
							n = 5 * 40000
						}
						data, err := golden.Pattern(pat, n)
						if err != nil {
							t.Fatal(err)
						}
						if pipe[4] == blosc.TruncPrec {
							// trunc_prec is lossy: compare with what a
							// chunk round trip gives.
							data = truncRoundTrip(t, o, data, 40000)
						}
						ops := frameOps{data: data, cs: 40000, edits: edits}
						gs, want := ops.goFrame(t, o)
						ours, err := gs.AppendFrame(nil)
						if err != nil {
							t.Fatal(err)
						}
						// C reads ours, from bytes and from a file.
						c, err := cblosc2.FromBuffer(ours)
						if err != nil {
							t.Fatal(err)
						}
						checkCReads(t, c, want, 40000)
						c.Free()
						path := filepath.Join(dir, fmt.Sprintf("ours%d.b2frame", len(name)+len(ours)))
						if err := os.WriteFile(path, ours, 0o644); err != nil {
							t.Fatal(err)
						}
						c, err = cblosc2.Open(path)
						if err != nil {
							t.Fatal(err)
						}
						checkCReads(t, c, want, 40000)
						c.Free()
						// We read C's.
						cs := ops.cFrame(t, o, "")
						theirs, err := cs.ToBuffer()
						cs.Free()
						if err != nil {
							t.Fatal(err)
						}
						r, err := blosc.ParseFrame(theirs)
						if err != nil {
							t.Fatalf("ParseFrame(c-blosc2's frame): %v", err)
						}
						got, err := r.Decompress(nil)
						if err != nil || !bytes.Equal(got, want) {
							t.Fatalf("c-blosc2's frame decodes differently (%v)", err)
						}
						// Inserting while the last chunk is short, c-blosc2 turns
						// the frame into one of variable-size chunks (chunksize
						// 0); we keep the fixed chunk size, which both read.
						if (codec == blosc.BloscLZ || codec == blosc.LZ4) && mode != "edits-short-last" {
							if !bytes.Equal(ours, theirs) {
								i := 0
								for i < len(ours) && i < len(theirs) && ours[i] == theirs[i] {
									i++
								}
								t.Errorf("frame of %d bytes differs from c-blosc2's %d at byte %d", len(ours), len(theirs), i)
							}
						}
					})
				}
			}
		}
	}
}

// truncRoundTrip returns data as trunc_prec leaves it, chunk by chunk.
func truncRoundTrip(t *testing.T, o blosc.Options, data []byte, cs int) []byte {
	o.Format = blosc.FormatBlosc2
	var out []byte
	for p := data; len(p) > 0; p = p[min(cs, len(p)):] {
		c, err := blosc.Compress(nil, p[:min(cs, len(p))], o)
		if err != nil {
			t.Fatal(err)
		}
		d, err := blosc.Decompress(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d...)
	}
	return out
}

// TestFrameFillSpecialCrossC: a frame filled with a special value (the
// one-offset fast path) is the same bytes as c-blosc2's, and each reads
// the other's.
func TestFrameFillSpecialCrossC(t *testing.T) {
	for _, k := range []struct {
		kind  blosc.Special
		ckind int
	}{{blosc.SpecialZeros, 1}, {blosc.SpecialNaN, 2}, {blosc.SpecialUninit, 4}} {
		for _, nitems := range []int64{1, 99999, 100000, 1_000_003} {
			t.Run(fmt.Sprintf("%v/%d", k.kind, nitems), func(t *testing.T) {
				o := blosc.Options{Codec: blosc.Zstd, Level: 5, Typesize: 8, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: 1}
				s, err := blosc.NewSChunk(blosc.SChunkOptions{Options: o, ChunkSize: 800000})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.AppendSpecial(k.kind, nitems, nil); err != nil {
					t.Fatal(err)
				}
				ours, _ := s.AppendFrame(nil)
				c, err := cblosc2.NewSChunk(cParams(o), "")
				if err != nil {
					t.Fatal(err)
				}
				defer c.Free()
				if err := c.FillSpecial(nitems, k.ckind, 800000); err != nil {
					t.Fatal(err)
				}
				theirs, err := c.ToBuffer()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(ours, theirs) {
					t.Errorf("frame of %d bytes differs from c-blosc2's %d", len(ours), len(theirs))
				}
				cr, err := cblosc2.FromBuffer(ours)
				if err != nil {
					t.Fatal(err)
				}
				defer cr.Free()
				got, err := cr.Decompress(800000)
				want, _ := s.Decompress(nil)
				if err != nil || (k.kind != blosc.SpecialUninit && !bytes.Equal(got, want)) || len(got) != len(want) {
					t.Errorf("c-blosc2 decodes our frame differently (%v)", err)
				}
			})
		}
	}
}

// BenchmarkFrameVersusC alternates Go and c-blosc2 on a frame of 64 KiB
// chunks (256 MiB of input unless GOBLOSC_FRAME_BENCH_MB says otherwise):
// Go's AppendData and Decompress against c-blosc2's
// blosc2_schunk_append_buffer and blosc2_schunk_decompress_chunk loops
// over the same chunks, at 1 and 2 threads, with a memcpy in the same
// rounds. It reports each side's best GB/s and the go/c ratios. C's
// super-chunk is its cheapest in-memory kind (contiguous = false, a list
// of chunk buffers): an in-memory contiguous frame, which c-blosc2
// reallocates and copies on every append, would flatter us.
func BenchmarkFrameVersusC(b *testing.B) {
	n := frametest.BenchBytes(b)
	const cs = 64 << 10
	for _, set := range frametest.BenchSets {
		in := golden.MustPattern(b, set.Pattern, n)
		for _, codec := range []blosc.Codec{blosc.LZ4, blosc.BloscLZ} {
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("n=%dMiB/%s/%v/threads=%d", n>>20, set.Pattern, codec, th), func(b *testing.B) {
					o := blosc.Options{Codec: codec, Level: 5, Typesize: set.Typesize, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}, Threads: th}
					out := make([]byte, n)
					cp := make([]byte, n)
					var tCopy, tGc, tGd, tCc, tCd frametest.Best
					round := func() {
						_ = tCopy.Time(func() error { copy(cp, in); return nil })
						var g *blosc.SChunk
						if err := tGc.Time(func() error {
							var err error
							if g, err = blosc.NewSChunk(blosc.SChunkOptions{Options: o, ChunkSize: cs}); err == nil {
								err = g.AppendData(in)
							}
							return err
						}); err != nil {
							b.Fatal(err)
						}
						if err := tGd.Time(func() error { _, err := g.Decompress(out); return err }); err != nil {
							b.Fatal(err)
						}
						var c *cblosc2.SChunk
						if err := tCc.Time(func() error {
							var err error
							if c, err = cblosc2.NewChunkList(cParams(o)); err != nil {
								return err
							}
							for p := in; len(p) > 0; p = p[min(cs, len(p)):] {
								if err := c.AppendBuffer(p[:min(cs, len(p))]); err != nil {
									return err
								}
							}
							return nil
						}); err != nil {
							b.Fatal(err)
						}
						if err := tCd.Time(func() error {
							for i := 0; i < c.NChunks(); i++ {
								if _, err := c.DecompressChunk(i, out[i*cs:min(n, (i+1)*cs)]); err != nil {
									return err
								}
							}
							return nil
						}); err != nil {
							b.Fatal(err)
						}
						c.Free()
					}
					round()
					for b.Loop() {
						round()
					}
					frametest.ReportSpeeds(b, n, map[string]frametest.Best{"memcpy": tCopy, "go-comp": tGc, "c-comp": tCc,
						"go-dec": tGd, "c-dec": tCd})
					frametest.ReportRatios(b, map[string][2]frametest.Best{"comp-go/c": {tCc, tGc}, "dec-go/c": {tCd, tGd}})
				})
			}
		}
	}
}

// TestFrameFileReadByC: c-blosc2 opens a frame file after every kind of
// change made in place, and after every crash point once OpenFrameFile has
// repaired it. Unrepaired, it reads what OpenFrame reads, but for the one
// state docs/durability.md names: killed after the new header was written
// whole and before the rollback record was removed, c-blosc2 reads the
// frame after the change and this package (which will roll it back) the
// frame before.
func TestFrameFileReadByC(t *testing.T) {
	dir := t.TempDir()
	base := baseFrameFile(t)
	for _, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			s, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			want := stateOf(t, s)
			check := func(b []byte, what string) {
				got, _, err := readByC(t, dir, b)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				r, _ := blosc.ParseFrame(b)
				if wantNow, _ := r.Decompress(nil); !bytes.Equal(got, wantNow) {
					t.Fatalf("%s: c-blosc2 reads other data", what)
				}
			}
			check(f.Bytes(), "after the change")
			if got := stateOf(t, must(blosc.ParseFrame(f.Bytes()))); !got.Equal(want) {
				t.Fatal("the frame's bytes differ")
			}
			before := must(must(blosc.ParseFrame(base)).Decompress(nil))
			after := must(must(blosc.ParseFrame(f.Bytes())).Decompress(nil))
			hlen := frameHeaderLen(t, base)
			for k, w := range f.Log() {
				for _, keep := range []int{0, 1, w.Len / 2, w.Len - 1} {
					ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
					s, err := blosc.OpenFrameFile(ff)
					if err != nil {
						t.Fatal(err)
					}
					_ = op.Do(s)
					// Unrepaired, c-blosc2 opens every file but one whose
					// header write was torn (frame_file.go says why) to
					// the frame before or after.
					what := fmt.Sprintf("write %d of %d bytes at %d, %d landed, unrepaired", k, w.Len, w.Off, keep)
					if torn := keep > 0 && keep < w.Len && w.Off < hlen; !torn {
						left := ff.Bytes()
						checkBeforeOrAfter(t, dir, left, before, after, what)
						cgot, _, _ := readByC(t, dir, left)
						ours := must(must(blosc.OpenFrame(bytes.NewReader(left), int64(len(left)))).Decompress(nil))
						if !bytes.Equal(cgot, ours) {
							newHeader := bytes.Equal(left[:hlen], f.Bytes()[:hlen])
							recordLeft := len(left) > len(f.Bytes())
							if !newHeader || !recordLeft || !bytes.Equal(cgot, after) || !bytes.Equal(ours, before) {
								t.Fatalf("%s: c-blosc2 and OpenFrame read other data", what)
							}
							t.Logf("%s: c-blosc2 reads after, OpenFrame before (the record rolls back)", what)
						}
					}
					_, rf, err := reopen(ff.Bytes())
					if err != nil {
						t.Fatal(err)
					}
					check(rf.Bytes(), fmt.Sprintf("write %d torn at %d, repaired", k, keep))
				}
				if w.Off >= hlen {
					continue
				}
				// The header write torn at every byte: c-blosc2 refuses the
				// file or reads the frame before or after, never another.
				for keep := 1; keep < w.Len; keep++ {
					ff := faultfile.New(base, faultfile.Plan{At: k, Keep: keep})
					s, err := blosc.OpenFrameFile(ff)
					if err != nil {
						t.Fatal(err)
					}
					_ = op.Do(s)
					checkRefusedOrBeforeAfter(t, dir, ff.Bytes(), before, after,
						fmt.Sprintf("header write %d of %d bytes at %d, %d landed, unrepaired", k, w.Len, w.Off, keep))
				}
			}
		})
	}
}

// frameHeaderLen is the header length a frame's bytes declare.
func frameHeaderLen(t *testing.T, b []byte) int64 {
	t.Helper()
	if len(b) < 16 {
		t.Fatal("no frame header")
	}
	return int64(binary.BigEndian.Uint32(b[11:15]))
}

// readByC writes the frame file b to dir and reads it whole with
// c-blosc2: its data and the nbytes it reports, or why it refused.
func readByC(t *testing.T, dir string, b []byte) (data []byte, nbytes int64, err error) {
	t.Helper()
	path := filepath.Join(dir, "c.b2frame")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := cblosc2.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer c.Free()
	data, err = c.Decompress(1 << 20)
	return data, c.Nbytes(), err
}

// checkBeforeOrAfter: c-blosc2 opens the frame file b as it is and reads
// the data before or after the change.
func checkBeforeOrAfter(t *testing.T, dir string, b, before, after []byte, what string) {
	t.Helper()
	got, _, err := readByC(t, dir, b)
	if err != nil {
		t.Fatalf("%s: c-blosc2: %v", what, err)
	}
	if !bytes.Equal(got, before) && !bytes.Equal(got, after) {
		t.Fatalf("%s: c-blosc2 reads neither the data before nor after", what)
	}
}

// checkRefusedOrBeforeAfter: c-blosc2 refuses the frame file b, or reads
// the data before or after the change with a size to match.
func checkRefusedOrBeforeAfter(t *testing.T, dir string, b, before, after []byte, what string) {
	t.Helper()
	got, nbytes, err := readByC(t, dir, b)
	switch {
	case err != nil:
		t.Logf("%s: refused (%v)", what, err)
	case !bytes.Equal(got, before) && !bytes.Equal(got, after):
		t.Errorf("%s: c-blosc2 reads neither the data before nor after", what)
	case nbytes != int64(len(got)):
		t.Errorf("%s: c-blosc2 reads the data of a frame, but says nbytes is %d", what, nbytes)
	default:
		t.Logf("%s: read", what)
	}
}

// TestFrameFileManyChunksReadByC: a frame file of 10,000 chunks, whose
// offsets index a file reads lazily until the first change, is opened by
// c-blosc2 after each kind of change made in place.
func TestFrameFileManyChunksReadByC(t *testing.T) {
	const n = 10000
	o := blosc.SChunkOptions{Options: blosc.Options{Codec: blosc.LZ4, Level: 5, Typesize: 8, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}}, ChunkSize: 16}
	s, err := blosc.NewSChunk(o)
	if err != nil {
		t.Fatal(err)
	}
	co := o.Options
	co.Format = blosc.FormatBlosc2
	chunkOf := func(v uint64) []byte {
		d := make([]byte, 16)
		binary.LittleEndian.PutUint64(d, v)
		binary.LittleEndian.PutUint64(d[8:], v+1)
		return must(blosc.Compress(nil, d, co))
	}
	for i := range n {
		if err := s.AppendChunk(chunkOf(uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	base := must(s.AppendFrame(nil))
	dir := t.TempDir()
	for _, op := range []frametest.Op[*blosc.SChunk]{
		{Name: "AppendChunk", Do: func(s *blosc.SChunk) error { return s.AppendChunk(chunkOf(1 << 40)) }},
		{Name: "InsertChunk", Do: func(s *blosc.SChunk) error { return s.InsertChunk(4321, chunkOf(1<<41)) }},
		{Name: "UpdateChunk", Do: func(s *blosc.SChunk) error { return s.UpdateChunk(5000, chunkOf(1<<42)) }},
		{Name: "DeleteChunk", Do: func(s *blosc.SChunk) error { return s.DeleteChunk(17) }},
		{Name: "AddVLMetalayer", Do: func(s *blosc.SChunk) error { return s.AddVLMetalayer("v", []byte("value")) }},
	} {
		t.Run(op.Name, func(t *testing.T) {
			w, f, err := reopen(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(w); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "f.b2frame")
			if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := cblosc2.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Free()
			got, err := c.Decompress(1 << 20)
			if err != nil {
				t.Fatal(err)
			}
			want := must(must(blosc.ParseFrame(f.Bytes())).Decompress(nil))
			if !bytes.Equal(got, want) || len(want) < 16*(n-1) {
				t.Fatalf("c-blosc2 reads %d bytes, we %d, or other data", len(got), len(want))
			}
		})
	}
}

// TestSparseFrameReadByC: c-blosc2 opens the sparse frames we write, after
// every kind of change.
func TestSparseFrameReadByC(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	baseSparse(t, base)
	for k, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			dir := filepath.Join(root, fmt.Sprint("op", k))
			frametest.CopyDir(t, base, dir)
			s, err := blosc.OpenSparseFrameWritable(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Do(s); err != nil {
				t.Fatal(err)
			}
			want, _ := s.Decompress(nil)
			c, err := cblosc2.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Free()
			got, err := c.Decompress(1 << 20)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("c-blosc2 reads %d bytes of %d (%v)", len(got), len(want), err)
			}
			if m, err := c.Meta("b2nd"); err != nil || len(m) != 5 {
				t.Errorf("c-blosc2 metalayer: %q %v", m, err)
			}
		})
	}
}

// TestSparseFrameErrorsReadByC: c-blosc2 opens a sparse frame whose change
// failed at each call on the directory (a write of a new chunk file, a
// sync, the index's rename...) to the frame before it, stray files the
// failed change left in the directory included, and after a successful
// change to the frame after.
func TestSparseFrameErrorsReadByC(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	baseSparse(t, base)
	b0, err := blosc.OpenSparseFrame(base)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := b0.Decompress(nil)
	run := 0
	for _, op := range fileOps(t) {
		t.Run(op.Name, func(t *testing.T) {
			for k := 0; ; k++ {
				dir := filepath.Join(root, fmt.Sprint("e", run))
				run++
				frametest.CopyDir(t, base, dir)
				// Part of a write lands, so a torn chunk file or index is
				// left where the call failed.
				ffs := &fsys.Faulty{FS: fsys.OS{}, Fail: k, Err: syscall.ENOSPC, Keep: 20}
				fsys.Default = ffs
				s, err := blosc.OpenSparseFrameWritable(dir)
				fsys.Default = fsys.OS{}
				if err != nil {
					if ffs.Failed() {
						continue // the open's own calls
					}
					t.Fatal(err)
				}
				err = op.Do(s)
				if !ffs.Failed() {
					return // past the change's last call
				}
				want := before
				if err == nil {
					want, _ = s.Decompress(nil)
				}
				c, cerr := cblosc2.Open(dir)
				if cerr != nil {
					t.Fatalf("%s failing: c-blosc2 open: %v", ffs.Calls()[k], cerr)
				}
				got, derr := c.Decompress(1 << 20)
				c.Free()
				if derr != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s failing (change: %v): c-blosc2 reads %d bytes, want %d (%v)", ffs.Calls()[k], err, len(got), len(want), derr)
				}
			}
		})
	}
}
