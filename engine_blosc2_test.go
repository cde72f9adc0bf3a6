package blosc

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// Decoding Blosc2 chunks into a reused buffer allocates nothing either.
func TestBlosc2DecodeZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED: allocation counts are meaningless under -race")
	}
	dir, rows := golden.Rows(t, blosc2Kinds...)
	d := &Decompressor{threads: 1}
	checked := 0
	for _, e := range rows {
		src := golden.Read(t, dir, e)
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
	x := golden.MustPattern(t, "linspace_f64", 300000)
	chunk := rawDeltaChunk(x, 8, 16384)
	for _, th := range []int{1, 3} {
		d := &Decompressor{threads: th}
		d.e.parallelMin = 1
		out, err := d.Decompress(nil, chunk)
		if err != nil || !bytes.Equal(out, x) {
			t.Fatalf("threads %d: %v (differs at %d)", th, err, golden.FirstDiff(out, x))
		}
	}
	for _, r := range [][2]int{{0, 1}, {2047, 2}, {2048, 10}, {30000, 7500}, {37499, 1}} {
		got, err := GetItems(nil, chunk, int64(r[0]), int64(r[1]))
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
