// Package schunkhook lets the packages beside the root one (b2nd) reach
// a super-chunk's internals that the public API does not offer. The root
// package sets the functions at init; the values are *blosc.SChunk, which
// this package cannot name without an import cycle.
package schunkhook

// Reserve makes room in an in-memory super-chunk for n more bytes of
// chunks, so that appending that many costs no growth of its buffer; it
// does nothing for a frame in a file or a sparse frame. A caller that
// knows how much it will append (b2nd making an array, from the ratio
// of its first chunks) saves the super-chunk doubling its buffer again
// and again, each time clearing a new one and copying the old.
var Reserve func(sc any, n int64)
