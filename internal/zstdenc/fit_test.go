package zstdenc

import (
	"bytes"
	"testing"
)

// checkFit encodes src with EncodeFit into buffers with a prefix and
// every room from a few bytes short of want (Encode's frame after the
// prefix) to a few over: it must append exactly want where want fits,
// report false without growing the buffer where it does not, leave the
// prefix alone, and leave the encoder as Encode would (the next frame
// the same as a fresh encoder's).
func checkFit(t *testing.T, e *Encoder, src []byte, lvl int, want []byte) {
	t.Helper()
	prefix := []byte("pre")
	n := len(prefix) + len(want)
	for _, room := range []int{0, 5, n / 2, n - 4, n - 3, n - 1, n, n + 1, n + 64} {
		if room < len(prefix) {
			continue
		}
		buf := make([]byte, room+32)
		for i := range buf {
			buf[i] = 0xA5
		}
		copy(buf, prefix)
		dst := buf[:len(prefix):room]
		out, ok := e.EncodeFit(dst, src, lvl)
		if ok != (n <= room) {
			t.Fatalf("level %d, %d bytes, room %d of %d: fit %v", lvl, len(src), room, n, ok)
		}
		if cap(out) != room || &out[:1][0] != &buf[0] {
			t.Fatalf("level %d, %d bytes, room %d: the buffer moved or grew", lvl, len(src), room)
		}
		if !bytes.Equal(out[:len(prefix)], prefix) {
			t.Fatalf("level %d, room %d: prefix overwritten", lvl, room)
		}
		for i := room; i < len(buf); i++ {
			if buf[i] != 0xA5 {
				t.Fatalf("level %d, %d bytes, room %d: byte %d past the room written", lvl, len(src), room, i)
			}
		}
		if ok && !bytes.Equal(out[len(prefix):], want) {
			t.Fatalf("level %d, %d bytes, room %d: frame differs from Encode's", lvl, len(src), room)
		}
		if room != 5 && room != n-1 && room != n {
			continue
		}
		// The encoder goes on as if the last frame had been Encode's
		// (after a header that did not fit, the last block that did not,
		// and a frame that did).
		var fresh Encoder
		if got, w := e.Encode(nil, src, lvl), fresh.Encode(nil, src, lvl); !bytes.Equal(got, w) {
			t.Fatalf("level %d, %d bytes, room %d: the next frame differs", lvl, len(src), room)
		}
	}
}

// TestEncodeFit holds EncodeFit to Encode's frames on every test input
// at every test level, with rooms around the frame's size.
func TestEncodeFit(t *testing.T) {
	skipUnderRace(t)
	for name, src := range testInputs(t) {
		if len(src) > 64<<10 && testing.Short() {
			continue
		}
		for _, lvl := range testLevels {
			if lvl > 3 && len(src) > 64<<10 {
				continue // the deeper levels on big inputs: the mixed frames below
			}
			var e Encoder
			want := e.Encode(nil, src, lvl)
			t.Run(name, func(t *testing.T) { checkFit(t, &e, src, lvl, want) })
		}
	}
	// Frames of several blocks, one of them raw, and the split blocks
	// of the deep levels.
	mixed := append(bytes.Repeat([]byte("abcdefgh"), 20000), testInputs(t)["rand_s1/204800"]...)
	mixed = append(mixed, testInputs(t)["f32_noise/307200"]...)
	for _, lvl := range []int{1, 3, 19} {
		var e Encoder
		checkFit(t, &e, mixed, lvl, e.Encode(nil, mixed, lvl))
	}
}

// TestEncodeFitZeroAllocs: a frame that does not fit costs no
// allocation either.
func TestEncodeFitZeroAllocs(t *testing.T) {
	skipUnderRace(t)
	src := testInputs(t)["f32_noise/65536"]
	var e Encoder
	dst := make([]byte, len(src))
	e.EncodeFit(dst[:0], src, 3)
	if n := testing.AllocsPerRun(5, func() {
		e.EncodeFit(dst[:0], src, 1)
		e.EncodeFit(dst[:0:100], src, 3)
	}); n != 0 {
		t.Errorf("%.1f allocations per frame", n)
	}
}

// FuzzEncodeFit: any input, level and room; EncodeFit agrees with
// Encode and never writes past the room.
func FuzzEncodeFit(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabc"), uint8(1), uint16(20))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 300), uint8(3), uint16(40))
	f.Add([]byte{}, uint8(2), uint16(8))
	var e, ref Encoder
	f.Fuzz(func(t *testing.T, src []byte, level uint8, room uint16) {
		lvl := int(level)%MaxLevel + 1
		want := ref.Encode(nil, src, lvl)
		buf := make([]byte, int(room)+8)
		out, ok := e.EncodeFit(buf[:0:room], src, lvl)
		if ok != (len(want) <= int(room)) || cap(out) != int(room) {
			t.Fatalf("level %d, %d bytes, room %d, frame %d: fit %v, cap %d", lvl, len(src), room, len(want), ok, cap(out))
		}
		if ok && !bytes.Equal(out, want) {
			t.Fatalf("level %d, %d bytes: frame differs from Encode's", lvl, len(src))
		}
		if !bytes.Equal(buf[room:], make([]byte, 8)) {
			t.Fatalf("level %d, %d bytes, room %d: written past the room", lvl, len(src), room)
		}
	})
}
