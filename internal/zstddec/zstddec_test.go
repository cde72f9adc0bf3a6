package zstddec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/zstdtest"
	"github.com/klauspost/compress/zstd"
)

// klauspostFrames encodes src with klauspost's encoder at every level, as
// internal/codec writes Blosc's zstd streams and without single segment.
func klauspostFrames(t testing.TB, src []byte) map[string][]byte {
	out := map[string][]byte{}
	for _, lvl := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBestCompression} {
		if lvl == zstd.SpeedBestCompression && len(src) > 1<<16 {
			continue // slow, and its larger frames add no shape
		}
		for _, single := range []bool{true, false} {
			e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(lvl), zstd.WithAllLitEntropyCompression(true),
				zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithSingleSegment(single),
				zstd.WithWindowSize(1<<17))
			if err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("klauspost/%v/single=%v", lvl, single)] = e.EncodeAll(src, nil)
			e.Close()
		}
	}
	return out
}

func TestKlauspostFrames(t *testing.T) {
	var d Decoder
	o := zstdtest.Oracle(t)
	for name, src := range zstdtest.Inputs(t) {
		for enc, frame := range klauspostFrames(t, src) {
			zstdtest.Check(t, d.Decode, ErrUnsupported, o, name+"/"+enc, frame, src)
		}
	}
}

// A frame whose content size differs from len(dst), a truncated frame and
// a frame with a flipped bit fail with ErrCorrupt, never a panic.
func TestCorrupt(t *testing.T) {
	var d Decoder
	o := zstdtest.Oracle(t)
	src, _ := golden.Pattern("text", 20000)
	for enc, frame := range klauspostFrames(t, src) {
		if !strings.Contains(enc, "single=true") {
			continue // the single-segment frames are Blosc's
		}
		for _, n := range []int{len(src) - 1, len(src) + 1, 0} {
			if err := d.Decode(make([]byte, n), frame); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: %d-byte dst: %v, want ErrCorrupt", enc, n, err)
			}
		}
		for cut := 0; cut < len(frame); cut += 1 + cut/8 {
			if err := d.Decode(make([]byte, len(src)), frame[:cut]); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: cut at %d: %v, want ErrCorrupt", enc, cut, err)
			}
		}
		for i := 0; i < len(frame); i += 1 + i/16 {
			bad := bytes.Clone(frame)
			bad[i] ^= 0x10
			dst := make([]byte, len(src))
			if err := d.Decode(dst, bad); err == nil && !bytes.Equal(dst, src) {
				// Some flips land in bits the format ignores; then the
				// output must match what the oracle makes of it.
				ref, rerr := o.DecodeAll(bad, make([]byte, 0, len(src)))
				if rerr != nil || !bytes.Equal(ref, dst) {
					t.Errorf("%s: flip at %d decodes to other bytes without an error", enc, i)
				}
			}
		}
	}
}

// Frames this package leaves to a general decoder say so.
func TestUnsupported(t *testing.T) {
	var d Decoder
	src, _ := golden.Pattern("text", 5000)
	e, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
	crc := e.EncodeAll(src, nil)
	if err := d.Decode(make([]byte, len(src)), crc); !errors.Is(err, ErrUnsupported) {
		t.Errorf("checksummed frame: %v, want ErrUnsupported", err)
	}
	e2, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1))
	two := e2.EncodeAll(src[:2000], nil)
	two = e2.EncodeAll(src[2000:], two)
	if err := d.Decode(make([]byte, 2000), two); !errors.Is(err, ErrUnsupported) {
		t.Errorf("two frames: %v, want ErrUnsupported", err)
	}
}

// FuzzDecode compares the decoder with klauspost's on any input: where
// the oracle decodes a frame to n bytes, Decode into n bytes must give the
// same bytes or say ErrUnsupported, and where Decode succeeds the oracle
// must agree.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"text", "arange_i16", "linspace_f64", "runs"} {
		src, _ := golden.Pattern(name, 3000)
		for _, frame := range klauspostFrames(f, golden.Shuffled(src, 8)) {
			f.Add(frame, uint16(len(src)))
		}
	}
	o := zstdtest.Oracle(f)
	var d Decoder
	f.Fuzz(func(t *testing.T, frame []byte, n uint16) {
		ref, rerr := o.DecodeAll(frame, make([]byte, 0, 1<<16))
		if errors.Is(rerr, zstd.ErrWindowSizeExceeded) {
			// The oracle's window limit guards its memory, not the
			// format: a frame that states its content size decodes the
			// same with the smallest window that holds it, which the
			// oracle takes (matches never reach before the frame's start).
			if narrow, ok := narrowWindow(frame); ok {
				ref, rerr = o.DecodeAll(narrow, make([]byte, 0, 1<<16))
			}
		}
		size := int(n)
		if rerr == nil {
			size = len(ref)
		}
		dst := make([]byte, size)
		err := d.Decode(dst, frame)
		switch {
		case err == nil && rerr != nil && (strings.HasPrefix(rerr.Error(), "output bigger than max block size") ||
			errors.Is(rerr, zstd.ErrCompressedSizeTooBig)):
			// A named difference: klauspost holds a compressed block,
			// and what its sequences produce, to the format's block
			// maximum, the smaller of the window and 128 KiB; libzstd
			// 1.5.4, which c-blosc2 links on Debian, and Decode hold
			// blocks to 128 KiB (README).
			t.Skip("klauspost's window-based block maximum")
		case err == nil && rerr != nil && !errors.Is(rerr, zstd.ErrWindowSizeExceeded):
			// (The oracle's window limit guards its memory, not the
			// format; Decode writes only into dst and needs none.)
			t.Fatalf("Decode accepts a frame the oracle rejects: %v", rerr)
		case err == nil && !bytes.Equal(dst, ref):
			t.Fatalf("Decode and the oracle disagree from byte %d", golden.FirstDiff(dst, ref))
		case err != nil && rerr == nil && len(frame) > 0 && !errors.Is(err, ErrUnsupported):
			// (The oracle reads no bytes as no frames, and so as an
			// empty output; one frame is required here.)
			t.Fatalf("Decode rejects a frame the oracle decodes: %v", err)
		case err != nil && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrCorrupt):
			t.Fatalf("error wraps no sentinel: %v", err)
		}
	})
}

// narrowWindow returns frame with its window descriptor replaced by the
// smallest window that holds the content size the header states, or false
// when the header has no window descriptor or no content size.
func narrowWindow(frame []byte) ([]byte, bool) {
	if len(frame) < 6 || binary.LittleEndian.Uint32(frame) != 0xFD2FB528 {
		return nil, false
	}
	fhd := frame[4]
	if fhd&0x20 != 0 { // single segment: no window descriptor
		return nil, false
	}
	at := 6 + [4]int{0, 1, 2, 4}[fhd&3] // after the window descriptor and dictionary ID
	var size uint64
	switch fhd >> 6 {
	case 0:
		return nil, false
	case 1:
		if len(frame) < at+2 {
			return nil, false
		}
		size = uint64(binary.LittleEndian.Uint16(frame[at:])) + 256
	case 2:
		if len(frame) < at+4 {
			return nil, false
		}
		size = uint64(binary.LittleEndian.Uint32(frame[at:]))
	case 3:
		if len(frame) < at+8 {
			return nil, false
		}
		size = binary.LittleEndian.Uint64(frame[at:])
	}
	exp := 0
	for exp < 31 && uint64(1)<<(10+exp) < size {
		exp++
	}
	out := bytes.Clone(frame)
	out[5] = byte(exp << 3)
	return out, true
}

// TestSeqTableSpare decodes frames of differently distributed data with
// one Decoder in an order that builds, reuses, swaps back and replaces
// the sequence tables and their spares (c-blosc2's byte planes take
// turns so), and checks every frame against its input; it also checks
// that the spare's table was taken back at least once.
func TestSeqTableSpare(t *testing.T) {
	var frames, srcs [][]byte
	for i, name := range []string{"sensor_f32", "timestamps_i64", "text", "mixed_rec13"} {
		p, err := golden.Pattern(name, 64<<10)
		if err != nil {
			t.Fatal(err)
		}
		src := golden.Shuffled(p, []int{4, 8, 1, 13}[i])
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true))
		if err != nil {
			t.Fatal(err)
		}
		frames, srcs = append(frames, e.EncodeAll(src, nil)), append(srcs, src)
		e.Close()
	}
	var d Decoder
	swapped := 0
	for step, k := range []int{0, 1, 0, 1, 1, 2, 0, 2, 3, 1, 3, 0, 0, 2, 1, 2} {
		spare := [3][]byte{bytes.Clone(d.llSpare.desc), bytes.Clone(d.ofSpare.desc), bytes.Clone(d.mlSpare.desc)}
		dst := make([]byte, len(srcs[k]))
		if err := d.Decode(dst, frames[k]); err != nil || !bytes.Equal(dst, srcs[k]) {
			t.Fatalf("step %d (frame %d): %v, equal %v", step, k, err, bytes.Equal(dst, srcs[k]))
		}
		for i, now := range [3][]byte{d.llDesc, d.ofDesc, d.mlDesc} {
			if len(spare[i]) != 0 && bytes.Equal(now, spare[i]) {
				swapped++
			}
		}
	}
	if swapped == 0 {
		t.Error("no table came back from a spare")
	}
}
