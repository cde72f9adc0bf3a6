//go:build !purego && !noasm && gc

package bitshuffle

import "github.com/goblosc/blosc/internal/byteshuffle"

// The bit rows of typesize ts are, for each byte column j of the elements,
// the typesize-1 bit shuffle of that column: row 8j+b holds bit b of byte j
// of every element. So a typesize without a bit kernel of its own is a
// byte shuffle of the elements into ts rows (the byte-shuffle kernels,
// which keep up with memcpy for every typesize up to 16), followed by the
// typesize-1 bit shuffle of each row, the fastest bit kernel there is.
// c-blosc2 composes its bit shuffle the same way (trans_byte_elem, then
// trans_bit_byte, then trans_bitrow_eight to reorder the rows); running
// the typesize-1 kernel row by row with the whole buffer's row stride
// makes the reordering pass unnecessary.
//
// The work goes tile by tile so that the byte-shuffled rows stay in L1:
// a tile is a whole number of 512-element superblocks holding at most
// rowsScratch bytes of elements.
//
// The two passes' costs add, which keeps this well below memcpy
// (TestMeasureKernels times each pass's kernels on their own). The fused
// kernel (asmgen/bitshuffle/fused.go) feeds the byte shuffle's column
// vectors through the GFNI step in registers instead and is picked for
// these typesizes where it measured faster (pickKernel).

// rowsScratch is the size of the tile buffer on the stack: room for one
// superblock of typesize 15. TestMeasureKernels at 256 KiB put 8 KiB
// ahead of 16 and 32 KiB for typesizes 3 and 7, and level for 12.
const rowsScratch = 8 << 10

// rowsTypesize reports whether the rows kernel handles typesize: those
// with a byte-shuffle kernel and no GFNI bit kernel of their own.
func rowsTypesize(ts int) bool {
	return ts >= 3 && ts <= 16 && ts&(ts-1) != 0
}

// rowsTile is the elements per tile for typesize ts.
func rowsTile(ts int) int {
	return blockSuper * max(1, rowsScratch/(blockSuper*ts))
}

// shuffleRows bit-shuffles the whole superblocks of the body and returns
// how many groups of 8 elements it did.
func shuffleRows(dst, src []byte, ts, rowLen int) int {
	elems := rowLen * 8 / blockSuper * blockSuper
	if elems == 0 {
		return 0
	}
	var rows [rowsScratch]byte
	tile := rowsTile(ts)
	for e0 := 0; e0 < elems; e0 += tile {
		n := min(tile, elems-e0)
		byteShuffle(ts, &rows[0], &src[e0*ts], n, n/64)
		shuffleAVX512GFNIRows(dst[e0/8:], rows[:ts*n], ts, rowLen, n/blockSuper)
	}
	return elems / 8
}

// rowsSlack bounds how far past its blocks the byte unshuffle writes.
const rowsSlack = 128

// unshuffleRows is shuffleRows's inverse.
func unshuffleRows(dst, src []byte, ts, rowLen int) int {
	elems := rowLen * 8 / blockSuper * blockSuper
	if elems == 0 {
		return 0
	}
	var rows [rowsScratch]byte
	tile := rowsTile(ts)
	for e0 := 0; e0 < elems; e0 += tile {
		n := min(tile, elems-e0)
		unshuffleAVX512GFNIRows(rows[:ts*n], src[e0/8:], ts, rowLen, n/blockSuper)
		blocks := n / 64
		if (e0+n)*ts+rowsSlack <= len(dst) {
			byteUnshuffle(ts, &dst[e0*ts], &rows[0], n, blocks)
			continue
		}
		// The last block would write past dst: it goes through a copy.
		byteUnshuffle(ts, &dst[e0*ts], &rows[0], n, blocks-1)
		unshuffleRowsLast(dst[(e0+n-64)*ts:(e0+n)*ts], rows[n-64:], ts, n)
	}
	return elems / 8
}

// unshuffleRowsLast byte-unshuffles the 64 elements whose rows start at
// rows[0] (rows n bytes apart) into dst through a buffer that takes the
// kernel's writes past them.
func unshuffleRowsLast(dst, rows []byte, ts, n int) {
	var tmp [64*16 + rowsSlack]byte
	byteUnshuffle(ts, &tmp[0], &rows[0], n, 1)
	copy(dst, tmp[:64*ts])
}

// byteShuffle runs the AVX-512 byte shuffle of typesize ts (see
// rowsTypesize) over blocks of 64 elements, stream j at dst + j*n.
func byteShuffle(ts int, dst, src *byte, n, blocks int) {
	switch ts {
	case 3:
		byteshuffle.Shuffle3AVX512(dst, src, n, blocks)
	case 5:
		byteshuffle.Shuffle5AVX512(dst, src, n, blocks)
	case 6:
		byteshuffle.Shuffle6AVX512(dst, src, n, blocks)
	case 7:
		byteshuffle.Shuffle7AVX512(dst, src, n, blocks)
	case 9:
		byteshuffle.Shuffle9AVX512(dst, src, n, blocks)
	case 10:
		byteshuffle.Shuffle10AVX512(dst, src, n, blocks)
	case 11:
		byteshuffle.Shuffle11AVX512(dst, src, n, blocks)
	case 12:
		byteshuffle.Shuffle12AVX512(dst, src, n, blocks)
	case 13:
		byteshuffle.Shuffle13AVX512(dst, src, n, blocks)
	case 14:
		byteshuffle.Shuffle14AVX512(dst, src, n, blocks)
	case 15:
		byteshuffle.Shuffle15AVX512(dst, src, n, blocks)
	default:
		panic("bitshuffle: no byte shuffle kernel for this typesize")
	}
}

// byteUnshuffle is byteShuffle's inverse; it writes up to rowsSlack bytes
// past its blocks.
func byteUnshuffle(ts int, dst, src *byte, n, blocks int) {
	switch ts {
	case 3:
		byteshuffle.Unshuffle3AVX512(dst, src, n, blocks)
	case 5:
		byteshuffle.Unshuffle5AVX512(dst, src, n, blocks)
	case 6:
		byteshuffle.Unshuffle6AVX512(dst, src, n, blocks)
	case 7:
		byteshuffle.Unshuffle7AVX512(dst, src, n, blocks)
	case 9:
		byteshuffle.Unshuffle9AVX512(dst, src, n, blocks)
	case 10:
		byteshuffle.Unshuffle10AVX512(dst, src, n, blocks)
	case 11:
		byteshuffle.Unshuffle11AVX512(dst, src, n, blocks)
	case 12:
		byteshuffle.Unshuffle12AVX512(dst, src, n, blocks)
	case 13:
		byteshuffle.Unshuffle13AVX512(dst, src, n, blocks)
	case 14:
		byteshuffle.Unshuffle14AVX512(dst, src, n, blocks)
	case 15:
		byteshuffle.Unshuffle15AVX512(dst, src, n, blocks)
	default:
		panic("bitshuffle: no byte unshuffle kernel for this typesize")
	}
}
