// Package zstddec decodes the zstd frames Blosc stores: one frame per
// stream, its content size written in the header and equal to the size the
// chunk declares, no checksum, no dictionary. It decodes straight into the
// caller's buffer, which holds the whole frame, so the output is its own
// history and nothing is copied twice.
//
// Anything else a zstd frame may carry (a dictionary ID, a checksum, a
// missing content size, skippable or further frames) returns
// ErrUnsupported, and the caller decodes the stream with a general zstd
// decoder; klauspost/compress/zstd is the oracle this package is tested
// against. The Huffman-coded literals (huff.go) and the sequences (FSE
// tables, repeat offsets) and their execution are ours. On amd64 with BMI2
// they run through an assembly loop (seqasm_amd64.s) that decodes and
// executes each sequence in one pass; the portable loop in sequences.go
// is the path elsewhere and the oracle its tests compare it with.
//
// The format is RFC 8878.
package zstddec

import (
	"encoding/binary"
	"errors"
	"fmt"
)

var (
	// ErrCorrupt: the stream is not a valid zstd frame of len(dst) bytes.
	ErrCorrupt = errors.New("zstddec: corrupt stream")
	// ErrUnsupported: a valid frame may use a feature this package leaves
	// to a general decoder.
	ErrUnsupported = errors.New("zstddec: frame feature not supported")
)

// ErrReservedModes (an ErrCorrupt) is a sequences section whose
// Symbol_Compression_Modes byte sets its reserved low bits, which the
// format requires to be zero; libzstd 1.5.4, which c-blosc2 links on
// Debian, ignores them. Differential tests against libzstd name this
// difference by it.
var ErrReservedModes = fmt.Errorf("%w: reserved compression mode bits set", ErrCorrupt)

// ErrSequencesEnd (an ErrCorrupt) is a sequences bit stream that its
// sequences do not read to its first bit exactly, short of it by no more
// than the state updates after the last sequence would read, or past it.
// libzstd 1.5.4 (which c-blosc2 links on Debian) makes those updates too,
// and accepts a stream whose reading ends at or past its start, taking
// the bits past it from its container again; the format has none there.
// Differential tests against libzstd name this difference by it.
var ErrSequencesEnd = fmt.Errorf("%w: sequences bit stream not read exactly to its start", ErrCorrupt)

const (
	frameMagic   = 0xFD2FB528
	maxBlockSize = 128 << 10
)

// Decoder holds the tables and scratch buffers of one goroutine. The zero
// value is ready to use; it is not safe for concurrent use.
type Decoder struct {
	lits []byte // decoded literals, maxBlockSize plus wild-copy slack
	seqs []byte // the sequences bit stream after 8 zero bytes
	// The frame and where the block being decoded ends in it, so that
	// the sequences bit stream, the block's tail, is read in place.
	src      []byte
	blockEnd int

	// ht is the Huffman table of the literals, one of hts: the two
	// tables last read, each kept with the description it was built from.
	// A description equal to one of them reuses its table, the single-
	// and the double-symbol one: c-blosc2 cuts a block into byte planes,
	// each its own frame, and the planes of one kind (the low bytes of
	// noisy floats, say) share their tree from block to block, planes of
	// another kind coming between them.
	ht        *huffTable
	hts       [2]huffSlot
	huffValid bool // a Huffman table was read in this frame

	// The FSE tables of the last compressed block, for the repeat mode:
	// prefixes of the buffers below, which the predefined tables are
	// copied to. The assembly loop finds the buffers right after sc, its
	// state.
	ll, of, ml          []seqEntry
	sc                  seqCtx
	llBuf, mlBuf, ofBuf [512]seqEntry
	// The FSE table descriptions the buffers were last built from: a
	// block repeating its predecessor's, common in a frame and across
	// Blosc's frames of similar data, reuses the table.
	llDesc, mlDesc, ofDesc []byte
	// The table each buffer held before, with its description: c-blosc2
	// cuts a block into byte planes, each its own frame, and the planes
	// of one kind share their tables from block to block, planes of
	// another kind coming between them. A description equal to the
	// spare's swaps the two tables back, a copy instead of a build.
	llSpare, mlSpare, ofSpare seqSpare
	norm                      [64]int16
	rep                       [3]int
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, a...)...)
}

// Decode decodes the single zstd frame src into exactly len(dst) bytes.
// It writes only inside dst; on error dst holds garbage.
func (d *Decoder) Decode(dst, src []byte) error {
	if len(src) < 4 {
		return corrupt("%d bytes is no frame", len(src))
	}
	magic := binary.LittleEndian.Uint32(src)
	if magic != frameMagic {
		if magic&0xFFFFFFF0 == 0x184D2A50 {
			return fmt.Errorf("%w: skippable frame", ErrUnsupported)
		}
		return corrupt("bad magic %#x", magic)
	}
	in := src[4:]
	if len(in) < 1 {
		return corrupt("truncated frame header")
	}
	fhd := in[0]
	in = in[1:]
	if fhd&0x08 != 0 {
		return corrupt("reserved frame header bit set")
	}
	single := fhd&0x20 != 0
	fcsFlag := fhd >> 6
	if fhd&0x04 != 0 {
		return fmt.Errorf("%w: checksum", ErrUnsupported)
	}
	if fhd&0x03 != 0 {
		return fmt.Errorf("%w: dictionary ID", ErrUnsupported)
	}
	var window uint64
	if !single {
		if len(in) < 1 {
			return corrupt("truncated frame header")
		}
		exp := uint64(in[0] >> 3)
		base := uint64(1) << (10 + exp)
		window = base + base/8*uint64(in[0]&7)
		in = in[1:]
	}
	fcsLen := [4]int{0, 2, 4, 8}[fcsFlag]
	if single && fcsFlag == 0 {
		fcsLen = 1
	}
	if fcsLen == 0 {
		return fmt.Errorf("%w: no content size", ErrUnsupported)
	}
	if len(in) < fcsLen {
		return corrupt("truncated frame header")
	}
	fcs := contentSize(in, fcsLen)
	in = in[fcsLen:]
	if fcs != uint64(len(dst)) {
		return corrupt("frame holds %d bytes, want %d", fcs, len(dst))
	}
	if single {
		window = fcs
	}

	d.huffValid = false
	d.ll, d.of, d.ml = nil, nil, nil
	d.rep = [3]int{1, 4, 8}
	pos := 0
	for {
		if len(in) < 3 {
			return corrupt("truncated block header")
		}
		bh := uint32(in[0]) | uint32(in[1])<<8 | uint32(in[2])<<16
		in = in[3:]
		last := bh&1 != 0
		size := int(bh >> 3)
		// The format caps every block at the smaller of the window and
		// 128 KiB; libzstd up to 1.5.5 (Debian's, which c-blosc2 links
		// there) and klauspost cap them at 128 KiB whatever the window,
		// and raw and RLE blocks only at the output's room. We decode
		// what they decode: a small window then limits only how far back
		// a match may reach.
		switch (bh >> 1) & 3 {
		case 0: // raw
			if size > len(in) || size > len(dst)-pos {
				return corrupt("raw block of %d bytes does not fit", size)
			}
			copy(dst[pos:], in[:size])
			in = in[size:]
			pos += size
		case 1: // RLE
			if len(in) < 1 || size > len(dst)-pos {
				return corrupt("RLE block of %d bytes does not fit", size)
			}
			fill(dst[pos:pos+size], in[0])
			in = in[1:]
			pos += size
		case 2:
			if size > maxBlockSize || size > len(in) {
				return corrupt("compressed block of %d bytes does not fit", size)
			}
			end := min(len(dst), pos+maxBlockSize)
			d.src, d.blockEnd = src, len(src)-len(in)+size
			n, err := d.block(dst[:end], pos, in[:size], window)
			d.src = nil
			if err != nil {
				return err
			}
			in = in[size:]
			pos = n
		default:
			return corrupt("reserved block type")
		}
		if last {
			break
		}
	}
	if pos != len(dst) {
		return corrupt("frame gave %d bytes, want %d", pos, len(dst))
	}
	if len(in) != 0 {
		return fmt.Errorf("%w: data after the frame", ErrUnsupported)
	}
	return nil
}

func fill(b []byte, v byte) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for k := 1; k < len(b); k *= 2 {
		copy(b[k:], b[:k])
	}
}

// litSlack is how far past the literals in use the wild copies read.
const litSlack = 32

// block decodes one compressed block into out[pos:], out ending where the
// block must end at the latest, and returns the new position.
func (d *Decoder) block(out []byte, pos int, blk []byte, window uint64) (int, error) {
	lits, blk, err := d.literals(blk, out[pos:])
	if err != nil {
		return 0, err
	}
	// Number of sequences.
	if len(blk) < 1 {
		return 0, corrupt("missing sequences section")
	}
	nseq := int(blk[0])
	switch {
	case nseq < 128:
		blk = blk[1:]
	case nseq < 255:
		if len(blk) < 2 {
			return 0, corrupt("truncated sequence count")
		}
		nseq = (nseq-128)<<8 + int(blk[1])
		blk = blk[2:]
	default:
		if len(blk) < 3 {
			return 0, corrupt("truncated sequence count")
		}
		nseq = int(blk[1]) + int(blk[2])<<8 + 0x7F00
		blk = blk[3:]
	}
	if nseq == 0 {
		if len(blk) != 0 {
			return 0, corrupt("%d bytes after an empty sequences section", len(blk))
		}
		if len(lits) > len(out)-pos {
			return 0, corrupt("literals overflow the block")
		}
		if len(lits) > 0 && &lits[0] == &out[pos] {
			return pos + len(lits), nil // decoded in place
		}
		return pos + copy(out[pos:], lits), nil
	}
	if len(blk) < 1 {
		return 0, corrupt("missing compression modes")
	}
	modes := blk[0]
	blk = blk[1:]
	if modes&3 != 0 {
		return 0, ErrReservedModes
	}
	if d.ll, blk, err = d.table(modes>>6, blk, d.ll, d.llBuf[:], &d.llDesc, &d.llSpare, llPredef[:64], llBase[:], llBits[:], 35, 9); err != nil {
		return 0, fmt.Errorf("literal lengths: %w", err)
	}
	if d.of, blk, err = d.table(modes>>4&3, blk, d.of, d.ofBuf[:], &d.ofDesc, &d.ofSpare, ofPredef[:32], nil, nil, 31, 8); err != nil {
		return 0, fmt.Errorf("offsets: %w", err)
	}
	if d.ml, blk, err = d.table(modes>>2&3, blk, d.ml, d.mlBuf[:], &d.mlDesc, &d.mlSpare, mlPredef[:64], mlBase[:], mlBits[:], 52, 9); err != nil {
		return 0, fmt.Errorf("match lengths: %w", err)
	}
	return d.sequences(out, pos, lits, blk, nseq, window)
}

// literals decodes the literals section at the start of blk and returns
// the literals and the rest of the block. Raw literals are returned in
// place; the others are decoded into d.lits, which has litSlack spare,
// or, when no sequences follow them, into out, the output left in the
// block, where they are the block's output: c-blosc2's byte planes of
// noisy data are such blocks, whose copy would be a tenth of their time.
// Every literal goes to the output, so a section claiming more than
// len(out) is corrupt; buffers are sized by it.
func (d *Decoder) literals(blk, out []byte) ([]byte, []byte, error) {
	room := len(out)
	if len(blk) < 1 {
		return nil, nil, corrupt("missing literals section")
	}
	b0 := blk[0]
	typ, sf := b0&3, b0>>2&3
	if typ < 2 {
		var regen, hdr int
		switch sf {
		case 0, 2:
			regen, hdr = int(b0>>3), 1
		case 1:
			if len(blk) < 2 {
				return nil, nil, corrupt("truncated literals header")
			}
			regen, hdr = int(b0>>4)+int(blk[1])<<4, 2
		case 3:
			if len(blk) < 3 {
				return nil, nil, corrupt("truncated literals header")
			}
			regen, hdr = int(b0>>4)+int(blk[1])<<4+int(blk[2])<<12, 3
		}
		if regen > room {
			return nil, nil, corrupt("%d literals for %d bytes of output", regen, room)
		}
		if typ == 0 {
			if len(blk) < hdr+regen {
				return nil, nil, corrupt("truncated raw literals")
			}
			return blk[hdr : hdr+regen], blk[hdr+regen:], nil
		}
		if len(blk) < hdr+1 {
			return nil, nil, corrupt("truncated RLE literals")
		}
		lits := d.litBuf(regen)
		fill(lits, blk[hdr])
		return lits, blk[hdr+1:], nil
	}
	var hdr, bits int
	streams := 4
	switch sf {
	case 0:
		hdr, bits, streams = 3, 10, 1
	case 1:
		hdr, bits = 3, 10
	case 2:
		hdr, bits = 4, 14
	case 3:
		hdr, bits = 5, 18
	}
	if len(blk) < hdr {
		return nil, nil, corrupt("truncated literals header")
	}
	var v uint64
	for i := hdr - 1; i >= 0; i-- {
		v = v<<8 | uint64(blk[i])
	}
	mask := uint64(1)<<bits - 1
	regen, csize := int(v>>4&mask), int(v>>(4+bits)&mask)
	if regen > room {
		return nil, nil, corrupt("%d literals for %d bytes of output", regen, room)
	}
	if len(blk) < hdr+csize {
		return nil, nil, corrupt("truncated compressed literals")
	}
	data, rest := blk[hdr:hdr+csize], blk[hdr+csize:]
	if typ == 2 {
		var err error
		data, err = d.readHuffTable(data)
		if err != nil {
			d.huffValid = false
			return nil, nil, err
		}
		d.huffValid = true
	} else if !d.huffValid {
		return nil, nil, corrupt("treeless literals without a previous table")
	}
	var buf []byte
	if len(rest) == 1 && rest[0] == 0 {
		// No sequences (a count of 0 and nothing after it).
		buf = out[:regen]
	} else {
		buf = d.litBuf(regen)
	}
	var err error
	if streams == 1 {
		err = d.ht.decode1(buf, data)
	} else {
		err = d.ht.decode4(buf, data)
	}
	if err != nil {
		return nil, nil, err
	}
	return buf, rest, nil
}

func (d *Decoder) litBuf(n int) []byte {
	if len(d.lits) < n+litSlack {
		d.lits = make([]byte, n+litSlack)
	}
	return d.lits[:n]
}

// contentSize decodes a frame header's Frame_Content_Size field of n
// bytes (1, 2, 4 or 8; len(in) >= n), 0 for any other n.
func contentSize(in []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(in[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(in)) + 256
	case 4:
		return uint64(binary.LittleEndian.Uint32(in))
	case 8:
		return binary.LittleEndian.Uint64(in)
	}
	return 0
}
