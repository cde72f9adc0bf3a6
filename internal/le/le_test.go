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

// Copy16 moves exactly 16 bytes at every pair of offsets, whichever file
// is built, and leaves the bytes around them alone.
func TestCopy16(t *testing.T) {
	src := make([]byte, 40)
	for i := range src {
		src[i] = byte(i*29 + 3)
	}
	for i := 0; i+16 <= 40; i++ {
		for j := 0; j+16 <= len(src); j++ {
			dst := make([]byte, 40)
			Copy16(dst, i, src, j)
			for k := range dst {
				want := byte(0)
				if k >= i && k < i+16 {
					want = src[j+k-i]
				}
				if dst[k] != want {
					t.Fatalf("Copy16(dst, %d, src, %d): byte %d is %#x, want %#x", i, j, k, dst[k], want)
				}
			}
		}
	}
}
