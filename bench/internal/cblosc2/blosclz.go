//go:build cblosc2 && cgo

package cblosc2

/*
// blosclz.h is not among the installed headers; the static archive links
// the function all the same.
int blosclz_decompress(const void* input, int length, void* output, int maxout);
*/
import "C"

import "unsafe"

// BloscLZDecompress is c-blosc2's blosclz_decompress: it decodes the
// BloscLZ stream src into dst and returns the bytes written, 0 for a
// stream it rejects. blosc/blosclz times its own decoder against it on the
// streams of C's chunks.
func BloscLZDecompress(dst, src []byte) int {
	return int(C.blosclz_decompress(unsafe.Pointer(unsafe.SliceData(src)), C.int(len(src)),
		unsafe.Pointer(unsafe.SliceData(dst)), C.int(len(dst))))
}
