// Package testrand makes the uniformly random bytes the tests of several
// packages feed their kernels and codecs, from a seeded generator so that
// a failure repeats.
package testrand

import "math/rand/v2"

// Bytes returns n uniformly random bytes from r.
func Bytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	Fill(r, b)
	return b
}

// Fill overwrites b with uniformly random bytes from r.
func Fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}
