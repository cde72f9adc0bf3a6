package blosc

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/goblosc/blosc/bitshuffle"
	"github.com/goblosc/blosc/internal/codec"
)

// Reading c-blosc2 chunks: the 32-byte extended header, the filter
// pipeline, zero and byte-run streams, dictionaries, variable-length
// blocks and special (header-only) chunks. FORMAT-NOTES.md records where
// the bytes differ from the published format.

const (
	b2FlagDict       = 0x01
	b2FlagLazy       = 0x08
	b2FlagInstrument = 0x80
	b2Flags2VLBlocks = 0x01

	blosc2MaxVersion   = 6
	blosc2MaxBlocksize = 536866816
	blosc2MaxDictSize  = 32 << 10
	blosc2MaxNbytes    = math.MaxInt32 - blosc2HeaderLen
)

func blosc2Codec(code, udcode uint8) (Codec, bool) {
	switch code {
	case 0:
		return BloscLZ, true
	case 1:
		if udcode == uint8(LZ4HC) {
			return LZ4HC, true
		}
		return LZ4, true
	case 3:
		return Zlib, true
	case 4:
		return Zstd, true
	}
	return 0, false
}

// parseBlosc2 decodes and checks a c-blosc2 extended header, and walks the
// offsets and stream sizes so that the size the chunk claims is one its
// bytes can produce before anything is allocated for it.
func (h *Header) parseBlosc2(src []byte) error {
	if len(src) < blosc2HeaderLen {
		return corruptf("%d bytes, shorter than a Blosc2 header", len(src))
	}
	*h = Header{
		Format:       FormatBlosc2,
		Version:      src[0],
		VersionLZ:    src[1],
		Flags:        src[2],
		Typesize:     int(src[3]),
		Nbytes:       le32(src[4:]),
		Blocksize:    le32(src[8:]),
		Cbytes:       le32(src[12:]),
		HeaderLen:    blosc2HeaderLen,
		CodecMeta:    src[23],
		Blosc2Flags2: src[30],
		Blosc2Flags:  src[31],
	}
	for i := 0; i < MaxFilters; i++ {
		h.Filters[i] = Filter(src[16+i])
		h.FilterMeta[i] = src[24+i]
		switch h.Filters[i] {
		case ByteShuffle:
			h.Shuffle = true
		case BitShuffle:
			h.BitShuffle = true
		}
	}
	h.Memcpyed = h.Flags&flagMemcpyed != 0
	h.DontSplit = h.Flags&flagDontSplit != 0
	h.CodecCode = h.Flags >> 5
	codecOK := false
	h.Codec, codecOK = blosc2Codec(h.CodecCode, src[22])
	if !codecOK {
		h.Codec = Codec(0xff)
	}
	if h.Memcpyed && src[22] < uint8(len(codecNames)) {
		// c-blosc2 leaves the flags' codec bits clear on a memcpyed chunk
		// but still records the codec in byte 22.
		h.Codec = Codec(src[22])
	}
	h.Special = Special((h.Blosc2Flags >> 4) & 7)
	h.Dict = h.Blosc2Flags&b2FlagDict != 0
	h.VarBlocks = h.Blosc2Flags2&b2Flags2VLBlocks != 0

	switch {
	case h.Version == 0:
		return corruptf("version 0")
	case h.Version > blosc2MaxVersion:
		return fmt.Errorf("%w: chunk format version %d", ErrUnsupported, h.Version)
	case h.Typesize == 0:
		return corruptf("typesize 0")
	case h.Cbytes < blosc2HeaderLen:
		return corruptf("cbytes %d smaller than the header", h.Cbytes)
	case h.Cbytes > len(src):
		return corruptf("cbytes %d but only %d bytes given", h.Cbytes, len(src))
	case h.Nbytes < 0 || h.Nbytes > blosc2MaxNbytes:
		return corruptf("nbytes %d out of range", h.Nbytes)
	case h.Blosc2Flags&b2FlagInstrument != 0:
		return fmt.Errorf("%w: instrumented chunks", ErrUnsupported)
	case h.Blosc2Flags2&^b2Flags2VLBlocks != 0:
		return fmt.Errorf("%w: flags2 %#x", ErrUnsupported, h.Blosc2Flags2)
	}
	for i, f := range h.Filters {
		if f > TruncPrec {
			return fmt.Errorf("%w: filter %d in slot %d", ErrUnsupported, f, i)
		}
	}

	if h.Special != SpecialNone {
		return h.checkSpecial()
	}
	if h.Blosc2Flags&b2FlagLazy != 0 {
		return fmt.Errorf("%w: lazy chunks (their blocks live in a frame)", ErrUnsupported)
	}
	if h.VarBlocks {
		return h.checkVarBlocks(src)
	}
	if h.Nbytes == 0 {
		if h.Memcpyed && h.Cbytes != blosc2HeaderLen {
			return corruptf("empty memcpyed chunk with cbytes %d", h.Cbytes)
		}
		return nil
	}
	if h.Blocksize <= 0 || h.Blocksize > blosc2MaxBlocksize {
		return corruptf("blocksize %d out of range", h.Blocksize)
	}
	if h.Blocksize > h.Nbytes {
		// c-blosc2 reads such a chunk as one block.
		h.Blocksize = h.Nbytes
	}
	h.Nblocks = h.Nbytes / h.Blocksize
	if h.Nbytes%h.Blocksize != 0 {
		h.Nblocks++
	}
	h.Split = !h.DontSplit
	if h.Memcpyed {
		if h.Cbytes != h.Nbytes+blosc2HeaderLen {
			return corruptf("memcpyed chunk with nbytes %d but cbytes %d", h.Nbytes, h.Cbytes)
		}
		return nil
	}
	if !codecOK {
		return fmt.Errorf("%w: codec code %d (byte 22: %d)", ErrUnsupported, h.CodecCode, src[22])
	}
	if h.Split && h.Typesize > 1 && (h.Blocksize%h.Typesize != 0 || h.Blocksize < h.Typesize) {
		return corruptf("split blocks of %d bytes are not a whole number of %d-byte elements", h.Blocksize, h.Typesize)
	}
	chunk := src[:h.Cbytes]
	streams, err := h.dictBounds(chunk)
	if err != nil {
		return err
	}
	// Walk every stream header: each must lie inside the chunk and the
	// streams of a block must be able to produce its bytes.
	ratio := int64(codec.MaxExpansion(codec.ID(h.Codec)))
	used := 0
	for j := 0; j < h.Nblocks; j++ {
		off := le32(chunk[blosc2HeaderLen+4*j:])
		begin := off
		if off < streams || off >= h.Cbytes {
			return corruptf("block %d starts at %d, outside the streams area [%d, %d)", j, off, streams, h.Cbytes)
		}
		bsize := h.blockSize(j)
		nsplits := h.nsplits2(j)
		neblock := bsize / nsplits
		for k := 0; k < nsplits; k++ {
			if off > h.Cbytes-4 {
				return corruptf("block %d stream %d: size field beyond cbytes", j, k)
			}
			csize := le32(chunk[off:])
			off += 4
			switch {
			case csize == 0:
			case csize < 0:
				if off >= h.Cbytes {
					return corruptf("block %d stream %d: run token beyond cbytes", j, k)
				}
				if chunk[off]&1 == 0 || csize < -255 {
					return corruptf("block %d stream %d: unknown run encoding (csize %d, token %#x)", j, k, csize, chunk[off])
				}
				off++
			default:
				if csize > h.Cbytes-off {
					return corruptf("block %d stream %d: size %d with %d bytes left", j, k, csize, h.Cbytes-off)
				}
				if csize != neblock && int64(csize)*ratio < int64(neblock) {
					return corruptf("block %d stream %d: %d bytes of %s cannot give %d", j, k, csize, h.Codec, neblock)
				}
				off += csize
			}
		}
		used += off - begin
	}
	// c-blosc2 writes the blocks back to back (in any order): bytes no
	// block accounts for mean an offset or a size was altered.
	if used != h.Cbytes-streams {
		return corruptf("streams cover %d bytes of the %d after the offsets", used, h.Cbytes-streams)
	}
	return nil
}

// dictBounds checks the dictionary section, if any, and returns where the
// streams may start.
func (h *Header) dictBounds(chunk []byte) (int, error) {
	if int64(h.Nblocks)*4 > int64(h.Cbytes-blosc2HeaderLen) {
		return 0, corruptf("%d block offsets do not fit in %d bytes", h.Nblocks, h.Cbytes)
	}
	streams := blosc2HeaderLen + 4*h.Nblocks
	if !h.Dict {
		return streams, nil
	}
	if streams > h.Cbytes-4 {
		return 0, corruptf("dictionary size field beyond cbytes")
	}
	dsize := le32(chunk[streams:])
	if dsize <= 0 || dsize > blosc2MaxDictSize || dsize > h.Cbytes-streams-4 {
		return 0, corruptf("dictionary of %d bytes", dsize)
	}
	if h.Codec != LZ4 && h.Codec != LZ4HC && h.Codec != Zstd {
		return 0, fmt.Errorf("%w: a dictionary with %s", ErrUnsupported, h.Codec)
	}
	return streams + 4 + dsize, nil
}

func (h *Header) dict(chunk []byte) []byte {
	if !h.Dict {
		return nil
	}
	at := blosc2HeaderLen + 4*h.Nblocks
	return chunk[at+4 : at+4+le32(chunk[at:])]
}

// nsplits2 is the number of streams of block j of a Blosc2 chunk: c-blosc2
// splits every whole block when the flag says so, whatever the typesize.
func (h *Header) nsplits2(j int) int {
	if h.Split && !h.VarBlocks && !(j == h.Nblocks-1 && h.leftover() > 0) {
		return h.Typesize
	}
	return 1
}

func (h *Header) checkSpecial() error {
	if h.VarBlocks {
		return corruptf("a variable-length-block chunk cannot be special")
	}
	switch h.Special {
	case SpecialValue:
		vts := h.Cbytes - blosc2HeaderLen
		if vts <= 0 || vts > h.Nbytes || h.Nbytes%vts != 0 {
			return corruptf("repeated %d-byte value over %d bytes", vts, h.Nbytes)
		}
	case SpecialNaN:
		if h.Typesize != 4 && h.Typesize != 8 {
			return corruptf("NaN chunk with typesize %d", h.Typesize)
		}
		fallthrough
	case SpecialUninit:
		if h.Nbytes%h.Typesize != 0 {
			return corruptf("nbytes %d not a multiple of typesize %d", h.Nbytes, h.Typesize)
		}
	case SpecialZeros:
	default:
		return fmt.Errorf("%w: special value %d", ErrUnsupported, h.Special)
	}
	return nil
}

// checkVarBlocks checks a chunk of variable-length blocks: the blocksize
// field counts the blocks, each block is one stream preceded by its
// uncompressed size, and the sizes add up to nbytes.
func (h *Header) checkVarBlocks(src []byte) error {
	if h.Memcpyed {
		return corruptf("a variable-length-block chunk cannot be memcpyed")
	}
	h.Nblocks = h.Blocksize
	h.Blocksize = 0
	if h.Nblocks <= 0 {
		return corruptf("%d variable-length blocks", h.Nblocks)
	}
	codecOK := int(h.Codec) < len(codecNames)
	if !codecOK {
		return fmt.Errorf("%w: codec code %d", ErrUnsupported, h.CodecCode)
	}
	chunk := src[:h.Cbytes]
	streams, err := h.dictBounds(chunk)
	if err != nil {
		return err
	}
	ratio := int64(codec.MaxExpansion(codec.ID(h.Codec)))
	total := 0
	prev := 0
	for j := 0; j < h.Nblocks; j++ {
		off, end := h.vlBlock(chunk, j)
		if off < streams || off <= prev || end <= off+4 || end > h.Cbytes {
			return corruptf("variable-length block %d at [%d, %d)", j, off, end)
		}
		bsize := le32(chunk[off:])
		if bsize <= 0 || bsize > h.Nbytes-total {
			return corruptf("variable-length block %d of %d bytes", j, bsize)
		}
		if csize := end - off - 4; csize != bsize && int64(csize)*ratio < int64(bsize) {
			return corruptf("variable-length block %d: %d bytes cannot give %d", j, csize, bsize)
		}
		h.Blocksize = max(h.Blocksize, bsize)
		total += bsize
		prev = off
	}
	if total != h.Nbytes {
		return corruptf("variable-length blocks add up to %d bytes, nbytes is %d", total, h.Nbytes)
	}
	return nil
}

// vlBlock returns where variable-length block j starts and ends.
func (h *Header) vlBlock(chunk []byte, j int) (int, int) {
	off := le32(chunk[blosc2HeaderLen+4*j:])
	end := h.Cbytes
	if j+1 < h.Nblocks {
		end = le32(chunk[blosc2HeaderLen+4*(j+1):])
	}
	return off, end
}

// hasDelta reports whether the pipeline has a delta filter, which makes
// every block depend on block 0.
func (h *Header) hasDelta() bool {
	for _, f := range h.Filters {
		if f == Delta {
			return true
		}
	}
	return false
}

// decompressBlosc2 decodes a checked Blosc2 chunk.
func (e *engine) decompressBlosc2(dst, src []byte, threads int) ([]byte, error) {
	h := &e.h
	out := dst[:cap(dst)]
	if len(out) < h.Nbytes {
		out = make([]byte, h.Nbytes)
	}
	out = out[:h.Nbytes]
	if h.Nbytes == 0 {
		return out, nil
	}
	chunk := src[:h.Cbytes]
	if h.Special != SpecialNone {
		fillSpecial(h, chunk, out)
		return out, nil
	}
	if h.Memcpyed {
		copy(out, chunk[blosc2HeaderLen:])
		return out, nil
	}
	if h.VarBlocks {
		pos := 0
		delta := h.hasDelta()
		for j := 0; j < h.Nblocks; j++ {
			bsize := le32(chunk[le32(chunk[blosc2HeaderLen+4*j:]):])
			var ref []byte
			if delta && j > 0 {
				// c-blosc2 XORs block j with the start of the output,
				// whatever the block sizes: follow it while that prefix is
				// already decoded.
				if bsize > pos {
					return nil, fmt.Errorf("%w: delta over a variable-length block longer than the blocks before it", ErrUnsupported)
				}
				ref = out[:bsize]
			}
			if err := decompressBlock2(&e.ws, h, chunk, j, out[pos:pos+bsize], ref); err != nil {
				return nil, err
			}
			pos += bsize
		}
		return out, nil
	}
	first := 0
	var ref []byte
	if h.hasDelta() {
		// Block 0 is every other block's reference: finish it first.
		if err := decompressBlock2(&e.ws, h, chunk, 0, out[:h.blockSize(0)], nil); err != nil {
			return nil, err
		}
		first, ref = 1, out[:h.Blocksize]
	}
	threads = resolveThreads(threads)
	if threads > 1 && h.Nblocks-first > 1 && e.parallelAt(h.Nbytes) {
		e.chunk, e.out, e.ref, e.first, e.err = chunk, out, ref, first, nil
		runBlocks(&e.batch, decompress2Task{e}, h.Nblocks-first, threads, &e.ws)
		e.chunk, e.out, e.ref = nil, nil, nil
		if e.err != nil {
			err := e.err
			e.err = nil
			return nil, err
		}
		return out, nil
	}
	for j := first; j < h.Nblocks; j++ {
		if err := decompressBlock2(&e.ws, h, chunk, j, out[j*h.Blocksize:j*h.Blocksize+h.blockSize(j)], ref); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type decompress2Task struct{ e *engine }

func (t decompress2Task) doBlock(ws *workerState, i int) {
	e := t.e
	h := &e.h
	j := i + e.first
	if err := decompressBlock2(ws, h, e.chunk, j, e.out[j*h.Blocksize:j*h.Blocksize+h.blockSize(j)], e.ref); err != nil {
		e.setErr(err)
	}
}

// fillSpecial writes what a special chunk stands for.
func fillSpecial(h *Header, chunk, out []byte) {
	switch h.Special {
	case SpecialValue:
		v := chunk[blosc2HeaderLen:h.Cbytes]
		for i := 0; i < len(out); i += len(v) {
			copy(out[i:], v)
		}
	case SpecialNaN:
		if h.Typesize == 4 {
			for i := 0; i+4 <= len(out); i += 4 {
				binary.LittleEndian.PutUint32(out[i:], 0x7fc00000) // nanf("")
			}
		} else {
			for i := 0; i+8 <= len(out); i += 8 {
				binary.LittleEndian.PutUint64(out[i:], 0x7ff8000000000000) // nan("")
			}
		}
	default:
		// Zeros; uninitialised data is returned as zeros too.
		clear(out)
	}
}

// decompressBlock2 is c-blosc2's blosc_d for one block of a checked chunk:
// decode the streams, then undo the pipeline from slot 5 down to slot 0.
// ref is block 0's decoded bytes, needed by delta for the other blocks.
func decompressBlock2(ws *workerState, h *Header, chunk []byte, j int, out, ref []byte) error {
	bsize := len(out)
	filtered := false
	for _, f := range h.Filters {
		if f != NoFilter && f != TruncPrec {
			filtered = true
		}
	}
	buf := out
	if filtered {
		ws.tmp = grow(ws.tmp, bsize)
		buf = ws.tmp
	}
	off := le32(chunk[blosc2HeaderLen+4*j:])
	id := codec.ID(h.Codec)
	dict := h.dict(chunk)
	if h.VarBlocks {
		_, end := h.vlBlock(chunk, j)
		if err := decodeStream(ws, id, buf, chunk[off+4:end], dict); err != nil {
			return fmt.Errorf("%w: block %d: %v", ErrCorrupt, j, err)
		}
	} else {
		nsplits := h.nsplits2(j)
		neblock := bsize / nsplits
		for k := 0; k < nsplits; k++ {
			csize := le32(chunk[off:])
			off += 4
			part := buf[k*neblock : (k+1)*neblock]
			switch {
			case csize == 0:
				clear(part)
			case csize < 0:
				v := byte(-csize)
				for i := range part {
					part[i] = v
				}
				off++
			default:
				if err := decodeStream(ws, id, part, chunk[off:off+csize], dict); err != nil {
					return fmt.Errorf("%w: block %d stream %d: %v", ErrCorrupt, j, k, err)
				}
				off += csize
			}
		}
	}
	if !filtered && !h.hasDelta() {
		return nil
	}
	cur := buf
	for i := MaxFilters - 1; i >= 0; i-- {
		switch h.Filters[i] {
		case ByteShuffle:
			ts := h.Typesize
			if m := h.FilterMeta[i]; m != 0 {
				ts = int(m)
			}
			next := otherBuf(ws, cur, out, bsize)
			Unshuffle(next, cur, ts)
			cur = next
		case BitShuffle:
			next := otherBuf(ws, cur, out, bsize)
			if h.Version <= blosc1Version && (bsize/h.Typesize)%8 != 0 {
				copy(next, cur) // format version 2 bit-shuffles whole blocks only
			} else {
				bitshuffle.Unshuffle(next, cur, h.Typesize)
			}
			cur = next
		case Delta:
			deltaDecode(cur, ref, h.Typesize)
		}
	}
	if &cur[0] != &out[0] {
		copy(out, cur)
	}
	return nil
}

// otherBuf returns a block buffer that is not cur: out itself when cur is
// scratch, else a second scratch buffer.
func otherBuf(ws *workerState, cur, out []byte, n int) []byte {
	if &cur[0] != &out[0] {
		return out
	}
	ws.tmp2 = grow(ws.tmp2, n)
	return ws.tmp2
}

func decodeStream(ws *workerState, id codec.ID, dst, stream, dict []byte) error {
	if len(stream) == len(dst) {
		copy(dst, stream)
		return nil
	}
	if dict != nil {
		return ws.codec.DecompressDict(id, dst, stream, dict)
	}
	return ws.codec.Decompress(id, dst, stream)
}

// deltaDecode undoes c-blosc2's XOR delta in place: block 0 (ref == nil)
// against its own previous element, every other block against the same
// position of block 0. Elements are 1, 2, 4 or 8 bytes (other typesizes
// work in 8-byte words when a multiple of 8, else in bytes), and bytes
// after the last whole element are left alone, as in C.
func deltaDecode(b, ref []byte, typesize int) {
	es := typesize
	switch {
	case es == 1 || es == 2 || es == 4 || es == 8:
	case es%8 == 0:
		es = 8
	default:
		es = 1
	}
	n := len(b) / es * es
	if ref == nil {
		for i := es; i < n; i++ {
			b[i] ^= b[i-es]
		}
		return
	}
	for i := 0; i < n; i++ {
		b[i] ^= ref[i]
	}
}

// getItemBlosc2 is GetItem for a checked Blosc2 chunk.
func (e *engine) getItemBlosc2(dst, src []byte, start, n int) ([]byte, error) {
	h := &e.h
	ts := h.Typesize
	if h.Special == SpecialValue {
		ts = h.Cbytes - blosc2HeaderLen
	}
	if start < 0 || n < 0 || start > h.Nbytes/ts || n > h.Nbytes/ts-start {
		return nil, fmt.Errorf("%w: items [%d, %d+%d) of %d-byte items in %d bytes", ErrRange, start, start, n, ts, h.Nbytes)
	}
	lo, hi := start*ts, (start+n)*ts
	out := dst[:cap(dst)]
	if len(out) < hi-lo {
		out = make([]byte, hi-lo)
	}
	out = out[:hi-lo]
	if lo == hi {
		return out, nil
	}
	chunk := src[:h.Cbytes]
	switch {
	case h.Special != SpecialNone:
		// Every special fill is periodic in the item size.
		fillSpecial(h, chunk, out)
		return out, nil
	case h.Memcpyed:
		copy(out, chunk[blosc2HeaderLen+lo:blosc2HeaderLen+hi])
		return out, nil
	}
	if h.VarBlocks && h.hasDelta() {
		// Each block depends on the output before it: decode it all.
		full, err := e.decompressBlosc2(e.ws.ref[:0], src, 1)
		if err != nil {
			return nil, err
		}
		e.ws.ref = full
		copy(out, full[lo:hi])
		return out, nil
	}
	var ref []byte
	if h.hasDelta() && lo >= h.Blocksize && !h.VarBlocks {
		e.ws.ref = grow(e.ws.ref, h.blockSize(0))
		if err := decompressBlock2(&e.ws, h, chunk, 0, e.ws.ref, nil); err != nil {
			return nil, err
		}
		ref = e.ws.ref
	}
	bstart := 0
	for j := 0; j < h.Nblocks && bstart < hi; j++ {
		bsize := h.blockSize(j)
		if h.VarBlocks {
			bsize = le32(chunk[le32(chunk[blosc2HeaderLen+4*j:]):])
		}
		a, b := max(lo, bstart), min(hi, bstart+bsize)
		if a < b {
			e.ws.blk = grow(e.ws.blk, bsize)
			if err := decompressBlock2(&e.ws, h, chunk, j, e.ws.blk, ref); err != nil {
				return nil, err
			}
			copy(out[a-lo:b-lo], e.ws.blk[a-bstart:b-bstart])
		}
		if j == 0 && h.hasDelta() && ref == nil {
			e.ws.ref = grow(e.ws.ref, bsize)
			if a < b {
				copy(e.ws.ref, e.ws.blk)
			} else if err := decompressBlock2(&e.ws, h, chunk, 0, e.ws.ref, nil); err != nil {
				return nil, err
			}
			ref = e.ws.ref
		}
		bstart += bsize
	}
	return out, nil
}
