package blosc

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// b2ndSidecar is the part of a golden .b2nd file's .json sidecar these
// tests read.
type b2ndSidecar struct {
	Shape      []int  `json:"shape"`
	Chunkshape []int  `json:"chunkshape"`
	Blockshape []int  `json:"blockshape"`
	Typesize   int    `json:"typesize"`
	Filter     int    `json:"filter"`
	SHA256     string `json:"data_sha256"`
}

// unpad2 gathers a C-order array of at most two dimensions from the
// decoded chunks of a b2nd frame: chunks in C order over the chunk grid,
// each padded to chunkshape and stored block by block (blocks in C order
// over the chunk's block grid, each block in C order).
func unpad2(t *testing.T, sc b2ndSidecar, chunks [][]byte) []byte {
	t.Helper()
	shape, cs, bs := sc.Shape, sc.Chunkshape, sc.Blockshape
	for len(shape) < 2 {
		shape, cs, bs = append([]int{1}, shape...), append([]int{1}, cs...), append([]int{1}, bs...)
	}
	ts := sc.Typesize
	gridC := (shape[1] + cs[1] - 1) / cs[1]
	blocksC := (cs[1] + bs[1] - 1) / bs[1]
	blockLen := bs[0] * bs[1]
	out := make([]byte, 0, shape[0]*shape[1]*ts)
	for r := 0; r < shape[0]; r++ {
		for c := 0; c < shape[1]; c++ {
			ch := chunks[(r/cs[0])*gridC+c/cs[1]]
			lr, lc := r%cs[0], c%cs[1]
			blk := (lr/bs[0])*blocksC + lc/bs[1]
			off := (blk*blockLen + (lr%bs[0])*bs[1] + lc%bs[1]) * ts
			if off+ts > len(ch) {
				t.Fatalf("element (%d, %d) at byte %d of a %d-byte chunk", r, c, off, len(ch))
			}
			out = append(out, ch[off:off+ts]...)
		}
	}
	return out
}

// TestPluginFiltersGolden decodes every chunk of the b2nd frames
// c-blosc2 wrote with bytedelta and int_trunc, and checks the array they
// make against the sidecar's SHA-256.
func TestPluginFiltersGolden(t *testing.T) {
	dir := filepath.Join(golden.Dir(t), "b2nd")
	for _, name := range []string{"nd05_f8_2d_bytedelta", "nd06_i8_1d_int_trunc"} {
		t.Run(name, func(t *testing.T) {
			var sc b2ndSidecar
			js, err := os.ReadFile(filepath.Join(dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(js, &sc); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, name+".b2nd"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := OpenFrameBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			var chunks [][]byte
			seen := false
			for i := 0; i < s.Nchunks(); i++ {
				c, err := s.Chunk(nil, i)
				if err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
				h, err := ReadHeader(c)
				if err != nil {
					t.Fatalf("chunk %d header: %v", i, err)
				}
				for k, f := range h.Filters {
					if int(f) == sc.Filter {
						seen = true
						t.Logf("chunk %d: %s in slot %d, meta %d, typesize %d, blocksize %d", i, f, k, h.FilterMeta[k], h.Typesize, h.Blocksize)
					}
				}
				d, err := s.DecompressChunk(nil, i)
				if err != nil {
					t.Fatalf("chunk %d: %v", i, err)
				}
				chunks = append(chunks, d)
			}
			if !seen {
				t.Fatalf("no chunk uses filter %d", sc.Filter)
			}
			got := unpad2(t, sc, chunks)
			sum := sha256.Sum256(got)
			if hex.EncodeToString(sum[:]) != sc.SHA256 {
				t.Errorf("array SHA-256 %x, sidecar says %s", sum, sc.SHA256)
			}
		})
	}
}
