package blosc

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/codec"
	"github.com/goblosc/blosc/internal/golden"
)

// allocatedBy returns the bytes f allocated on the heap.
func allocatedBy(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// allocLimit is the most a decode of src may allocate: what the stored
// bytes can expand to under the codec's bound (the rule ReadHeader
// enforces), plus a fixed allowance for decoder tables.
func allocLimit(src []byte) uint64 {
	ratio := codec.MaxExpansion(codec.Zstd)
	if len(src) >= 3 {
		if c, ok := blosc1CodecFromCode(src[2] >> 5); ok {
			ratio = codec.MaxExpansion(codec.ID(c))
		}
	}
	return uint64(len(src))*uint64(ratio) + 1<<20
}

// Every mutated chunk returns an error or the right bytes, never panics,
// and allocates no more than its bytes justify.
func TestCorruptBlosc1(t *testing.T) {
	dir, rows := golden.Rows(t, "corrupt-blosc1")
	_, all := golden.Rows(t)
	outSHA := map[string]string{}
	for _, e := range all {
		outSHA[e.File] = e.OutSHA256
	}
	// Decoders warmed up once, so that their one-time tables are not
	// counted against a corrupt input.
	d := &Decompressor{threads: 1}
	warm := map[Codec]bool{}
	for _, e := range all {
		if e.Kind != "blosc1-chunk" || strings.Contains(e.File, "_mt2") {
			continue
		}
		c, _ := ParseCodec(e.Codec)
		if warm[c] {
			continue
		}
		warm[c] = true
		src := golden.Read(t, dir, e)
		if _, err := d.Decompress(nil, src); err != nil {
			t.Fatalf("warming up on %s: %v", e.File, err)
		}
	}
	for _, e := range rows {
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			src := golden.Read(t, dir, e)
			base, _ := e.Note("base")
			want, ok := outSHA[base]
			if !ok {
				want, ok = outSHA[strings.TrimSuffix(base, ".blosc1")+"_mt2.blosc1"]
			}
			if !ok {
				t.Fatalf("no expected output for base %q", base)
			}
			var out []byte
			var derr error
			n := allocatedBy(func() { out, derr = d.Decompress(nil, src) })
			if derr == nil && golden.SHA256(out) != want {
				t.Fatalf("decoded without error to wrong bytes (%d bytes)", len(out))
			}
			if derr != nil && !errors.Is(derr, ErrCorrupt) && !errors.Is(derr, ErrUnsupported) {
				t.Errorf("error %v wraps neither ErrCorrupt nor ErrUnsupported", derr)
			}
			if lim := allocLimit(src); n > lim {
				t.Errorf("Decompress allocated %d bytes for a %d-byte input (limit %d)", n, len(src), lim)
			}
			t.Logf("%d bytes: err=%v, allocated %d", len(src), derr, n)

			// GetItem over the whole range must agree with Decompress.
			h, herr := ReadHeader(src)
			if herr != nil {
				if derr == nil {
					t.Fatalf("ReadHeader failed (%v) where Decompress succeeded", herr)
				}
				return
			}
			var items []byte
			var gerr error
			n = allocatedBy(func() { items, gerr = d.GetItems(nil, src, 0, int64(h.Nbytes/h.Typesize)) })
			if lim := allocLimit(src); n > lim {
				t.Errorf("GetItem allocated %d bytes (limit %d)", n, lim)
			}
			if gerr == nil && derr == nil && string(items) != string(out[:len(items)]) {
				t.Errorf("GetItem disagrees with Decompress")
			}
			if gerr == nil && derr != nil && h.Nbytes%h.Typesize == 0 {
				t.Errorf("GetItem of every item succeeded where Decompress failed: %v", derr)
			}
		})
	}
}

// A header claiming a huge size over a tiny body is refused before the
// size is allocated, for every codec.
func TestHugeClaimRejectedBeforeAllocation(t *testing.T) {
	for c := BloscLZ; c <= Zstd; c++ {
		src := make([]byte, 100)
		src[0], src[1], src[2], src[3] = blosc1Version, versionLZ, codecCode(c)<<5|flagDontSplit, 1
		binary.LittleEndian.PutUint32(src[4:], uint32(blosc1MaxBufferSize))
		binary.LittleEndian.PutUint32(src[8:], uint32(blosc1MaxBufferSize))
		binary.LittleEndian.PutUint32(src[12:], 100)
		binary.LittleEndian.PutUint32(src[16:], 20)
		binary.LittleEndian.PutUint32(src[20:], 80)
		var err error
		n := allocatedBy(func() { _, err = Decompress(nil, src) })
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", c, err)
		}
		if n > 1<<20 {
			t.Errorf("%s: allocated %d bytes before refusing", c, n)
		}
		// Same lie with many small blocks: the offsets table cannot fit.
		binary.LittleEndian.PutUint32(src[8:], 4096)
		n = allocatedBy(func() { _, err = Decompress(nil, src) })
		if !errors.Is(err, ErrCorrupt) || n > 1<<20 {
			t.Errorf("%s, small blocks: err = %v, allocated %d", c, err, n)
		}
	}
}
