package le

import (
	"encoding/binary"
	"testing"
)

// Every access at every offset of a buffer agrees with encoding/binary,
// whichever of the two files is built.
func TestAgreesWithBinary(t *testing.T) {
	b := make([]byte, 24)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	for i := 0; i+8 <= len(b); i++ {
		if got, want := Load64(b, i), binary.LittleEndian.Uint64(b[i:]); got != want {
			t.Fatalf("Load64 at %d: %#x, want %#x", i, got, want)
		}
		if got, want := Load32(b, i), binary.LittleEndian.Uint32(b[i:]); got != want {
			t.Fatalf("Load32 at %d: %#x, want %#x", i, got, want)
		}
		if got, want := Load16(b, i), binary.LittleEndian.Uint16(b[i:]); got != want {
			t.Fatalf("Load16 at %d: %#x, want %#x", i, got, want)
		}
		if got := Load8(b, i); got != b[i] {
			t.Fatalf("Load8 at %d: %#x, want %#x", i, got, b[i])
		}
		c := make([]byte, len(b))
		Store64(c, i, 0x0807060504030201)
		if got := binary.LittleEndian.Uint64(c[i:]); got != 0x0807060504030201 {
			t.Fatalf("Store64 at %d wrote %x", i, c)
		}
	}
}
