package blosc

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Special chunks describe their whole content in the header (plus one
// element for a repeated value): c-blosc2 writes them for zero-filled,
// NaN-filled, uninitialised and constant buffers. Their header is what
// blosc2_chunk_zeros and friends write with the default parameters:
// BloscLZ's version byte, no filters, and the block size the tuner would
// choose for BloscLZ at level 5 with a byte shuffle.

func specialHeader(nbytes, typesize, kind int) (header2, error) {
	if typesize < 1 || typesize > MaxTypesize {
		return header2{}, fmt.Errorf("%w: typesize %d", ErrInvalidOptions, typesize)
	}
	if nbytes < 0 || nbytes > MaxBufferSize {
		return header2{}, fmt.Errorf("%w: %d bytes", ErrTooLarge, nbytes)
	}
	if nbytes%typesize != 0 {
		return header2{}, fmt.Errorf("%w: nbytes %d not a multiple of typesize %d", ErrInvalidOptions, nbytes, typesize)
	}
	var filters [MaxFilters]Filter
	filters[MaxFilters-1] = ByteShuffle
	h := header2{
		version:   version2Stable,
		versionLZ: 1,
		flags:     flagsExtended,
		typesize:  uint8(typesize),
		nbytes:    nbytes,
		blocksize: blocksize2(nbytes, typesize, 5, BloscLZ, filters, SplitForwardCompat, 0),
		cbytes:    header2Len,
		b2flags:   uint8(kind << b2SpecialShift),
	}
	return h, nil
}

func putSpecial(dst []byte, h header2, value []byte) []byte {
	n := header2Len + len(value)
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	h.cbytes = n
	h.put(dst)
	copy(dst[header2Len:], value)
	return dst
}

// ZerosChunk writes a Blosc2 chunk of nbytes zero bytes (header only) into
// dst, reusing it when it has room.
func ZerosChunk(dst []byte, nbytes, typesize int) ([]byte, error) {
	h, err := specialHeader(nbytes, typesize, specialZero)
	if err != nil {
		return dst[:0], err
	}
	return putSpecial(dst, h, nil), nil
}

// NaNChunk writes a Blosc2 chunk of nbytes/typesize quiet NaNs; typesize
// must be 4 (float32) or 8 (float64).
func NaNChunk(dst []byte, nbytes, typesize int) ([]byte, error) {
	if typesize != 4 && typesize != 8 {
		return dst[:0], fmt.Errorf("%w: NaN chunks need typesize 4 or 8, not %d", ErrInvalidOptions, typesize)
	}
	h, err := specialHeader(nbytes, typesize, specialNaN)
	if err != nil {
		return dst[:0], err
	}
	return putSpecial(dst, h, nil), nil
}

// UninitChunk writes a Blosc2 chunk of nbytes whose content is left
// undefined (c-blosc2 does not touch the output; this package zeroes it).
func UninitChunk(dst []byte, nbytes, typesize int) ([]byte, error) {
	h, err := specialHeader(nbytes, typesize, specialUninit)
	if err != nil {
		return dst[:0], err
	}
	return putSpecial(dst, h, nil), nil
}

// ValueChunk writes a Blosc2 chunk of nbytes holding value over and over;
// len(value) is the typesize.
func ValueChunk(dst []byte, nbytes int, value []byte) ([]byte, error) {
	if nbytes == 0 && len(value) > 0 {
		// c-blosc2 refuses to read a repeated value longer than the chunk;
		// an empty chunk of zeros reads back the same.
		return ZerosChunk(dst, 0, len(value))
	}
	h, err := specialHeader(nbytes, len(value), specialValue)
	if err != nil {
		return dst[:0], err
	}
	return putSpecial(dst, h, value), nil
}

// NaN bit patterns of glibc's nanf("") and nan(""), which c-blosc2 stores.
const (
	nan32Bits = 0x7fc00000
	nan64Bits = 0x7ff8000000000000
)

// expandSpecial writes the content of a special chunk into dst
// (len(dst) == h.nbytes).
func expandSpecial(dst []byte, h *header2, src []byte) error {
	return expandSpecialAt(dst, h, src, 0)
}

// expandSpecialAt writes bytes [lo, lo+len(dst)) of a special chunk's
// content into dst. The repeated pattern keeps the phase it has in the
// whole content: a repeated-value chunk's value is every byte after the
// header (c-blosc2 repeats all of them whatever the typesize), so a range
// that starts inside the pattern starts inside it too.
func expandSpecialAt(dst []byte, h *header2, src []byte, lo int) error {
	switch h.special() {
	case specialZero, specialUninit:
		clear(dst)
	case specialNaN:
		switch h.typesize {
		case 4:
			var v [4]byte
			binary.LittleEndian.PutUint32(v[:], math.Float32bits(math.Float32frombits(nan32Bits)))
			fillPatternAt(dst, v[:], lo)
		case 8:
			var v [8]byte
			binary.LittleEndian.PutUint64(v[:], nan64Bits)
			fillPatternAt(dst, v[:], lo)
		default:
			return fmt.Errorf("%w: NaN chunk of typesize %d", ErrCorrupt, h.typesize)
		}
	case specialValue:
		fillPatternAt(dst, src[header2Len:h.cbytes], lo)
	default:
		return fmt.Errorf("%w: special kind %d", ErrCorrupt, h.special())
	}
	return nil
}

// fillPatternAt writes into dst the bytes [lo, lo+len(dst)) of p repeated
// without end.
func fillPatternAt(dst, p []byte, lo int) {
	if len(dst) == 0 || len(p) == 0 {
		return
	}
	n := copy(dst, p[lo%len(p):])
	if n < len(dst) {
		n += copy(dst[n:], p[:lo%len(p)])
	}
	for n < len(dst) {
		n += copy(dst[n:], dst[:n])
	}
}
