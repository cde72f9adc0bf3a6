package blosc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// A Blosc2 contiguous frame (.b2frame) is a super-chunk serialised as
// c-blosc2 does it: a msgpack header with the fixed-size metalayers, the
// chunks' bytes, an offsets index (a Blosc2 chunk of int64 offsets into the
// chunk bytes, or special values for chunks stored only there) and a
// msgpack trailer with the variable-length metalayers.

// offsetsOptions are the parameters c-blosc2 compresses the offsets index
// with each time a chunk is appended, inserted, updated or deleted.
func offsetsOptions() Options {
	var o Options
	o.Format = FormatBlosc2
	o.Codec = BloscLZ
	o.Level = 5
	o.Typesize = 8
	o.Filters[MaxFilters-1] = ByteShuffle
	o.SplitMode = SplitNever
	o.Blocksize = 16 << 10
	o.Threads = 1
	return o
}

// offsetsChunk returns the offsets index as the frame stores it: nothing
// for a super-chunk that never had a chunk, the chunk read with the frame
// while the index is unchanged, a repeated-value chunk for an index made by
// AppendSpecial's fast path (as blosc2_schunk_fill_special writes it), and
// otherwise the offsets compressed as c-blosc2 compresses them.
func (s *SChunk) offsetsChunk() ([]byte, error) {
	// Reads share s and may compute it at once.
	s.sy.cache.Lock()
	defer s.sy.cache.Unlock()
	if s.offsChunk != nil {
		return s.offsChunk, nil
	}
	if x := s.offs.lazy; x != nil {
		return x.whole()
	}
	n := s.offs.len()
	if n == 0 && s.hdr.chunksize == -1 {
		return nil, nil
	}
	if s.offs.rep {
		h, err := specialHeader(8*n, 8, specialValue)
		if err != nil {
			return nil, err
		}
		h.blocksize = blocksize2(8*n, 8, 5, BloscLZ, shuffleLast, SplitForwardCompat, 16<<10)
		var v [8]byte
		binary.LittleEndian.PutUint64(v[:], uint64(s.offs.repVal))
		s.offsChunk = putSpecial(nil, h, v[:])
		return s.offsChunk, nil
	}
	raw := make([]byte, 8*n)
	for i, o := range s.offs.vals {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(o))
	}
	o := offsetsOptions()
	p, err := o.params()
	if err != nil {
		return nil, err
	}
	e := enginePool.Get().(*engine)
	c, err := e.compress2Dest(nil, raw, &p, len(raw)+header2Len+s.offsSlack)
	enginePool.Put(e)
	if err != nil {
		return nil, err
	}
	s.offsChunk = c
	return c, nil
}

// frameParts returns the header, offsets chunk and trailer of the frame,
// the header carrying the whole frame's length.
func (s *SChunk) frameParts() (hdr, offs, trailer []byte, err error) {
	if offs, err = s.offsetsChunk(); err != nil {
		return nil, nil, nil, err
	}
	h := s.hdr
	h.cbytes = s.regionLen()
	h.hasVLMeta = len(s.vlmeta) > 0
	trailer = appendFrameTrailer(nil, s.vlmeta)
	h.frameLen = int64(frameHeaderSize(h.meta)+len(offs)+len(trailer)) + h.cbytes
	hdr = appendFrameHeader(nil, &h)
	return hdr, offs, trailer, nil
}

// AppendFrame appends the contiguous frame of the super-chunk to dst and
// returns the extended slice: the bytes c-blosc2's blosc2_schunk_to_buffer returns for an
// in-memory contiguous super-chunk built by the same operations.
func (s *SChunk) AppendFrame(dst []byte) ([]byte, error) {
	var v []byte
	err := s.readData(func() (err error) {
		v, err = s.appendFrame(dst)
		return err
	})
	return v, err
}

func (s *SChunk) appendFrame(dst []byte) ([]byte, error) {
	if s.sparse != nil {
		c, err := s.contiguous()
		if err != nil {
			return nil, err
		}
		return c.AppendFrame(dst)
	}
	hdr, offs, trailer, err := s.frameParts()
	if err != nil {
		return nil, err
	}
	region, err := s.regionBytes()
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst, len(hdr)+len(region)+len(offs)+len(trailer))
	dst = append(dst, hdr...)
	dst = append(dst, region...)
	dst = append(dst, offs...)
	return append(dst, trailer...), nil
}

// FrameLen returns the length of the frame Frame writes.
func (s *SChunk) FrameLen() (int64, error) {
	var v int64
	err := s.readData(func() (err error) {
		v, err = s.frameLen()
		return err
	})
	return v, err
}

func (s *SChunk) frameLen() (int64, error) {
	if s.sparse != nil {
		c, err := s.contiguous()
		if err != nil {
			return 0, err
		}
		return c.FrameLen()
	}
	offs, err := s.offsetsChunk()
	if err != nil {
		return 0, err
	}
	return int64(frameHeaderSize(s.hdr.meta)+len(offs)+frameTrailerSize(s.vlmeta)) + s.regionLen(), nil
}

// WriteTo writes the contiguous frame to w.
func (s *SChunk) WriteTo(w io.Writer) (int64, error) {
	var v int64
	err := s.readData(func() (err error) {
		v, err = s.writeTo(w)
		return err
	})
	return v, err
}

func (s *SChunk) writeTo(w io.Writer) (int64, error) {
	if s.sparse != nil {
		c, err := s.contiguous()
		if err != nil {
			return 0, err
		}
		return c.WriteTo(w)
	}
	hdr, offs, trailer, err := s.frameParts()
	if err != nil {
		return 0, err
	}
	region, err := s.regionBytes()
	if err != nil {
		return 0, err
	}
	var total int64
	for _, part := range [][]byte{hdr, region, offs, trailer} {
		n, err := w.Write(part)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// ParseFrame reads a contiguous frame (the whole frame in b; bytes after
// its length are ignored). The super-chunk shares b's bytes until its
// first change, so b must not change while it is in use.
//
// Every length, offset and count is checked against b before anything is
// allocated for it: a frame whose header, trailer, offsets index or chunks
// lie (overrun the frame, overlap, claim more chunks than the index
// holds, code an unknown special value) returns an error wrapping
// ErrCorrupt.
func ParseFrame(b []byte) (*SChunk, error) {
	h, err := parseFrameHeader(b)
	if err != nil {
		return nil, err
	}
	if err := h.checkContiguous(); err != nil {
		return nil, err
	}
	if h.frameLen > int64(len(b)) {
		return nil, fmt.Errorf("%w: frame of %d bytes, only %d given", ErrCorrupt, h.frameLen, len(b))
	}
	if h.frameLen < int64(h.headerLen)+frameTrailerMinLen {
		return nil, fmt.Errorf("%w: frame of %d bytes with a %d-byte header", ErrCorrupt, h.frameLen, h.headerLen)
	}
	b = b[:h.frameLen]
	tl, err := frameTrailerLen(b, h.frameLen, h.headerLen)
	if err != nil {
		return nil, err
	}
	trailerOff := len(b) - tl
	vl, err := parseFrameTrailer(b[trailerOff:])
	if err != nil {
		return nil, err
	}
	for _, m := range vl {
		if _, err := ReadHeader(m.content); err != nil {
			return nil, fmt.Errorf("vlmetalayer %q: %w", m.name, err)
		}
	}
	if h.cbytes > int64(trailerOff-h.headerLen) {
		return nil, fmt.Errorf("%w: %d bytes of chunks do not fit between the header and the trailer (%d bytes)", ErrCorrupt, h.cbytes, trailerOff-h.headerLen)
	}
	s := &SChunk{hdr: h, vlmeta: vl}
	s.region = b[h.headerLen : h.headerLen+int(h.cbytes) : h.headerLen+int(h.cbytes)]
	if err := s.readIndex(b[h.headerLen+int(h.cbytes) : trailerOff]); err != nil {
		return nil, err
	}
	s.setOptions()
	return s, nil
}

// readIndex reads and checks the offsets index (at the start of idx) and
// the chunk headers it points at.
func (s *SChunk) readIndex(idx []byte) error {
	h := &s.hdr
	var nchunks int64
	switch {
	case h.nbytes == 0:
		if h.chunksize != -1 && len(idx) >= header2Len {
			// A frame whose chunks were all deleted keeps its index.
			if _, err := ReadHeader(idx); err != nil {
				return fmt.Errorf("offsets index: %w", err)
			}
			s.offsChunk = idx[:chunkCbytes(idx)]
		}
		return nil
	case h.chunksize > 0:
		nchunks = (h.nbytes + int64(h.chunksize) - 1) / int64(h.chunksize)
	case h.chunksize == 0:
		nchunks = -1 // from the index
	default:
		return fmt.Errorf("%w: frame of %d bytes with chunk size %d", ErrCorrupt, h.nbytes, h.chunksize)
	}
	if nchunks > maxFrameChunks {
		return fmt.Errorf("%w: %d chunks claimed, an offsets index holds at most %d", ErrCorrupt, nchunks, maxFrameChunks)
	}
	oh, err := ReadHeader(idx)
	if err != nil {
		return frameChunkErr("offsets index", err)
	}
	if oh.Format != FormatBlosc2 || oh.Nbytes%8 != 0 {
		return fmt.Errorf("%w: offsets index of %d bytes", ErrCorrupt, oh.Nbytes)
	}
	if nchunks < 0 {
		nchunks = int64(oh.Nbytes / 8)
	}
	if int64(oh.Nbytes) != 8*nchunks {
		return fmt.Errorf("%w: the offsets index lists %d chunks, the header's sizes make %d", ErrCorrupt, oh.Nbytes/8, nchunks)
	}
	n := int(nchunks)
	s.offsChunk = idx[:oh.Cbytes:oh.Cbytes]
	if oh.Special == SpecialValue && oh.Cbytes == header2Len+8 || oh.Special == SpecialZeros {
		var v int64
		if oh.Special == SpecialValue {
			v = int64(binary.LittleEndian.Uint64(idx[header2Len:]))
		}
		s.offs = offsetIndex{rep: true, repVal: v, n: n}
	} else {
		raw, err := Decompress(nil, idx)
		if err != nil {
			return fmt.Errorf("offsets index: %w", err)
		}
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		s.offs = offsetIndex{vals: vals, n: n}
	}
	switch {
	case s.sparse != nil:
		return s.checkSparseIDs()
	case s.file != nil:
		return s.checkOffsetsLazy()
	}
	return s.checkChunks()
}

// frameChunkErr reports a chunk of a frame that does not parse. Inside a
// frame an unknown chunk version is as likely an offset pointing at the
// wrong bytes as a chunk from a newer library: the error wraps ErrCorrupt,
// and ErrUnsupported too when the chunk said so. A filter or codec this
// package lacks is only unsupported: plugins make such chunks common.
func frameChunkErr(what string, err error) error {
	if errors.Is(err, ErrCorrupt) || isUnimplemented(err) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
}

// checkRepOffset checks an index of one repeated offset (c-blosc2's
// fill_special): a special value for any number of chunks (of a fixed
// size), or a real offset for one chunk. done says nothing more is left to
// check.
func (s *SChunk) checkRepOffset() (done bool, err error) {
	if !s.offs.rep {
		return false, nil
	}
	off, n := s.offs.repVal, s.offs.len()
	if off >= 0 {
		if n > 1 {
			return true, fmt.Errorf("%w: %d chunks at the one offset %d", ErrCorrupt, n, off)
		}
		return false, nil
	}
	if _, err := offsetKind(off); err != nil {
		return true, err
	}
	if s.hdr.chunksize <= 0 {
		return true, fmt.Errorf("%w: special chunks in a frame of variable-size chunks", ErrCorrupt)
	}
	return true, nil
}

func chunkCbytes(c []byte) int { return int(int32(binary.LittleEndian.Uint32(c[12:]))) }

// checkChunks checks every offset and the header of every chunk stored: it
// lies inside the chunk bytes, no two overlap, the sizes follow the chunk
// size (or, for variable-size frames, add up to the frame's nbytes).
func (s *SChunk) checkChunks() error {
	h := &s.hdr
	n := s.offs.len()
	fixed := h.chunksize > 0
	if !fixed {
		s.varStarts = make([]int64, n+1)
	}
	if done, err := s.checkRepOffset(); done || err != nil {
		return err
	}
	type span struct{ lo, hi int64 }
	spans := make([]span, 0, min(n, len(s.region)/header2Len+1))
	var acc int64
	for i := 0; i < n; i++ {
		off := s.offs.get(i)
		want := -1
		if fixed {
			start := int64(i) * int64(h.chunksize)
			want = int(min(int64(h.chunksize), h.nbytes-start))
		}
		if off < 0 {
			if _, err := offsetKind(off); err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			if !fixed {
				return fmt.Errorf("%w: special chunk %d in a frame of variable-size chunks", ErrCorrupt, i)
			}
			continue
		}
		if off > int64(len(s.region))-header2Len {
			return fmt.Errorf("%w: chunk %d at offset %d, the chunk bytes end at %d", ErrCorrupt, i, off, len(s.region))
		}
		ch, err := parseHeader2(s.region[off:])
		if err != nil {
			return frameChunkErr(fmt.Sprintf("chunk %d at offset %d", i, off), err)
		}
		if fixed && ch.nbytes != want {
			return fmt.Errorf("%w: chunk %d holds %d bytes, the frame's chunk size makes it %d", ErrCorrupt, i, ch.nbytes, want)
		}
		if !fixed {
			acc += int64(ch.nbytes)
			s.varStarts[i+1] = acc
		}
		spans = append(spans, span{off, off + int64(ch.cbytes)})
	}
	if !fixed && acc != h.nbytes {
		return fmt.Errorf("%w: chunks hold %d bytes, the frame says %d", ErrCorrupt, acc, h.nbytes)
	}
	slices.SortFunc(spans, func(a, b span) int { return int(a.lo - b.lo) })
	for i := 1; i < len(spans); i++ {
		if spans[i].lo < spans[i-1].hi {
			return fmt.Errorf("%w: chunks at offsets %d and %d overlap", ErrCorrupt, spans[i-1].lo, spans[i].lo)
		}
	}
	return nil
}

// setOptions derives the chunk options changes compress with from the
// header of a frame read, as c-blosc2 builds its context from them.
func (s *SChunk) setOptions() {
	h := &s.hdr
	var o Options
	o.Format = FormatBlosc2
	code := h.codec()
	if code == 6 {
		code = h.udcodec
	}
	o.Codec = Codec(code)
	o.CodecMeta = h.codecMeta
	o.Level = h.clevel()
	o.Typesize = int(h.typesize)
	for i := range o.Filters {
		o.Filters[i] = Filter(h.filters[i])
		o.FilterMeta[i] = h.filterMeta[i]
	}
	o.Blocksize = int(h.blocksize)
	o.SplitMode = SplitMode(h.splitMode())
	o.Dict = h.otherFlags2&frameUseDict != 0
	s.opts = o
	if h.chunksize > 0 {
		s.chunkSize = int(h.chunksize)
	}
	p, err := o.params()
	if err == nil && (o.Codec == Snappy || (code > uint8(Zstd) && code < firstPluginID)) {
		err = fmt.Errorf("%w: codec %d", ErrUnsupported, code)
	}
	if err != nil {
		s.noCompress = fmt.Errorf("%w: the frame's compression settings: %v", ErrUnsupported, err)
		return
	}
	s.params = p
}
