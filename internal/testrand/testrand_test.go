package testrand

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The same seed gives the same bytes, and the bytes are not constant.
func TestSeeded(t *testing.T) {
	a := Bytes(rand.New(rand.NewPCG(1, 2)), 64)
	b := Bytes(rand.New(rand.NewPCG(1, 2)), 64)
	if !bytes.Equal(a, b) {
		t.Fatal("one seed, two sequences")
	}
	if bytes.Count(a, a[:1]) == len(a) {
		t.Fatalf("constant bytes: %x", a)
	}
}
