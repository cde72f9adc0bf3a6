package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func blosc2Rows(t testing.TB) (string, []golden.Entry) {
	t.Helper()
	dir := golden.Dir(t)
	es, err := golden.Manifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rows []golden.Entry
	for _, e := range es {
		switch e.Kind {
		case "blosc2-chunk", "blosc2-special-chunk", "blosc2-vlblocks-chunk":
			rows = append(rows, e)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no Blosc2 chunk rows")
	}
	return dir, rows
}

// Every chunk c-blosc2 wrote decodes to what C decoded (or, where notes
// record a C bug, to the bytes C got right).
func TestGoldenBlosc2Decode(t *testing.T) {
	dir, rows := blosc2Rows(t)
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			h, err := ReadHeader(src)
			if err != nil {
				t.Fatalf("ReadHeader: %v", err)
			}
			if h.Format != FormatBlosc2 || h.Typesize != e.Typesize || int64(h.Nbytes) != e.Nbytes ||
				int64(le32(src[8:])) != e.Blocksize || int64(h.Cbytes) != e.Cbytes {
				t.Errorf("header %+v, manifest typesize/nbytes/blocksize/cbytes %d/%d/%d/%d", h, e.Typesize, e.Nbytes, e.Blocksize, e.Cbytes)
			}
			if e.Kind == "blosc2-chunk" {
				if c, _ := ParseCodec(e.Codec); h.Codec != c {
					t.Errorf("codec %s, manifest %s", h.Codec, e.Codec)
				}
			}
			for _, threads := range []int{1, 2} {
				out, err := (&Decompressor{Threads: threads}).Decompress(nil, src)
				if err != nil {
					t.Fatalf("threads %d: Decompress: %v", threads, err)
				}
				checkOut(t, dir, e, out)
			}
			// GetItem of a middle range agrees.
			ts := h.Typesize
			if h.Special == SpecialValue {
				ts = h.Cbytes - blosc2HeaderLen
			}
			if items := h.Nbytes / ts; items > 2 {
				full, _ := Decompress(nil, src)
				for _, r := range [][2]int{{items / 3, items / 2}, {items - 1, 1}, {0, items}, {items / 2, items - items/2}} {
					got, err := GetItem(nil, src, r[0], r[1])
					if err != nil || !bytes.Equal(got, full[r[0]*ts:(r[0]+r[1])*ts]) {
						t.Fatalf("GetItem(%d, %d): %v", r[0], r[1], err)
					}
				}
			}
		})
	}
}

func checkOut(t *testing.T, dir string, e golden.Entry, out []byte) {
	t.Helper()
	for _, kv := range strings.Split(e.Notes, ";") {
		if v, ok := strings.CutPrefix(kv, "compare_only_first_"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(v, "_bytes"))
			if err != nil {
				t.Fatalf("notes %q", kv)
			}
			want, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(e.File, ".b2chunk")+".out"))
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != int(e.Nbytes) || !bytes.Equal(out[:n], want[:n]) {
				t.Fatalf("first %d bytes differ from C's", n)
			}
			return
		}
	}
	if got := sha(out); got != e.OutSHA256 {
		t.Fatalf("output sha256 %s, want %s", got, e.OutSHA256)
	}
}

// Every mutated Blosc2 chunk returns an error or the right bytes, never
// panics, and allocates no more than its bytes justify.
func TestCorruptBlosc2(t *testing.T) {
	dir, rows := manifestRows(t, "corrupt-blosc2")
	all, _ := golden.Manifest(dir)
	outSHA := map[string]string{}
	for _, e := range all {
		outSHA[e.File] = e.OutSHA256
	}
	d := &Decompressor{Threads: 1}
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			base, _ := noteValue(e.Notes, "base")
			var out []byte
			var derr error
			n := allocatedBy(func() { out, derr = d.Decompress(nil, src) })
			t.Logf("%d bytes: err=%v, allocated %d", len(src), derr, n)
			if derr != nil {
				if !errors.Is(derr, ErrCorrupt) && !errors.Is(derr, ErrUnsupported) {
					t.Errorf("error %v wraps neither ErrCorrupt nor ErrUnsupported", derr)
				}
			} else if want, ok := outSHA[base]; !ok {
				t.Fatalf("decoded a mutation of %q, whose output is unknown", base)
			} else if sha(out) != want {
				h, _ := ReadHeader(src)
				if h.Special == SpecialNone {
					t.Fatalf("decoded without error to wrong bytes (%d)", len(out))
				}
				// A special chunk is only its header: a mutated header is a
				// different, valid chunk.
			}
			h, herr := ReadHeader(src)
			limit := allocLimit(src)
			if herr == nil && h.Special != SpecialNone {
				limit += uint64(h.Nbytes) // a special chunk justifies its size
			}
			if herr == nil && h.Format == FormatBlosc2 {
				limit += uint64(h.Nbytes) // zero and byte runs justify theirs
			}
			if n > limit {
				t.Errorf("allocated %d bytes for a %d-byte input (limit %d)", n, len(src), limit)
			}
		})
	}
}

// Decoding Blosc2 chunks into a reused buffer allocates nothing either.
func TestBlosc2DecodeZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED: allocation counts are meaningless under -race")
	}
	dir, rows := blosc2Rows(t)
	d := &Decompressor{Threads: 1}
	checked := 0
	for _, e := range rows {
		src, err := os.ReadFile(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatal(err)
		}
		h, err := ReadHeader(src)
		if err != nil || h.Dict {
			continue // a dictionary builds a zstd decoder per dictionary
		}
		dst := make([]byte, h.Nbytes)
		d.Decompress(dst, src)
		if a := testing.AllocsPerRun(5, func() { d.Decompress(dst, src) }); a != 0 {
			t.Errorf("%s: %v allocs", e.File, a)
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d chunks checked", checked)
	}
}

// rawDeltaChunk builds a Blosc2 chunk whose blocks are stored raw after
// c-blosc2's XOR delta (block 0 against its previous element, the others
// against block 0), so multi-block delta decoding can be checked at any
// block count.
func rawDeltaChunk(x []byte, typesize, blocksize int) []byte {
	n := len(x)
	nblocks := (n + blocksize - 1) / blocksize
	chunk := make([]byte, blosc2HeaderLen+4*nblocks, blosc2HeaderLen+4*nblocks+n+4*nblocks)
	chunk[0], chunk[1], chunk[2], chunk[3] = 5, 1, flagShuffle|flagBitShuffle|flagDontSplit, byte(typesize)
	binary.LittleEndian.PutUint32(chunk[4:], uint32(n))
	binary.LittleEndian.PutUint32(chunk[8:], uint32(blocksize))
	chunk[16] = byte(Delta)
	for j := 0; j < nblocks; j++ {
		blk := x[j*blocksize : min(n, (j+1)*blocksize)]
		enc := bytes.Clone(blk)
		whole := len(blk) / typesize * typesize
		for i := 0; i < whole; i++ {
			if j == 0 {
				if i >= typesize {
					enc[i] = blk[i] ^ blk[i-typesize]
				}
			} else {
				enc[i] = blk[i] ^ x[i]
			}
		}
		binary.LittleEndian.PutUint32(chunk[blosc2HeaderLen+4*j:], uint32(len(chunk)))
		chunk = binary.LittleEndian.AppendUint32(chunk, uint32(len(enc)))
		chunk = append(chunk, enc...)
	}
	binary.LittleEndian.PutUint32(chunk[12:], uint32(len(chunk)))
	return chunk
}

func TestBlosc2DeltaBlocks(t *testing.T) {
	x := pattern(t, "linspace_f64", 300000)
	chunk := rawDeltaChunk(x, 8, 16384)
	for _, th := range []int{1, 3} {
		d := &Decompressor{Threads: th}
		d.e.parallelMin = 1
		out, err := d.Decompress(nil, chunk)
		if err != nil || !bytes.Equal(out, x) {
			t.Fatalf("threads %d: %v (differs at %d)", th, err, firstDiff(out, x))
		}
	}
	for _, r := range [][2]int{{0, 1}, {2047, 2}, {2048, 10}, {30000, 7500}, {37499, 1}} {
		got, err := GetItem(nil, chunk, r[0], r[1])
		if err != nil || !bytes.Equal(got, x[r[0]*8:(r[0]+r[1])*8]) {
			t.Fatalf("GetItem(%d, %d): %v", r[0], r[1], err)
		}
	}
	// A block's reference is block 0: damaging block 0 changes later
	// blocks, which a decoder ignoring the reference would not notice.
	bad := bytes.Clone(chunk)
	bad[blosc2HeaderLen+4*19+4+100] ^= 1
	out, _ := Decompress(nil, bad)
	if bytes.Equal(out[16384+100:16384+101], x[16384+100:16384+101]) {
		t.Fatal("block 1 does not depend on block 0")
	}
}
