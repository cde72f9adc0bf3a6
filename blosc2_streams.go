package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// A Blosc2 stream is an int32 csize and then:
//   - csize == 0: nothing; the stream is neblock zero bytes;
//   - csize < 0: a token byte; token bit 0 set means neblock copies of the
//     byte uint8(-csize) (c-blosc2 writes the negated value, not its LSB);
//   - csize == neblock: the bytes stored raw;
//   - otherwise csize bytes of codec output.

// runToken marks a negative csize as a run of one byte value.
const runToken = 0x01

// codecDecoder decompresses one codec stream into exactly len(dst) bytes,
// with the chunk's dictionary when dict is not nil.
type codecDecoder interface {
	decodeStream(c Codec, dict, dst, src []byte) error
}

// isRun reports whether b is one repeated byte (c-blosc2's get_run).
// An empty b is not a run. Every byte equals the next exactly when b is a
// run, and the runtime's vectorised compare tests that much faster than a
// loop over words (the zero streams of a shuffled arange_i64 chunk make it
// a visible share of BenchmarkCompress's arange_i64 rows in bench_test.go).
func isRun(b []byte) bool {
	return len(b) > 0 && bytes.Equal(b[1:], b[:len(b)-1])
}

// runStreamLen is the size of the stream putRun writes for value v.
func runStreamLen(v byte) int {
	if v == 0 {
		return 4
	}
	return 5
}

// putRun writes the stream for a run of byte v into dst as c-blosc2 does
// and returns its length.
func putRun(dst []byte, v byte) int {
	binary.LittleEndian.PutUint32(dst, uint32(-int32(v)))
	if v == 0 {
		return 4
	}
	dst[4] = runToken
	return 5
}

// maxExpansion bounds how many bytes one byte of a codec stream can decode
// to, so a block's size claim can be checked before decoding: LZ4 and
// BloscLZ extend a match by 255 per length byte, deflate yields at most
// 258 bytes from two bits, a zstd RLE block yields 128 KiB from four bytes.
//
// A plugin codec's expansion is not known (zfp codes a block of zeros in
// a few bits), so its streams are not bounded.
func maxExpansion(c Codec) int {
	if c >= firstPluginID {
		return math.MaxInt32
	}
	switch c {
	case BloscLZ, LZ4, LZ4HC:
		return 256
	case Snappy:
		return 64
	case Zlib:
		return 1040
	}
	return 32768
}

// scanStream checks the stream at src against a stream of neblock bytes
// and returns its length in src.
func scanStream(src []byte, neblock int, c Codec) (int, error) {
	if len(src) < 4 {
		return 0, fmt.Errorf("%w: stream size truncated", ErrCorrupt)
	}
	cs := int(int32(binary.LittleEndian.Uint32(src)))
	switch {
	case cs == 0:
		return 4, nil
	case cs < 0:
		if len(src) < 5 {
			return 0, fmt.Errorf("%w: run token truncated", ErrCorrupt)
		}
		if src[4]&runToken == 0 || cs < -255 {
			return 0, fmt.Errorf("%w: stream token %#02x with csize %d", ErrCorrupt, src[4], cs)
		}
		return 5, nil
	case cs > len(src)-4:
		return 0, fmt.Errorf("%w: stream of %d bytes, %d left", ErrCorrupt, cs, len(src)-4)
	case cs == neblock:
		return 4 + cs, nil
	case int64(cs)*int64(maxExpansion(c)) < int64(neblock):
		return 0, fmt.Errorf("%w: %d-byte stream cannot hold %d bytes", ErrCorrupt, cs, neblock)
	}
	return 4 + cs, nil
}

// readStream decodes the stream at src into dst (len(dst) == neblock) and
// returns its length in src.
func (ch *chunk2) readStream(dst, src []byte, cd codecDecoder) (int, error) {
	c := ch.codec
	n, err := scanStream(src, len(dst), c)
	if err != nil {
		return 0, err
	}
	cs := int(int32(binary.LittleEndian.Uint32(src)))
	switch {
	case cs == 0:
		clear(dst)
	case cs < 0:
		fill(dst, byte(-cs))
	case cs == len(dst):
		copyOut(dst, src[4:n], false)
	default:
		if err := ch.decodeStream(dst, src[4:n], cd); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// decodeBlockStreams decodes block i, whose only filter to undo is a byte
// shuffle of its ts streams of neblock bytes (canUnshuffleStreams(ts,
// neblock) holds), into out. A stream stored raw is unshuffled where src
// holds it, and a stream of zeros from a buffer of zeros that nothing
// writes; the others are decoded into the scratch buffer as readStreams
// does. Copying the raw ones beside them first, as C does, was up to half
// a block's bytes copied once more for noisy data (the low bytes of
// sensor_f32 or timestamps_i64), most of the decoding time of such
// blocks; clearing the zero streams (the high bytes of small integers)
// wrote, then read back, most of a block that holds almost nothing.
func (c *chunk2) decodeBlockStreams(out []byte, i, ts, neblock int, src []byte, st *decodeState, cd codecDecoder) error {
	buf, _ := st.scratch(len(out))
	p, elsewhere := 0, false
	for j := 0; j < ts; j++ {
		s := buf[j*neblock : (j+1)*neblock]
		n, err := scanStream(src[p:], neblock, c.codec)
		if err == nil {
			switch cs := int(int32(binary.LittleEndian.Uint32(src[p:]))); cs {
			case neblock:
				s, elsewhere = src[p+4:p+n], true
			case 0:
				s, elsewhere = st.zeroStream(neblock), true
			default:
				_, err = c.readStream(s, src[p:], cd)
			}
		}
		if err != nil {
			clear(st.streams[:j])
			return fmt.Errorf("block %d stream %d: %w", i, j, err)
		}
		st.streams[j] = &s[0]
		p += n
	}
	if elsewhere {
		unshuffleStreams(out, &st.streams, ts, neblock)
	} else {
		// All in scratch, where Unshuffle's choices (non-temporal
		// stores for a huge block) apply as on any other block.
		Unshuffle(out, buf, ts)
	}
	// The chunk may be the caller's to drop: hold no pointer into it.
	clear(st.streams[:ts])
	return nil
}

// decodeStream decodes one codec stream of the chunk into dst, through
// cd or, for a plugin codec, the registered plugin.
func (ch *chunk2) decodeStream(dst, src []byte, cd codecDecoder) error {
	if ch.codec < firstPluginID {
		return cd.decodeStream(ch.codec, ch.dict, dst, src)
	}
	e := lookupCodec(ch.codec)
	if e == nil {
		return unsupportedCodec(uint8(ch.codec))
	}
	n, err := e.c.Decompress(dst, src, CodecParams{Meta: ch.h.codecMeta, Typesize: int(ch.h.typesize)})
	if err != nil {
		return pluginErr(fmt.Sprintf("codec %d (%s)", uint8(ch.codec), e.name), err)
	}
	if n != len(dst) {
		return fmt.Errorf("%w: codec %d (%s) decoded %d bytes of a %d-byte stream", ErrCorrupt, uint8(ch.codec), e.name, n, len(dst))
	}
	return nil
}

// fill sets every byte of b to v.
func fill(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for k := 1; k < len(b); k *= 2 {
		copy(b[k:], b[:k])
	}
}

// unshufflesRows is schunkhook.UnshufflesRows: a kernel takes ts-byte
// items and the level's kernels take rows of row items well
// (rowsMinItems). A slice whose rows they do not take reads the block's
// part through the whole-block kernels, as it did without row kernels:
// gathering those rows in Go from the block's streams made a 3-D box of
// float64 read 1.3 to 1.6 times slower at AVX2 (BenchmarkB2NDVersusC).
func unshufflesRows(ts int, row int64) bool {
	return canUnshuffleRows(ts) && row >= int64(rowsMinItems())
}

// unshuffleRowsStreams unshuffles n1 rows of row items of ts bytes from
// the streams of a byte shuffle (byte j of item e is ss[j][e]) straight
// into their places in dst: row k from item sp+k*ss1 of the streams to
// item dp+k*ds1 of dst (schunkhook.UnshuffleRows). It reports false,
// writing nothing, where no kernel takes ts-byte items, the rows are
// shorter than the level's kernels take well (rowsMinItems) or a row
// would lie outside the streams or dst.
func unshuffleRowsStreams(dst []byte, ss *[16][]byte, ts int, dp, sp, row, n1, ds1, ss1 int64) bool {
	if !unshufflesRows(ts, row) || row <= 0 || n1 <= 0 || dp < 0 || sp < 0 || ds1 < 0 || ss1 < 0 {
		return false
	}
	n := int64(len(ss[0]))
	for j := 1; j < ts; j++ {
		n = min(n, int64(len(ss[j])))
	}
	// The last row ends furthest: (n1-1)*ss1 <= n-row-sp, by division
	// so that nothing overflows.
	nd := int64(len(dst) / ts)
	if row > n || sp > n-row || dp > nd-row ||
		ss1 > 0 && n1-1 > (n-row-sp)/ss1 || ds1 > 0 && n1-1 > (nd-row-dp)/ds1 {
		return false
	}
	var p [16]*byte
	for j := range ts {
		p[j] = &ss[j][0]
	}
	unshuffleRows(dst[dp*int64(ts):], &p, ts, int(sp), int(row), int(n1), int(ds1)*ts, int(ss1))
	return true
}
