package zstddec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/zstdtest"
)

// bothLoops decodes frame into n bytes with the assembly sequence loop
// and with the portable one, each into a buffer with guard bytes after
// it, and fails unless both succeed with the same bytes or both fail
// with ErrCorrupt or ErrUnsupported, writing nothing past n.
func bothLoops(t *testing.T, label string, frame []byte, n int) {
	t.Helper()
	const guardLen = 64
	var da, dp Decoder
	a := bytes.Repeat([]byte{0xA5}, n+guardLen)
	p := bytes.Repeat([]byte{0xA5}, n+guardLen)
	useSeqAsm = true
	errA := da.Decode(a[:n:n], frame)
	useSeqAsm = false
	errP := dp.Decode(p[:n:n], frame)
	useSeqAsm = haveSeqAsm
	if (errA == nil) != (errP == nil) {
		t.Fatalf("%s: assembly loop says %v, portable %v", label, errA, errP)
	}
	for _, err := range []error{errA, errP} {
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("%s: error wraps no sentinel: %v", label, err)
		}
	}
	if errA == nil && !bytes.Equal(a[:n], p[:n]) {
		i := golden.FirstDiff(a[:n], p[:n])
		t.Fatalf("%s: first difference at byte %d of %d\nassembly:\n%sportable:\n%s", label, i, n,
			hex.Dump(a[max(i-16, 0):min(i+32, n)]), hex.Dump(p[max(i-16, 0):min(i+32, n)]))
	}
	for i := n; i < len(a); i++ {
		if a[i] != 0xA5 {
			t.Fatalf("%s: assembly loop wrote byte %d past %d", label, i, n)
		}
	}
}

// TestSeqAsmMatchesPortable runs both sequence loops over the frames of
// every pattern, plain and shuffled, written by klauspost at each level,
// whole and with one byte flipped in several places.
func TestSeqAsmMatchesPortable(t *testing.T) {
	if !haveSeqAsm {
		t.Skip("no assembly sequence loop on this CPU or with these tags")
	}
	for name, src := range zstdtest.Inputs(t) {
		for enc, frame := range klauspostFrames(t, src) {
			label := name + "/" + enc
			bothLoops(t, label, frame, len(src))
			for i := 5; i < len(frame); i += 1 + len(frame)/7 {
				bad := bytes.Clone(frame)
				bad[i] ^= 0x24
				bothLoops(t, label+"/flipped", bad, len(src))
			}
		}
	}
}

// FuzzSeqAsmMatchesPortable checks the assembly sequence loop against
// the portable one on any frame and output size.
func FuzzSeqAsmMatchesPortable(f *testing.F) {
	if !haveSeqAsm {
		f.Skip("no assembly sequence loop on this CPU or with these tags")
	}
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs"} {
		src, _ := golden.Pattern(name, 3000)
		for _, frame := range klauspostFrames(f, golden.Shuffled(src, 8)) {
			f.Add(frame, uint16(len(src)))
		}
	}
	f.Fuzz(func(t *testing.T, frame []byte, n uint16) {
		bothLoops(t, "fuzz", frame, int(n))
	})
}

// TestGuardPages decodes frames, whole and with flipped bytes, from
// and into buffers against inaccessible pages on either side, with both
// sequence loops: a read or write past either buffer faults.
func TestGuardPages(t *testing.T) {
	loops := []bool{false}
	if haveSeqAsm {
		loops = append(loops, true)
	}
	defer func() { useSeqAsm = haveSeqAsm }()
	var d Decoder
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs", "arange_i16"} {
		src, _ := golden.Pattern(name, 70000)
		src = golden.Shuffled(src, 4)
		for enc, frame := range klauspostFrames(t, src) {
			frames := [][]byte{frame}
			for i := 5; i < len(frame); i += 1 + len(frame)/5 {
				bad := bytes.Clone(frame)
				bad[i] ^= 0x41
				frames = append(frames, bad)
			}
			for _, f := range frames {
				for _, asm := range loops {
					useSeqAsm = asm
					for _, side := range []guard.Side{guard.Start, guard.End} {
						in := guard.New(len(f), side)
						copy(in.Bytes, f)
						out := guard.New(len(src), side)
						err := d.Decode(out.Bytes, in.Bytes)
						if err == nil && !bytes.Equal(out.Bytes, src) && bytes.Equal(f, frame) {
							t.Errorf("%s/%s asm=%v: wrong bytes", name, enc, asm)
						}
						if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
							t.Errorf("%s/%s asm=%v: error wraps no sentinel: %v", name, enc, asm, err)
						}
						in.Free()
						out.Free()
					}
				}
			}
		}
	}
}

// TestSeqAsmMutations runs both sequence loops over frames with a few
// random bytes replaced and random output sizes, seeded so that a
// failure repeats: the fuzz target's work in a fixed, quick dose.
func TestSeqAsmMutations(t *testing.T) {
	if !haveSeqAsm {
		t.Skip("no assembly sequence loop on this CPU or with these tags")
	}
	var seeds [][]byte
	for _, name := range []string{"text", "f32_noise", "linspace_f64", "runs"} {
		src, _ := golden.Pattern(name, 3000)
		for _, frame := range klauspostFrames(t, golden.Shuffled(src, 8)) {
			seeds = append(seeds, frame)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	runs := 20000
	if testing.Short() {
		runs = 2000
	}
	for range runs {
		f := bytes.Clone(seeds[r.IntN(len(seeds))])
		for k := r.IntN(4); k >= 0; k-- {
			f[r.IntN(len(f))] = byte(r.Uint32())
		}
		n := 3000
		if r.IntN(4) == 0 {
			n = r.IntN(70000)
		}
		bothLoops(t, fmt.Sprintf("mutated %x n=%d", f, n), f, n)
	}
}

// TestSequencesOverrun: a sequence that fails after its stream was read
// past its start (testdata/overrun-5000.zst, found by FuzzDecodeVersusC:
// a one-block frame of 5,000 bytes whose garbage sequence overflows the
// block) reports the stream's end, ErrSequencesEnd, in both loops, not
// the garbage's overflow: libzstd decodes such streams leniently, and the
// short stream is what is wrong.
func TestSequencesOverrun(t *testing.T) {
	frame, err := os.ReadFile("testdata/overrun-5000.zst")
	if err != nil {
		t.Fatal(err)
	}
	for _, asm := range []bool{true, false} {
		useSeqAsm = asm && haveSeqAsm
		var d Decoder
		err := d.Decode(make([]byte, 5000), frame)
		useSeqAsm = haveSeqAsm
		if !errors.Is(err, ErrSequencesEnd) {
			t.Errorf("assembly loop %v: %v, want ErrSequencesEnd", asm, err)
		}
	}
}

// TestSeqAsmPeriodicMatches decodes, with both sequence loops, frames of
// runs that repeat every p bytes for p from 1 to 40, each run between 3
// and 80 bytes long after p random bytes, so that the matches at every
// offset below 16 (the assembly loop's shuffle path) and just above it
// come with every length, short, around 16 and long.
func TestSeqAsmPeriodicMatches(t *testing.T) {
	if !haveSeqAsm {
		t.Skip("no assembly sequence loop on this CPU or with these tags")
	}
	r := rand.New(rand.NewPCG(7, 13))
	var src []byte
	for p := 1; p <= 40; p++ {
		for run := 3; run <= 80; run += 1 + run/8 {
			for range p {
				src = append(src, byte(r.Uint32()))
			}
			for range run {
				src = append(src, src[len(src)-p])
			}
			// A few random bytes break the run off from the next.
			for range 1 + r.IntN(3) {
				src = append(src, byte(r.Uint32()))
			}
		}
	}
	var d Decoder
	for enc, frame := range klauspostFrames(t, src) {
		bothLoops(t, "periodic/"+enc, frame, len(src))
		got := make([]byte, len(src))
		if err := d.Decode(got, frame); err != nil || !bytes.Equal(got, src) {
			t.Fatalf("periodic/%s: %v, first difference at %d", enc, err, golden.FirstDiff(got, src))
		}
	}
}
