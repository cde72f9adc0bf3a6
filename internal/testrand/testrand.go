// Package testrand makes the random bytes the tests of several packages
// feed their kernels and codecs, from a seeded generator so that a
// failure repeats.
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

// Runs returns n bytes of runs 1 to 40 long, of bytes 0-3 mostly and
// one run in eight of any value: runs of a few values of every length,
// for the match searches that step over runs.
func Runs(r *rand.Rand, n int) []byte {
	out := make([]byte, 0, n+40)
	for len(out) < n {
		b := byte(r.IntN(4))
		if r.IntN(8) == 0 {
			b = byte(r.Uint32())
		}
		for k := 1 + r.IntN(40); k > 0; k-- {
			out = append(out, b)
		}
	}
	return out[:n]
}
