package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/schunkhook"
	"github.com/goblosc/blosc/internal/testrand"
)

// unshuffleStreams reads each stream through its own pointer: every stream
// and the output sit against a guard page, at either end, so a kernel that
// reads or writes a byte outside them faults, and the result must be the
// portable unshuffle of the streams laid side by side.
func TestUnshuffleStreamsMatchesOracle(t *testing.T) {
	if !canUnshuffleStreams(4, 64) {
		t.Skip("SKIPPED: no kernel reads streams through separate pointers on this CPU or build")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ts := range []int{2, 4, 8, 16} {
		for _, n := range []int{64, 65, 100, 127, 128, 129, 191, 192, 193, 1000, 4096, 4099} {
			for _, side := range []guard.Side{guard.End, guard.Start} {
				at := func(b []byte, k int) []byte {
					if side == guard.End {
						return b[len(b)-k:]
					}
					return b[:k:k]
				}
				var bufs [16]*guard.Buffer
				joined := make([]byte, 0, ts*n)
				var streams [16]*byte
				for j := 0; j < ts; j++ {
					g := guard.New(n, side)
					bufs[j] = g
					s := at(g.Bytes, n)
					testrand.Fill(rng, s)
					streams[j] = &s[0]
					joined = append(joined, s...)
				}
				want := make([]byte, ts*n)
				unshuffleGeneric(want, joined, ts)
				g := guard.New(ts*n, side)
				got := at(g.Bytes, ts*n)
				unshuffleStreams(got, &streams, ts, n)
				if !bytes.Equal(got, want) {
					t.Fatalf("ts=%d n=%d side=%d: %s", ts, n, side, diffReport(got, want))
				}
				g.Free()
				for _, b := range bufs[:ts] {
					b.Free()
				}
			}
		}
	}
}

// noisyLowBytes returns n elements of ts bytes whose two low bytes are
// noise (streams a codec stores raw), the next one slowly changing
// (compressed), the fourth constant (a run) and the rest zero; at
// typesize 2, one byte of noise and one slowly changing.
func noisyLowBytes(rng *rand.Rand, n, ts int) []byte {
	b := make([]byte, n*ts)
	for i := 0; i < n; i++ {
		e := b[i*ts : (i+1)*ts]
		e[0] = byte(rng.Uint32())
		if ts == 2 {
			e[1] = byte(i / 97)
			continue
		}
		e[1] = byte(rng.Uint32())
		e[2] = byte(i / 97)
		if ts > 3 {
			e[3] = 0x40 // a run stream
		}
	}
	return b
}

// streamKinds counts the streams of a split Blosc2 chunk stored raw, the
// zero ones and the others.
func streamKinds(t *testing.T, chunk []byte) (raw, zero, other int) {
	t.Helper()
	c, err := openChunk2(chunk)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < c.nblocks; i++ {
		nstreams, neblock, err := c.streams(i)
		if err != nil {
			t.Fatal(err)
		}
		p := c.bstart(i)
		for j := 0; j < nstreams; j++ {
			n, err := scanStream(c.src[p:], neblock, c.codec)
			if err != nil {
				t.Fatal(err)
			}
			switch int(int32(binary.LittleEndian.Uint32(c.src[p:]))) {
			case neblock:
				raw++
			case 0:
				zero++
			default:
				other++
			}
			p += n
		}
	}
	return raw, zero, other
}

// Blocks whose streams are partly stored raw or zero decode the same
// through decodeBlockStreams (the AVX-512 level) as through scratch (the
// portable level): typesizes with a kernel and without, streams whose
// length is and is not a multiple of the kernels' 64-element blocks, a
// trailing block that is not split, and a chunk decoded by several
// workers.
func TestBlosc2RawStreamsInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Reused across the cases, so every chunk meets scratch buffers that
	// the ones before left dirty.
	ds := map[int]*Decompressor{}
	for _, threads := range []int{1, 3} {
		d, err := NewDecompressor(DecompressOptions{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		ds[threads] = d
	}
	for _, ts := range []int{2, 3, 4, 8, 16} {
		for _, bs := range []int{0, 1000 * ts, 4096 * ts} {
			for _, codec := range []Codec{BloscLZ, LZ4} {
				n := 3*4096 + 77
				in := noisyLowBytes(rng, n, ts)
				if ts >= 8 {
					// Small integers: zero streams beside compressed
					// ones and none raw.
					in = in[:0]
					for k := 0; k < n; k++ {
						in = binary.LittleEndian.AppendUint64(in, uint64(k*3))
						in = append(in, make([]byte, ts-8)...)
					}
				}
				o := Options{Format: FormatBlosc2, Codec: codec, Level: 5, Typesize: ts, Blocksize: bs,
					Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1}
				chunk, err := Compress(nil, in, o)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("ts=%d/bs=%d/%v", ts, bs, codec)
				raw, zero, other := streamKinds(t, chunk)
				if (raw == 0 && zero == 0) || other == 0 {
					t.Fatalf("%s: %d raw, %d zero and %d other streams; the test wants raw or zero ones beside others", name, raw, zero, other)
				}
				for _, threads := range []int{1, 3} {
					d := ds[threads]
					got := make([]byte, len(in))
					if _, err := d.Decompress(got, chunk); err != nil || !bytes.Equal(got, in) {
						t.Fatalf("%s threads=%d: %v\n%s", name, threads, err, diffReport(got, in))
					}
					restore := forceShuffleLevel(cpu.Generic)
					clear(got)
					_, err = d.Decompress(got, chunk)
					restore()
					if err != nil || !bytes.Equal(got, in) {
						t.Fatalf("%s threads=%d portable: %v", name, threads, err)
					}
				}
			}
		}
	}
}

// A raw stream cut short, or one whose size claims more than the chunk
// holds, is refused by decodeBlockStreams as by the copying path; the
// decoder keeps no pointer into the chunk either way.
func TestBlosc2RawStreamsCorrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	in := noisyLowBytes(rng, 8192, 4)
	chunk, err := Compress(nil, in, Options{Format: FormatBlosc2, Codec: BloscLZ, Level: 5, Typesize: 4,
		Filters: [MaxFilters]Filter{5: ByteShuffle}, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := openChunk2(chunk)
	if err != nil {
		t.Fatal(err)
	}
	_, neblock, _ := c.streams(0)
	st := &decodeState{}
	out := make([]byte, c.blockSize(0))
	bs := c.bstart(0)
	// Every stream start of block 0 cut to every prefix length near it.
	p := bs
	for j := 0; j < 4; j++ {
		n, err := scanStream(chunk[p:], neblock, c.codec)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{p + 2, p + 4, p + n - 1} {
			src := chunk[bs:cut:cut]
			err := c.decodeBlockFrom(out, nil, 0, src, st, &workerState{})
			if err == nil {
				t.Fatalf("stream %d cut at %d: no error", j, cut-p)
			}
			if st.streams != [16]*byte{} {
				t.Fatalf("stream %d cut at %d: pointers left in the decode state", j, cut-p)
			}
		}
		p += n
	}
}

// TestChunkReaderEveryBlockPart reads, through ChunkReader.ReadAt, ranges
// starting at every byte of chunks whose only filter to undo is a byte
// shuffle, typesizes 1 to 16, split into streams (some stored raw, some
// zero, some runs, some compressed) or not, with a short last block whose
// size the typesize does not divide; each range ends a few bytes after
// its start or a few bytes before the end of its block, or anywhere. The
// chunk ends against a guard page, and the output sits against one at
// either end, so a stream or output read or written past its end faults;
// every range must match the chunk's full decode. Where unshuffleStreams
// can take a range's whole items, decodeBlockPart must take the range.
func TestChunkReaderEveryBlockPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for ts := 1; ts <= 16; ts++ {
		if testing.Short() && ts&(ts-1) != 0 && ts != 3 {
			continue
		}
		bs := 130 * ts
		nbytes := 2*bs + 70*ts + 3
		data := make([]byte, nbytes)
		if ts > 1 {
			data = noisyLowBytes(rng, (nbytes+ts-1)/ts, ts)[:nbytes]
		} else {
			testrand.Fill(rng, data[:nbytes/2])
		}
		for _, split := range []SplitMode{SplitAlways, SplitNever} {
			o := Options{Format: FormatBlosc2, Codec: LZ4, Level: 5, Typesize: ts, Blocksize: bs,
				Filters: [MaxFilters]Filter{5: ByteShuffle}, SplitMode: split}
			c, err := Compress(nil, data, o)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Decompress(nil, c)
			if err != nil || !bytes.Equal(want, data) {
				t.Fatalf("ts=%d split=%d: round trip: %v", ts, split, err)
			}
			gc := guard.New(len(c), guard.End)
			gsrc := gc.Bytes[len(gc.Bytes)-len(c):]
			copy(gsrc, c)
			cr, err := NewChunkReader(gsrc)
			if err != nil {
				t.Fatal(err)
			}
			if cr.c.h.blocksize != bs || cr.c.nblocks != 3 {
				t.Fatalf("ts=%d: blocksize %d, %d blocks", ts, cr.c.h.blocksize, cr.c.nblocks)
			}
			side := guard.Side(ts % 2)
			gout := guard.New(bs, side)
			at := func(n int) []byte {
				if side == guard.End {
					return gout.Bytes[len(gout.Bytes)-n:]
				}
				return gout.Bytes[:n:n]
			}
			var st decodeState
			var ws workerState
			parts := 0
			check := func(lo, hi int) {
				p := at(hi - lo)
				if _, err := cr.ReadAt(p, int64(lo)); err != nil || !bytes.Equal(p, want[lo:hi]) {
					t.Fatalf("ts=%d split=%d: ReadAt [%d, %d): %v", ts, split, lo, hi, err)
				}
				j := lo / bs
				bstart := j * bs
				bsize := cr.c.blockSize(j)
				if hi > bstart+bsize || ts < 2 {
					return
				}
				n := bsize / ts
				a0, a1 := (lo-bstart+ts-1)/ts, min(hi-bstart, n*ts)/ts
				kernel := a1-a0 >= 64 && canUnshuffleStreams(ts, 64)
				if hi > lo && schunkhook.ReadsPart(cr, int64(lo), hi-lo) != kernel {
					t.Fatalf("ts=%d split=%d: ReadsPart [%d, %d) is %v", ts, split, lo, hi, !kernel)
				}
				if !kernel {
					return
				}
				clear(p)
				done, err := cr.c.decodeBlockPart(p, j, lo-bstart, &st, &ws)
				if err != nil || !done || !bytes.Equal(p, want[lo:hi]) {
					t.Fatalf("ts=%d split=%d: decodeBlockPart [%d, %d): done %v, %v", ts, split, lo, hi, done, err)
				}
				parts++
			}
			for lo := range nbytes {
				bend := min(nbytes, (lo/bs+1)*bs)
				for k := range ts + 2 {
					if lo+k <= nbytes {
						check(lo, lo+k)
					}
					if bend-k > lo {
						check(lo, bend-k)
					}
				}
				check(lo, lo+rng.IntN(min(bs, nbytes-lo)+1))
			}
			for _, r := range [][2]int64{{-1, 1}, {0, 0}, {0, -1}, {int64(nbytes), 1}, {int64(nbytes) - 1, 2}, {0, int64(nbytes)}, {int64(bs) - 1, int64(bs)}} {
				if schunkhook.ReadsPart(cr, r[0], int(r[1])) {
					t.Fatalf("ts=%d split=%d: ReadsPart(%d, %d) for bytes outside one block", ts, split, r[0], r[1])
				}
			}
			for j := int64(-1); j <= 3; j++ {
				whole := j >= 0 && j < 2 && ts > 1
				called := false
				ok, err := schunkhook.ReadBlockStreams(cr, j, ts, func(ss *[16][]byte) {
					called = true
					for e := range bs / ts {
						for b := range ts {
							if ss[b][e] != want[int(j)*bs+e*ts+b] {
								t.Fatalf("ts=%d split=%d: ReadBlockStreams of block %d: byte %d of item %d differs", ts, split, j, b, e)
							}
						}
					}
				})
				if err != nil || ok != whole || called != whole {
					t.Fatalf("ts=%d split=%d: ReadBlockStreams of block %d: %v, %v (called %v)", ts, split, j, ok, err, called)
				}
				if ok, _ := schunkhook.ReadBlockStreams(cr, j, ts+1, func(*[16][]byte) { t.Fatal("called") }); ok {
					t.Fatalf("ts=%d split=%d: ReadBlockStreams of block %d for typesize %d", ts, split, j, ts+1)
				}
			}
			if canUnshuffleStreams(ts, 64) && parts == 0 {
				t.Errorf("ts=%d split=%d: no range took unshuffleStreams", ts, split)
			}
			gout.Free()
			gc.Free()
		}
	}
}

// unshuffleRowsStreams writes rows of a block's streams straight into
// their places: every stream and the output sit against a guard page, at
// either end, so a kernel that reads or writes a byte outside the rows
// (a row's last elements go through masks) faults, and every byte of the
// output must be the row's item or left as it was.
func TestUnshuffleRowsMatchesOracle(t *testing.T) {
	ran := 0
	for _, k := range runnableKernels(t) {
		restore := forceShuffleLevel(k.Level)
		for _, ts := range []int64{2, 4, 8} {
			if canUnshuffleRows(int(ts)) {
				ran++
				testUnshuffleRows(t, k.Name(), ts)
			}
		}
		restore()
	}
	if ran == 0 {
		t.Skip("SKIPPED: no kernel unshuffles rows of streams on this CPU or build")
	}
}

func testUnshuffleRows(t *testing.T, kernel string, ts int64) {
	rng := rand.New(rand.NewPCG(5, uint64(ts)))
	for _, r := range rowLengths {
		row := int64(r)
		for _, n1 := range []int64{1, 2, 3, 16} {
			for _, side := range []guard.Side{guard.End, guard.Start} {
				ss1 := row + rng.Int64N(20)
				ds1 := row + rng.Int64N(20)
				if n1 > 1 && rng.IntN(4) == 0 {
					ss1 = rng.Int64N(row + 1) // rows that share items
				}
				sp, dp := rng.Int64N(30), rng.Int64N(30)
				if side == guard.Start {
					sp, dp = 0, 0
				}
				n := sp + (n1-1)*ss1 + row
				nd := dp + (n1-1)*ds1 + row
				var streams [16][]byte
				var bufs []*guard.Buffer
				for j := range ts {
					b := guard.New(int(n), side)
					bufs = append(bufs, b)
					for k := range b.Bytes {
						b.Bytes[k] = byte(rng.Uint32())
					}
					streams[j] = b.Bytes
				}
				gd := guard.New(int(nd*ts), side)
				dst := gd.Bytes
				for k := range dst {
					dst[k] = 0xa5
				}
				want := bytes.Clone(dst)
				for k := range n1 {
					for e := range row {
						for j := range ts {
							want[(dp+k*ds1+e)*ts+int64(j)] = streams[j][sp+k*ss1+e]
						}
					}
				}
				if row < int64(rowsMinItems()) {
					// Left to the copies, but the kernel takes it all
					// the same.
					if unshuffleRowsStreams(dst, &streams, int(ts), dp, sp, row, n1, ds1, ss1) {
						t.Fatalf("%s ts %d row %d: took a row shorter than %d items", kernel, ts, row, rowsMinItems())
					}
					var p [16]*byte
					for j := range ts {
						p[j] = &streams[j][0]
					}
					unshuffleRows(dst[dp*ts:], &p, int(ts), int(sp), int(row), int(n1), int(ds1*ts), int(ss1))
				} else if !unshuffleRowsStreams(dst, &streams, int(ts), dp, sp, row, n1, ds1, ss1) {
					t.Fatalf("%s ts %d row %d n1 %d: refused rows inside the buffers", kernel, ts, row, n1)
				}
				if !bytes.Equal(dst, want) {
					t.Fatalf("%s ts %d row %d n1 %d ss1 %d ds1 %d side %d: output differs:\n%s", kernel, ts, row, n1, ss1, ds1, side, diffReport(dst, want))
				}
				// One element more, or one row further, is refused and
				// writes nothing.
				for _, bad := range [][5]int64{{dp, sp, row + 1, n1, ds1}, {dp + 1, sp, row, n1, ds1}, {dp, sp + 1, row, n1, ds1}, {dp, sp, row, n1 + 1, max(ds1, 1)}, {-1, sp, row, n1, ds1}, {dp, sp, 0, n1, ds1}} {
					before := bytes.Clone(dst)
					if unshuffleRowsStreams(dst, &streams, int(ts), bad[0], bad[1], bad[2], bad[3], bad[4], max(ss1, 1)) {
						t.Fatalf("row %d n1 %d: took rows outside the buffers %v", row, n1, bad)
					}
					if !bytes.Equal(dst, before) {
						t.Fatalf("row %d n1 %d: a refused call wrote", row, n1)
					}
				}
				gd.Free()
				for _, b := range bufs {
					b.Free()
				}
			}
		}
	}
}

// Without a kernel (other CPUs, -tags purego) or for other item sizes,
// schunkhook.UnshuffleRows takes nothing, and b2nd gathers the rows in Go.
func TestUnshuffleRowsRefusesWithoutKernel(t *testing.T) {
	var streams [16][]byte
	for j := range streams {
		streams[j] = make([]byte, 64)
	}
	dst := make([]byte, 16*64)
	for _, ts := range []int{2, 4, 8, 16} {
		got := schunkhook.UnshuffleRows(dst, &streams, ts, 0, 0, 16, 1, 16, 16)
		if want := schunkhook.UnshufflesRows(ts, 16); got != want {
			t.Errorf("ts %d: UnshuffleRows took the rows: %v, UnshufflesRows says %v", ts, got, want)
		}
	}
	restore := forceShuffleLevel(cpu.Generic)
	defer restore()
	if schunkhook.UnshufflesRows(8, 16) || schunkhook.UnshuffleRows(dst, &streams, 8, 0, 0, 16, 1, 16, 16) {
		t.Error("the portable level took rows through a kernel")
	}
}
