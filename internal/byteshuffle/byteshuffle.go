// Package byteshuffle holds the AVX-512 (VBMI) byte-shuffle kernels of the
// typesizes that are not powers of two, 3 to 15, generated once by
// asmgen/shuffle -rows and called by both the root package's byte shuffle
// and package bitshuffle, which builds the bit shuffle of those typesizes
// from them. Each kernel shuffles (or unshuffles) blocks of 64 elements,
// stream j at dst + j*n; the unshuffle kernels may write up to 64 bytes of
// scratch past their blocks. On other platforms, and under -tags purego or
// noasm, the package is empty.
package byteshuffle

// The kernels come from the avo program in asmgen/shuffle (its own module,
// so avo never becomes a dependency of this one).
//go:generate env GOWORK=off go run -C ../../asmgen ./shuffle -rows -out ../internal/byteshuffle/byteshuffle_amd64.s -stubs ../internal/byteshuffle/byteshuffle_amd64.go -pkg byteshuffle
