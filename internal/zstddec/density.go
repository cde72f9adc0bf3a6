package zstddec

import "encoding/binary"

// BlockStats describes the first compressed block of a frame, read from
// its headers only: Bytes is the output it makes at most (the frame's
// content size, up to the 128 KiB block limit), Literals the literal
// bytes it holds, Sequences the number of its sequences.
type BlockStats struct {
	Bytes, Literals, Sequences int
}

// FirstBlock returns the BlockStats of the frame src's first compressed
// block, or false when the frame has none or its headers do not parse.
// Without the assembly loop (AssemblyLoop false), Decode is much faster
// than klauspost's decoder on frames of long sequences (runs, ramps,
// repeated records: long matches, often overlapping at a short offset,
// which klauspost copies byte by byte) and slower on frames of many
// short sequences or many literals, where klauspost's assembly sequence
// loop wins; a caller can pick the decoder per frame with these figures.
func FirstBlock(src []byte) (BlockStats, bool) {
	if len(src) < 6 || binary.LittleEndian.Uint32(src) != frameMagic {
		return BlockStats{}, false
	}
	fhd := src[4]
	in := src[5:]
	single := fhd&0x20 != 0
	if !single {
		if len(in) < 1 {
			return BlockStats{}, false
		}
		in = in[1:]
	}
	if dl := [4]int{0, 1, 2, 4}[fhd&3]; len(in) >= dl {
		in = in[dl:]
	} else {
		return BlockStats{}, false
	}
	fcsLen := [4]int{0, 2, 4, 8}[fhd>>6]
	if single && fhd>>6 == 0 {
		fcsLen = 1
	}
	if len(in) < fcsLen {
		return BlockStats{}, false
	}
	if fcsLen == 0 {
		return BlockStats{}, false
	}
	fcs := contentSize(in, fcsLen)
	in = in[fcsLen:]
	for len(in) >= 3 {
		bh := uint32(in[0]) | uint32(in[1])<<8 | uint32(in[2])<<16
		in = in[3:]
		size := int(bh >> 3)
		switch (bh >> 1) & 3 {
		case 0:
			if size > len(in) || uint64(size) > fcs {
				return BlockStats{}, false
			}
			in, fcs = in[size:], fcs-uint64(size)
		case 1:
			if len(in) < 1 || uint64(size) > fcs {
				return BlockStats{}, false
			}
			in, fcs = in[1:], fcs-uint64(size)
		case 2:
			if size > len(in) {
				return BlockStats{}, false
			}
			nseq, lits, ok := sequenceCount(in[:size])
			if !ok {
				return BlockStats{}, false
			}
			return BlockStats{Bytes: int(min(fcs, maxBlockSize)), Literals: lits, Sequences: nseq}, true
		default:
			return BlockStats{}, false
		}
		if bh&1 != 0 {
			break
		}
	}
	return BlockStats{}, false
}

// sequenceCount reads the number of sequences and of literals of a
// compressed block.
func sequenceCount(blk []byte) (nseq, lits int, ok bool) {
	if len(blk) < 1 {
		return 0, 0, false
	}
	b0 := blk[0]
	typ, sf := b0&3, b0>>2&3
	var skip int
	if typ < 2 {
		var regen int
		switch sf {
		case 0, 2:
			regen, skip = int(b0>>3), 1
		case 1:
			if len(blk) < 2 {
				return 0, 0, false
			}
			regen, skip = int(b0>>4)+int(blk[1])<<4, 2
		case 3:
			if len(blk) < 3 {
				return 0, 0, false
			}
			regen, skip = int(b0>>4)+int(blk[1])<<4+int(blk[2])<<12, 3
		}
		if typ == 0 {
			skip += regen
		} else {
			skip++
		}
		lits = regen
	} else {
		hdr, bits := [4]int{3, 3, 4, 5}[sf], [4]int{10, 10, 14, 18}[sf]
		if len(blk) < hdr {
			return 0, 0, false
		}
		var v uint64
		for i := hdr - 1; i >= 0; i-- {
			v = v<<8 | uint64(blk[i])
		}
		skip = hdr + int(v>>(4+bits)&(1<<bits-1))
		lits = int(v >> 4 & (1<<bits - 1))
	}
	if len(blk) <= skip {
		return 0, 0, false
	}
	blk = blk[skip:]
	n := int(blk[0])
	switch {
	case n < 128:
	case n < 255:
		if len(blk) < 2 {
			return 0, 0, false
		}
		n = (n-128)<<8 + int(blk[1])
	default:
		if len(blk) < 3 {
			return 0, 0, false
		}
		n = int(blk[1]) + int(blk[2])<<8 + 0x7F00
	}
	return n, lits, true
}
