package blosc

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestSpecialConstructorsGolden: our constructors write the very bytes
// c-blosc2's blosc2_chunk_zeros/nans/repeatval wrote for each vector.
func TestSpecialConstructorsGolden(t *testing.T) {
	dir, es := golden.Rows(t, blosc2Kinds...)
	n := 0
	for _, e := range es {
		if e.Kind != "blosc2-special-chunk" {
			continue
		}
		n++
		t.Run(filepath.Base(e.File), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			nb := int(e.Nbytes)
			switch sp := note(e, "special"); sp {
			case "zeros":
				got, err = ZerosChunk(nil, nb, e.Typesize)
			case "nans":
				got, err = NaNChunk(nil, nb, e.Typesize)
			case "repeatval":
				v, herr := hex.DecodeString(strings.TrimPrefix(e.Pattern, "repeatval_"))
				if herr != nil {
					t.Fatal(herr)
				}
				if len(v) != e.Typesize {
					// The pattern names a number, not its bytes (repeatval_42).
					v = want[header2Len:]
				}
				got, err = ValueChunk(nil, nb, v)
			default:
				t.Fatalf("special %q", sp)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("\n got %x\nwant %x", got, want)
			}
			var st decodeState
			out, err := decompress2(nil, got, &st, &testCodec{})
			if err != nil || len(out) != nb {
				t.Fatalf("decode: %d bytes, %v", len(out), err)
			}
		})
	}
	if n == 0 {
		t.Fatal("no special vectors")
	}
}

func TestSpecialConstructors(t *testing.T) {
	var st decodeState
	cd := &testCodec{}
	for _, nb := range []int{0, 8, 24, 4096, 1 << 20} {
		z, err := ZerosChunk(nil, nb, 8)
		if err != nil {
			t.Fatal(err)
		}
		out, err := decompress2(nil, z, &st, cd)
		if err != nil || len(out) != nb || !bytes.Equal(out, make([]byte, nb)) {
			t.Fatalf("zeros %d: %v", nb, err)
		}
		u, _ := UninitChunk(nil, nb, 8)
		if out, err := decompress2(bytes.Repeat([]byte{1}, nb), u, &st, cd); err != nil || len(out) != nb {
			t.Fatalf("uninit %d: %v", nb, err)
		}
		v := []byte{1, 2, 3, 4, 5, 6, 7, 8}
		rc, _ := ValueChunk(nil, nb, v)
		out, err = decompress2(nil, rc, &st, cd)
		if err != nil || !bytes.Equal(out, bytes.Repeat(v, nb/8)) {
			t.Fatalf("repeat %d: %v", nb, err)
		}
		for _, ts := range []int{4, 8} {
			nc, _ := NaNChunk(nil, nb, ts)
			out, err = decompress2(nil, nc, &st, cd)
			if err != nil || len(out) != nb {
				t.Fatalf("nan %d: %v", nb, err)
			}
			for i := 0; i+ts <= nb; i += ts {
				if ts == 4 && !bytes.Equal(out[i:i+4], []byte{0, 0, 0xc0, 0x7f}) ||
					ts == 8 && !bytes.Equal(out[i:i+8], []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}) {
					t.Fatalf("nan ts=%d at %d: %x", ts, i, out[i:i+ts])
				}
			}
		}
	}
	if _, err := NaNChunk(nil, 16, 2); err == nil {
		t.Error("NaN chunk of typesize 2 accepted")
	}
	if _, err := ZerosChunk(nil, 10, 4); err == nil {
		t.Error("zeros chunk of 10 bytes, typesize 4 accepted")
	}
	if _, err := ValueChunk(nil, 10, nil); err == nil {
		t.Error("empty repeated value accepted")
	}
}

// A special chunk whose memcpyed flag disagrees with its sizes is refused,
// as c-blosc2 refuses it (found by FuzzCrossCBlosc2: we returned zeros).
func TestSpecialChunkMarkedMemcpyed(t *testing.T) {
	var x header2
	x.version, x.versionLZ, x.flags, x.typesize = version2Stable, 1, flagsExtended|flagMemcpyed, 4
	x.nbytes, x.blocksize, x.cbytes = 64, 64, header2Len
	x.b2flags = specialZero << b2SpecialShift
	src := make([]byte, header2Len)
	x.put(src)
	if _, err := Decompress(nil, src); !errors.Is(err, ErrCorrupt) {
		t.Errorf("zeros chunk marked memcpyed, cbytes 32 for 64 bytes: %v, want ErrCorrupt", err)
	}
	x.nbytes, x.blocksize = 0, 1
	x.put(src)
	if out, err := Decompress(nil, src); err != nil || len(out) != 0 {
		t.Errorf("empty zeros chunk marked memcpyed (cbytes = nbytes + 32): %d bytes, %v", len(out), err)
	}
}
