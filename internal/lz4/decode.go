package lz4

import "errors"

// The errors of DecompressBlock: each names the rule of the block format
// that the input breaks. The decoders return them unwrapped, so that a
// failed decode does not allocate; callers add their own context.
var (
	// ErrTruncated: the block ends inside a sequence (its length bytes,
	// literals or offset), or is empty.
	ErrTruncated = errors.New("lz4: block ends inside a sequence")
	// ErrZeroOffset: a match has offset 0, which the format does not
	// define (liblz4 copies whatever dst held; see DecompressBlock).
	ErrZeroOffset = errors.New("lz4: match offset 0")
	// ErrOffset: a match reaches back before the start of dst, or of the
	// dictionary before it.
	ErrOffset = errors.New("lz4: match offset before the start of the output")
	// ErrShortDst: the block decodes to more than len(dst) bytes.
	ErrShortDst = errors.New("lz4: block decodes to more than len(dst) bytes")
	// ErrBlockEnd: the block breaks the end-of-block rules: its last
	// sequence must be literals only, reaching exactly the end of src, and
	// no match may end in the last 5 bytes of dst.
	ErrBlockEnd = errors.New("lz4: block breaks the end-of-block rules")
)

// The end-of-block rules of LZ4_decompress_safe: the last 5 bytes of the
// output are literals, and the last match starts 12 bytes or more before
// the end (mfLimit). A sequence that is not the last leaves after its
// literals at least the offset, a token and lastLiterals bytes of input.
const (
	endInputMargin = 2 + 1 + lastLiterals

	// C's shortcut for a literal length below 15 checks none of these
	// rules when at least shortSrcRoom bytes follow the token and the
	// output has shortDstRoom bytes of room; the decoders here take the
	// same shortcut, so that they accept exactly the blocks C accepts.
	shortSrcRoom = 14 + 2 + 1
	shortDstRoom = 14 + 18
)

// DecompressBlock decodes the LZ4 block src into dst and returns the
// number of bytes it wrote, as LZ4_decompress_safe(src, dst, len(src),
// len(dst)) of liblz4 1.9 and 1.10 does: it never reads past src nor
// writes past len(dst), and returns an error, never a panic, for a block
// that C rejects. The bytes of dst after the returned count may have been
// overwritten, as C's wide copies do too. dst and src must not overlap.
//
// The one block C accepts and DecompressBlock rejects has a match of
// offset 0 (ErrZeroOffset): C copies dst's previous contents there, which
// no compressor writes.
//
// The end-of-block rules are C's, which are relative to len(dst), not to
// the decoded length: they are the format's when len(dst) is the exact
// decoded size, as for the blocks of a Blosc chunk. Like C, a sequence
// whose literal length is below 15 skips them when it is far enough from
// both ends (see shortSrcRoom), so that the rules never cost the common
// case a branch.
func DecompressBlock(dst, src []byte) (int, error) {
	return decompress(dst, src, nil)
}

// DecompressBlockDict is DecompressBlock for a block compressed against a
// dictionary: dict holds the bytes that precede dst, which matches may
// reach into, as LZ4_decompress_safe_usingDict with a dictionary that is
// not contiguous with dst. Only its last 64 KiB can be reached.
func DecompressBlockDict(dst, src, dict []byte) (int, error) {
	if len(dict) > distanceMax {
		dict = dict[len(dict)-distanceMax:]
	}
	return decompress(dst, src, dict)
}

// decompress decodes src into dst with the matches reaching into dict. On
// amd64 the assembly loop, decodeFast, decodes the sequences far from both
// ends; it stops at the token of any sequence it leaves to this loop: the
// last ones, those reaching into dict, and those with a malformed offset.
// Each sequence here follows LZ4_decompress_generic's safe loop, which is
// what its fast loop amounts to as well.
func decompress(dst, src, dict []byte) (int, error) {
	return decode(dst, src, dict, haveDecodeAsm)
}

// decode is decompress, with the assembly loop only if useAsm: the tests
// run both.
func decode(dst, src, dict []byte, useAsm bool) (int, error) {
	if len(dst) == 0 {
		// C's special case: only the token 0 alone, not any token that
		// asks for no literals (a match length nibble is ignored
		// elsewhere in the last sequence).
		if len(src) == 1 && src[0] == 0 {
			return 0, nil
		}
		if len(src) == 0 {
			return 0, ErrTruncated
		}
		return 0, ErrShortDst
	}
	si, di := 0, 0
	for {
		if useAsm && len(src)-si > fastSrcMargin && len(dst)-di > fastDstMargin {
			si, di = decodeFast(dst, src, si, di, &shortOffsetTable)
		}
		if si >= len(src) {
			return di, ErrTruncated
		}
		token := src[si]
		si++
		lit := int(token >> 4)
		if lit != 15 && len(src)-si >= shortSrcRoom && len(dst)-di >= shortDstRoom {
			// C's shortcut: at most 14 literals, then the offset, all
			// within src; no end-of-block rule applies.
			copy(dst[di:di+lit], src[si:si+lit])
			si += lit
			di += lit
			off := int(src[si]) | int(src[si+1])<<8
			si += 2
			ml := int(token & 15)
			if ml != 15 && off >= 8 && off <= di {
				// Room for 18 bytes is certain here.
				copyMatch(dst, di, di-off, ml+minMatch)
				di += ml + minMatch
				continue
			}
			var err error
			if si, di, err = match(dst, src, dict, si, di, off, ml); err != nil {
				return di, err
			}
			continue
		}
		if lit == 15 {
			for {
				if si >= len(src) {
					return di, ErrTruncated
				}
				b := src[si]
				si++
				lit += int(b)
				if lit > len(dst) {
					// Also bounds lit on 32-bit platforms.
					return di, ErrShortDst
				}
				if b != 255 {
					break
				}
			}
		}
		if lit > len(dst)-di-mfLimit || lit > len(src)-si-endInputMargin {
			// Only the last sequence may come this close to either end.
			switch {
			case lit > len(src)-si:
				return di, ErrTruncated
			case lit != len(src)-si:
				return di, ErrBlockEnd
			case lit > len(dst)-di:
				return di, ErrShortDst
			}
			copy(dst[di:], src[si:])
			return di + lit, nil
		}
		copy(dst[di:di+lit], src[si:si+lit])
		si += lit
		di += lit
		off := int(src[si]) | int(src[si+1])<<8
		si += 2
		var err error
		if si, di, err = match(dst, src, dict, si, di, off, int(token&15)); err != nil {
			return di, err
		}
	}
}

// match decodes a match whose token gave ml (0..15) and whose offset is
// off, at src[si:] after the offset, writing dst[di:]; it returns the new
// positions. Its checks are those of C's _copy_match.
func match(dst, src, dict []byte, si, di, off, ml int) (int, int, error) {
	if ml == 15 {
		for {
			// C reads the run no closer than lastLiterals-1 bytes to the
			// end of src; si < len(src) holds for each read.
			b := src[si]
			si++
			if si > len(src)-(lastLiterals-1) {
				return si, di, ErrTruncated
			}
			ml += int(b)
			if ml > len(dst) {
				return si, di, ErrShortDst
			}
			if b != 255 {
				break
			}
		}
	}
	ml += minMatch
	if off == 0 {
		return si, di, ErrZeroOffset
	}
	from := di - off
	if from < -len(dict) {
		return si, di, ErrOffset
	}
	if ml > len(dst)-di-lastLiterals {
		if ml > len(dst)-di {
			return si, di, ErrShortDst
		}
		return si, di, ErrBlockEnd
	}
	if from < 0 {
		// The match starts in dict and may continue at the start of dst.
		k := copy(dst[di:di+ml], dict[len(dict)+from:])
		di += k
		ml -= k
		from = 0
	}
	copyMatch(dst, di, from, ml)
	return si, di + ml, nil
}

// copyMatch writes dst[di:di+n] as the match at from < di: byte i is
// dst[from+i] after the bytes before it are written, so that a match
// longer than its offset repeats its first di-from bytes. Each copy
// doubles the part that repeats, which keeps the copy's length a multiple
// of the offset.
func copyMatch(dst []byte, di, from, n int) {
	for n > 0 {
		k := copy(dst[di:di+n], dst[from:di])
		di += k
		n -= k
	}
}
