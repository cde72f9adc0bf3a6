package zstdenc

import (
	"bytes"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// TestChain16SameBytes checks that the 16-bit chains write what the
// uint32 ones write: at levels 5, 7 and 9 (and 6, 8, 10) on sources of
// 16 KiB + 1 to 64 KiB, with and without a dictionary, one encoder
// reused across them all (so that the heads of earlier frames, which the
// uint32 chains leave in place, are there to be mistaken for this
// frame's). After every frame the heads must be all 0 again, whether
// chain16Done cleared them one by one (runs, arange_i64: long matches)
// or all at once.
func TestChain16SameBytes(t *testing.T) {
	skipUnderRace(t)
	var on, off Encoder
	off.noChain16 = true
	for _, name := range []string{"text", "sensor_f32", "runs", "linspace_f64", "arange_i64"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 64<<10), 4)
		for _, n := range []int{16<<10 + 1, 32 << 10, 40000, 64 << 10} {
			for lvl := 5; lvl <= 10; lvl++ {
				for _, dl := range []int{0, 1000} {
					dict, s := src[:dl], src[64<<10-n:]
					if dl+len(s) > chain16Max {
						s = s[dl:]
					}
					var a, b []byte
					if dl == 0 {
						a, b = on.Encode(nil, s, lvl), off.Encode(nil, s, lvl)
					} else {
						a, b = on.EncodeDict(nil, s, dict, lvl), off.EncodeDict(nil, s, dict, lvl)
					}
					if !on.c16 || off.c16 {
						t.Fatalf("%s, %d bytes, level %d: 16-bit chains %v and %v", name, len(s), lvl, on.c16, off.c16)
					}
					if !bytes.Equal(a, b) {
						t.Fatalf("%s, %d bytes, level %d, dictionary %d: frames differ (%d and %d bytes)", name, len(s), lvl, dl, len(a), len(b))
					}
					for j, v := range on.heads16[:cap(on.heads16)] {
						if v != 0 {
							t.Fatalf("%s, %d bytes, level %d, dictionary %d: head %d is %d after the frame", name, len(s), lvl, dl, j, v)
						}
					}
				}
			}
		}
	}
}
