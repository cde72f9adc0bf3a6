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
// bytes after the last whole element unwritten; we copy them.
func intTrunc(out, in []byte, mask uint64, typesize int) {
	n := len(in) / typesize * typesize
	switch typesize {
	case 1:
		m := byte(mask)
		for i := 0; i < n; i++ {
			out[i] = in[i] & m
		}
	case 2:
		m := uint16(mask)
		for i := 0; i < n; i += 2 {
			binary.LittleEndian.PutUint16(out[i:], binary.LittleEndian.Uint16(in[i:])&m)
		}
	default:
		truncPrec(out[:n], in[:n], mask, typesize)
	}
	copy(out[n:len(in)], in[n:])
}
