package blosc

import (
	"encoding/binary"
	"fmt"
)

// intTruncMask returns the mask c-blosc2's int_trunc plugin filter (36)
// applies to each element: meta is a signed byte, positive = the number
// of high bits kept, negative = the number of low bits zeroed. As in C, the
// count of zeroed bits must stay below the width (so 0 and anything past
// the width are refused) and only typesizes 1, 2, 4 and 8 are handled.
func intTruncMask(meta uint8, typesize int) (uint64, error) {
	switch typesize {
	case 1, 2, 4, 8:
	default:
		return 0, fmt.Errorf("%w: int_trunc needs typesize 1, 2, 4 or 8, not %d", ErrInvalidOptions, typesize)
	}
	width := 8 * typesize
	prec := int(int8(meta))
	zeroed := -prec
	if prec >= 0 {
		zeroed = width - prec
	}
	if zeroed < 0 || zeroed >= width {
		return 0, fmt.Errorf("%w: int_trunc meta %d for %d-bit integers", ErrInvalidOptions, prec, width)
	}
	return ^(uint64(1)<<zeroed - 1), nil
}

// intTrunc writes in with every whole element masked. c-blosc2 leaves the
// bytes after the last whole element unwritten; we copy them. The typesizes
// divide 8, so the mask repeated over a word applies to eight bytes at once.
func intTrunc(out, in []byte, mask uint64, typesize int) {
	n := len(in) / typesize * typesize
	w := mask
	switch typesize {
	case 1:
		w = (mask & 0xff) * 0x0101010101010101
	case 2:
		w = (mask & 0xffff) * 0x0001000100010001
	case 4:
		w = (mask & 0xffffffff) * 0x0000000100000001
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(out[i:], binary.LittleEndian.Uint64(in[i:])&w)
	}
	for ; i < n; i++ {
		out[i] = in[i] & byte(w>>(8*(i%8)))
	}
	copy(out[n:len(in)], in[n:])
}
