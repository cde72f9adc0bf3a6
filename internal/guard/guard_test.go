package guard

import "testing"

func TestBufferIsUsable(t *testing.T) {
	for _, side := range []Side{End, Start} {
		for _, n := range []int{0, 1, 4095, 4096, 4097, 70000} {
			b := New(n, side)
			if len(b.Bytes) != n {
				t.Fatalf("len %d, want %d", len(b.Bytes), n)
			}
			for i := range b.Bytes {
				b.Bytes[i] = byte(i)
			}
			for i, v := range b.Bytes {
				if v != byte(i) {
					t.Fatalf("byte %d reads %d", i, v)
				}
			}
			b.Free()
		}
	}
}
