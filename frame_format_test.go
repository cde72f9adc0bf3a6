package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// A header with every field set to a value of its own.
func sampleFrameHeader() frameHeader {
	return frameHeader{
		frameLen:     0x0102030405060708,
		generalFlags: frameOffsets64 | frameFormatRC1,
		frameType:    0,
		codecFlags:   0x54,
		otherFlags:   0x02,
		nbytes:       0x1112131415161718,
		cbytes:       0x2122232425262728,
		typesize:     0x31,
		blocksize:    0x41424344,
		chunksize:    0x51525354,
		tcomp:        0x6162,
		tdecomp:      0x7172,
		hasVLMeta:    true,
		nfilters:     MaxFilters,
		filters:      [MaxFilters]uint8{1, 2, 3, 4, 0, 1},
		filterMeta:   [MaxFilters]uint8{9, 8, 7, 6, 5, 4},
		udcodec:      0x05,
		codecMeta:    0x81,
		otherFlags2:  frameUseDict,
		meta:         []metalayer{{"b2nd", []byte{1, 2, 3}}, {"x", nil}},
	}
}

// TestFrameHeaderFields: every header field is written at the byte c-blosc2
// puts it (frame.h's offsets) and read back from there, one field at a time.
func TestFrameHeaderFields(t *testing.T) {
	h := sampleFrameHeader()
	b := appendFrameHeader(nil, &h)
	be16 := func(p int) uint64 { return uint64(binary.BigEndian.Uint16(b[p:])) }
	be32 := func(p int) uint64 { return uint64(binary.BigEndian.Uint32(b[p:])) }
	be64 := func(p int) uint64 { return binary.BigEndian.Uint64(b[p:]) }
	fields := []struct {
		name  string
		got   uint64
		want  uint64
		check func(frameHeader) uint64
	}{
		{"header_len", be32(frameHeaderLenPos), uint64(len(b)), func(g frameHeader) uint64 { return uint64(g.headerLen) }},
		{"frame_len", be64(frameLenPos), uint64(h.frameLen), func(g frameHeader) uint64 { return uint64(g.frameLen) }},
		{"general_flags", uint64(b[frameFlagsPos]), uint64(h.generalFlags), func(g frameHeader) uint64 { return uint64(g.generalFlags) }},
		{"frame_type", uint64(b[frameTypePos]), uint64(h.frameType), func(g frameHeader) uint64 { return uint64(g.frameType) }},
		{"codec_flags", uint64(b[frameCodecsPos]), uint64(h.codecFlags), func(g frameHeader) uint64 { return uint64(g.codecFlags) }},
		{"other_flags", uint64(b[frameOtherFlagsPos]), uint64(h.otherFlags), func(g frameHeader) uint64 { return uint64(g.otherFlags) }},
		{"uncompressed_size", be64(frameNbytesPos), uint64(h.nbytes), func(g frameHeader) uint64 { return uint64(g.nbytes) }},
		{"compressed_size", be64(frameCbytesPos), uint64(h.cbytes), func(g frameHeader) uint64 { return uint64(g.cbytes) }},
		{"type_size", be32(frameTypesizePos), uint64(h.typesize), func(g frameHeader) uint64 { return uint64(g.typesize) }},
		{"block_size", be32(frameBlocksizePos), uint64(h.blocksize), func(g frameHeader) uint64 { return uint64(g.blocksize) }},
		{"chunk_size", be32(frameChunksizePos), uint64(h.chunksize), func(g frameHeader) uint64 { return uint64(g.chunksize) }},
		{"tcomp", be16(frameTcompPos), uint64(h.tcomp), func(g frameHeader) uint64 { return uint64(g.tcomp) }},
		{"tdecomp", be16(frameTdecompPos), uint64(h.tdecomp), func(g frameHeader) uint64 { return uint64(g.tdecomp) }},
		{"has_vlmetalayers", uint64(b[frameHasVLMetaPos]), 0xc3, func(g frameHeader) uint64 {
			if g.hasVLMeta {
				return 0xc3
			}
			return 0xc2
		}},
		{"nfilters", uint64(b[framePipelinePos]), MaxFilters, func(g frameHeader) uint64 { return uint64(g.nfilters) }},
		{"filters", be32(frameFiltersPos)<<16 | be16(frameFiltersPos+4), 0x010203040001, func(g frameHeader) uint64 {
			f := g.filters
			return uint64(f[0])<<40 | uint64(f[1])<<32 | uint64(f[2])<<24 | uint64(f[3])<<16 | uint64(f[4])<<8 | uint64(f[5])
		}},
		{"udcodec", uint64(b[frameUDCodecPos]), uint64(h.udcodec), func(g frameHeader) uint64 { return uint64(g.udcodec) }},
		{"codec_meta", uint64(b[frameCodecMetaPos]), uint64(h.codecMeta), func(g frameHeader) uint64 { return uint64(g.codecMeta) }},
		{"filters_meta", be32(frameFilterMetaPos)<<16 | be16(frameFilterMetaPos+4), 0x090807060504, func(g frameHeader) uint64 {
			f := g.filterMeta
			return uint64(f[0])<<40 | uint64(f[1])<<32 | uint64(f[2])<<24 | uint64(f[3])<<16 | uint64(f[4])<<8 | uint64(f[5])
		}},
		{"other_flags2", uint64(b[frameOtherFlags2Pos]), frameUseDict, func(g frameHeader) uint64 { return uint64(g.otherFlags2) }},
		{"metalayer index size", be16(frameMetaIdxSizePos), 7 + 10 + 7, nil},
	}
	// Parsing needs a frame length that covers the header.
	bp := bytes.Clone(b)
	binary.BigEndian.PutUint64(bp[frameLenPos:], uint64(len(bp)))
	g, err := parseFrameHeader(bp)
	if err != nil {
		t.Fatal(err)
	}
	g.frameLen = h.frameLen
	for _, f := range fields {
		if f.got != f.want {
			t.Errorf("%s written as %#x, want %#x", f.name, f.got, f.want)
		}
		if f.check != nil {
			if r := f.check(g); r != f.want {
				t.Errorf("%s read back as %#x, want %#x", f.name, r, f.want)
			}
		}
	}
	if !reflect.DeepEqual(g.meta, []metalayer{{"b2nd", []byte{1, 2, 3}}, {"x", []byte{}}}) {
		t.Errorf("metalayers read back as %+v", g.meta)
	}
	if len(b) != frameHeaderSize(h.meta) {
		t.Errorf("header of %d bytes, frameHeaderSize says %d", len(b), frameHeaderSize(h.meta))
	}
	// Each field's value, changed alone, changes only its own bytes.
	for _, mut := range []func(*frameHeader){
		func(x *frameHeader) { x.nbytes++ }, func(x *frameHeader) { x.cbytes++ }, func(x *frameHeader) { x.typesize++ },
		func(x *frameHeader) { x.blocksize++ }, func(x *frameHeader) { x.chunksize++ }, func(x *frameHeader) { x.tcomp++ },
		func(x *frameHeader) { x.tdecomp++ }, func(x *frameHeader) { x.codecFlags++ }, func(x *frameHeader) { x.otherFlags++ },
		func(x *frameHeader) { x.udcodec++ }, func(x *frameHeader) { x.codecMeta++ }, func(x *frameHeader) { x.otherFlags2++ },
	} {
		h2 := sampleFrameHeader()
		mut(&h2)
		b2 := appendFrameHeader(nil, &h2)
		diff := 0
		for i := range b {
			if b[i] != b2[i] {
				diff++
			}
		}
		if diff != 1 {
			t.Errorf("changing one field by 1 changed %d bytes", diff)
		}
	}
}

// TestFrameTrailerFields: the trailer's vlmetalayer section, length and
// fingerprint, as c-blosc2's frame_update_trailer writes them.
func TestFrameTrailerFields(t *testing.T) {
	vl := []metalayer{{"author", []byte("abc")}, {"attrs", []byte("0123456789")}}
	tr := appendFrameTrailer(nil, vl)
	if len(tr) != frameTrailerSize(vl) {
		t.Fatalf("trailer of %d bytes, frameTrailerSize says %d", len(tr), frameTrailerSize(vl))
	}
	want := []byte{0x94, 0x01, 0x93, 0xcd}
	if !bytes.Equal(tr[:4], want) {
		t.Errorf("trailer starts % x", tr[:4])
	}
	// The index size excludes the 93 marker: cd size de n, then the names.
	if got := binary.BigEndian.Uint16(tr[4:]); got != 6+12+11 {
		t.Errorf("index size %d", got)
	}
	// Offsets are from the trailer's start, to bin32 values.
	off := binary.BigEndian.Uint32(tr[7+2+1+6+1:])
	if tr[off] != 0xc6 || binary.BigEndian.Uint32(tr[off+1:]) != 3 || string(tr[off+5:off+8]) != "abc" {
		t.Errorf("first value at %d: % x", off, tr[off:off+8])
	}
	tail := tr[len(tr)-23:]
	if tail[0] != 0xce || binary.BigEndian.Uint32(tail[1:]) != uint32(len(tr)) || tail[5] != 0xd8 || tail[6] != 0 || !bytes.Equal(tail[7:], make([]byte, 16)) {
		t.Errorf("length and fingerprint % x", tail)
	}
	got, err := parseFrameTrailer(tr)
	if err != nil || !reflect.DeepEqual(got, vl) {
		t.Errorf("read back %+v, %v", got, err)
	}
	empty := appendFrameTrailer(nil, nil)
	if len(empty) != frameTrailerMinLen+10 {
		t.Errorf("empty trailer of %d bytes", len(empty))
	}
}

// TestFrameHeaderRefusals: each marker, count and length is checked.
func TestFrameHeaderRefusals(t *testing.T) {
	h := sampleFrameHeader()
	base := appendFrameHeader(nil, &h)
	binary.BigEndian.PutUint64(base[frameLenPos:], uint64(len(base)))
	for pos := 0; pos < frameHeaderMinLen+7; pos++ {
		switch pos {
		case frameFlagsPos, frameCodecsPos, frameOtherFlagsPos, frameTypePos:
			continue // free values, checked by the frame reader
		}
		if pos >= frameFiltersPos && pos < frameHeaderMinLen || pos >= frameNbytesPos && pos < frameNbytesPos+8 ||
			pos >= frameCbytesPos && pos < frameCbytesPos+8 || pos >= frameTcompPos && pos < frameTcompPos+2 ||
			pos >= frameTdecompPos && pos < frameTdecompPos+2 || pos >= frameLenPos && pos < frameLenPos+8 ||
			pos >= frameBlocksizePos && pos < frameBlocksizePos+4 || pos >= frameChunksizePos && pos < frameChunksizePos+4 ||
			pos == frameTypesizePos+3 {
			continue // values any of whose bit flips stays in range; the frame reader checks them against the rest
		}
		b := bytes.Clone(base)
		b[pos] ^= 0x40
		if _, err := parseFrameHeader(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("byte %d flipped: %v", pos, err)
		}
	}
	for _, n := range []int{0, 1, frameHeaderMinLen - 1, len(base) - 1} {
		if _, err := parseFrameHeader(base[:n]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d bytes: %v", n, err)
		}
	}
	b := bytes.Clone(base)
	b[frameFlagsPos] = 0x1f
	if _, err := parseFrameHeader(b); !errors.Is(err, ErrUnsupported) || !errors.Is(err, ErrCorrupt) {
		t.Errorf("version 15: %v", err)
	}
}
