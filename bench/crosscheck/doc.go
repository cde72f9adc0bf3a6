// Package crosscheck holds the tests that hold this module's chunks,
// frames and codecs to the C libraries byte for byte: c-blosc 1.21 under
// the build tag cblosc (with cgo), c-blosc2 under cblosc2. It has no
// code of its own; everything is in its tests.
//
//	go test -tags cblosc ./bench/crosscheck/...
package crosscheck
