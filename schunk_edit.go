package blosc

// Changing a super-chunk chunk by chunk: ready-made chunks appended,
// inserted, updated, deleted, and the region that holds them.

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/goblosc/blosc/internal/schunkhook"
)

// checkChunk validates a ready-made chunk for position i: a valid Blosc2
// chunk of the super-chunk's typesize whose size fits the chunk size, and
// of the same block kind as the others. last says whether it will be the
// last chunk. It returns the chunk cut to its cbytes.
func (s *SChunk) checkChunk(chunk []byte, i int, last bool, replacing bool) ([]byte, error) {
	h, err := ReadHeader(chunk)
	if err != nil {
		return nil, err
	}
	if h.Format != FormatBlosc2 {
		return nil, fmt.Errorf("%w: a frame holds Blosc2 chunks, not a Blosc1 chunk", ErrInvalidOptions)
	}
	if h.Typesize != int(s.hdr.typesize) {
		return nil, fmt.Errorf("%w: chunk of typesize %d in a super-chunk of typesize %d", ErrInvalidOptions, h.Typesize, s.hdr.typesize)
	}
	if !s.fixed() && s.hdr.chunksize == 0 {
		return nil, fmt.Errorf("%w: changing a frame of variable-size chunks", ErrUnsupported)
	}
	cs := s.chunkSize
	if s.hdr.chunksize > 0 {
		cs = int(s.hdr.chunksize)
	}
	if h.Nbytes == 0 {
		return nil, fmt.Errorf("%w: an empty chunk has no place in a frame of fixed chunk size", ErrInvalidOptions)
	}
	if cs > 0 {
		if h.Nbytes > cs {
			return nil, fmt.Errorf("%w: chunk of %d bytes in a super-chunk of chunk size %d", ErrInvalidOptions, h.Nbytes, cs)
		}
		if h.Nbytes < cs && !last {
			return nil, fmt.Errorf("%w: chunk of %d bytes, short of the chunk size %d, can only be the last chunk", ErrInvalidOptions, h.Nbytes, cs)
		}
	}
	n := s.offs.len()
	others := n
	if replacing {
		others--
	}
	if others > 0 && h.VarBlocks != s.hdr.vlBlocks() {
		return nil, fmt.Errorf("%w: a frame cannot mix variable-length-block chunks with regular ones", ErrInvalidOptions)
	}
	// The chunk that stops being the last must be full.
	if !replacing && i == n && n > 0 {
		if _, size := s.chunkSpan(n - 1); size < cs {
			return nil, fmt.Errorf("%w: the last chunk holds %d bytes, short of the chunk size %d; AppendData refills it", ErrInvalidOptions, size, cs)
		}
	}
	return chunk[:h.Cbytes:h.Cbytes], nil
}

// adopt takes a chunk's size and block kind as the super-chunk's when it is
// the first.
func (s *SChunk) adopt(chunk []byte, nbytes int) {
	if s.hdr.chunksize == -1 {
		cs := s.chunkSize
		if cs == 0 {
			cs = nbytes
			s.chunkSize = cs
		}
		s.hdr.chunksize = int32(cs)
	}
	if s.offs.len() == 0 {
		vl := chunk[30]&flags2VLBlocks != 0
		s.hdr.generalFlags = frameOffsets64 | frameFormatRC1
		if vl {
			s.hdr.generalFlags = frameOffsets64 | frameFormatVLBlocks | frameVLBlocksFlag
		}
	}
}

// own makes the region writable in place: a frame read from a caller's
// buffer shares it until the first change, which copies it (with room for
// extra more bytes).
func (s *SChunk) own(extra int) {
	if s.regionOwned {
		return
	}
	r := make([]byte, len(s.region), len(s.region)+extra)
	copy(r, s.region)
	s.region, s.regionOwned = r, true
}

func init() {
	schunkhook.Reserve = func(sc any, n int64) {
		if s, ok := sc.(*SChunk); ok {
			s.reserveHint(n)
		}
	}
}

// reserveHint makes room for n more bytes of chunks in a frame in memory
// (the region of a frame file holds only a change's chunks, and a sparse
// frame's chunks live in files); n past what an int32 holds is ignored.
// When it grows the region it grows it by a quarter at least, so that a
// caller whose estimate creeps up a little at a time does not copy the
// region each time.
func (s *SChunk) reserveHint(n int64) {
	if s.file != nil || s.sparse != nil || n <= 0 || n > math.MaxInt32 {
		return
	}
	s.grow(int(n), cap(s.region)/4)
}

// reserve makes room for n more bytes of chunks, doubling the region's
// capacity when it grows (append's growth of large slices, 1.25x, would
// copy a frame built chunk by chunk several times over).
func (s *SChunk) reserve(n int) { s.grow(n, cap(s.region)) }

// grow makes room for n more bytes of chunks, growing the region's
// capacity by at least by when it grows.
func (s *SChunk) grow(n, by int) {
	s.own(n)
	if cap(s.region)-len(s.region) >= n {
		return
	}
	r := make([]byte, len(s.region), max(cap(s.region)+by, len(s.region)+n))
	copy(r, s.region)
	s.region = r
}

func (s *SChunk) changed() {
	s.offsChunk = nil
	s.offsSlack = 0
}

// codedKind returns the special kind a chunk is stored as in the offsets
// index (zeros, NaN, uninitialised), or 0 if its bytes are stored.
func codedKind(chunk []byte) int {
	switch k := int(chunk[31]>>b2SpecialShift) & b2SpecialMask; k {
	case specialZero, specialNaN, specialUninit:
		return k
	}
	return 0
}

// AppendChunk appends a ready-made Blosc2 chunk (copied).
func (s *SChunk) AppendChunk(chunk []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.appendChunk(chunk)
}

func (s *SChunk) appendChunk(chunk []byte) (err error) {
	return s.insertChunk(s.offs.len(), chunk)
}

// InsertChunk inserts a ready-made Blosc2 chunk (copied) before chunk i;
// i == NChunks appends. Its bytes go after all others, as c-blosc2 does.
func (s *SChunk) InsertChunk(i int, chunk []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.insertChunk(i, chunk)
}

func (s *SChunk) insertChunk(i int, chunk []byte) (err error) {
	if i < 0 || i > s.offs.len() {
		return fmt.Errorf("%w: insert at %d of %d chunks", ErrRange, i, s.offs.len())
	}
	c, err := s.checkChunk(chunk, i, i == s.offs.len(), false)
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	n := chunkNbytes(c)
	s.adopt(c, n)
	s.offs.materialize()
	off := s.pendBase + int64(len(s.region))
	if k := codedKind(c); k != 0 {
		off = specialOffset(k)
	} else if s.sparse != nil {
		if off, err = s.sparse.writeChunk(c); err != nil {
			return err
		}
	} else if tail := s.region[len(s.region):cap(s.region)]; s.regionOwned && len(tail) >= len(c) && &tail[0] == &c[0] {
		// AppendData compressed the chunk in place, after the others.
		s.region = s.region[:len(s.region)+len(c)]
	} else {
		s.reserve(len(c))
		s.region = append(s.region, c...)
	}
	s.offs.vals = append(s.offs.vals, 0)
	copy(s.offs.vals[i+1:], s.offs.vals[i:])
	s.offs.vals[i] = off
	s.offs.n++
	s.hdr.nbytes += int64(n)
	s.changed()
	return nil
}

// UpdateChunk replaces chunk i with a ready-made Blosc2 chunk (copied). As
// c-blosc2 does, the new bytes take the old chunk's place and the chunks
// stored after it move by the difference.
func (s *SChunk) UpdateChunk(i int, chunk []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.updateChunk(i, chunk)
}

func (s *SChunk) updateChunk(i int, chunk []byte) (err error) {
	if err := s.checkIndex(i); err != nil {
		return err
	}
	c, err := s.checkChunk(chunk, i, i == s.offs.len()-1, true)
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	_, oldN := s.chunkSpan(i)
	s.adopt(c, chunkNbytes(c))
	s.offs.materialize()
	old := s.offs.vals[i]
	kind := codedKind(c)
	newLen := len(c)
	if kind != 0 {
		newLen = 0
	}
	if s.sparse != nil {
		// A new chunk file; the old one goes once the index no longer
		// names it.
		if old >= 0 {
			s.sparse.drop(old)
		}
		s.offs.vals[i] = specialOffset(kind)
		if kind == 0 {
			id, err := s.sparse.writeChunk(c)
			if err != nil {
				return err
			}
			s.offs.vals[i] = id
		}
	} else if old >= 0 && s.file == nil {
		oldLen := int(int32(binary.LittleEndian.Uint32(s.region[old+12:])))
		delta := newLen - oldLen
		s.own(max(delta, 0))
		tail := len(s.region) - int(old) - oldLen
		if delta > 0 {
			s.region = append(s.region, make([]byte, delta)...)
		}
		copy(s.region[int(old)+newLen:], s.region[int(old)+oldLen:int(old)+oldLen+tail])
		s.region = s.region[:len(s.region)+min(delta, 0)]
		for j, o := range s.offs.vals {
			if j != i && o > old {
				s.offs.vals[j] = o + int64(delta)
			}
		}
		if kind == 0 {
			copy(s.region[old:], c)
			s.offs.vals[i] = old
		} else {
			s.offs.vals[i] = specialOffset(kind)
		}
	} else if kind == 0 {
		// A frame in a file never moves committed bytes: the new chunk
		// goes after the others and the old one stays unreferenced.
		s.reserve(len(c))
		s.offs.vals[i] = s.pendBase + int64(len(s.region))
		s.region = append(s.region, c...)
	} else {
		s.offs.vals[i] = specialOffset(kind)
	}
	s.hdr.nbytes += int64(chunkNbytes(c) - oldN)
	s.changed()
	return nil
}

// DeleteChunk removes chunk i. Its bytes stay in the frame, unreferenced,
// as c-blosc2 leaves them.
func (s *SChunk) DeleteChunk(i int) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.deleteChunk(i)
}

func (s *SChunk) deleteChunk(i int) (err error) {
	if err := s.checkIndex(i); err != nil {
		return err
	}
	if !s.fixed() {
		return fmt.Errorf("%w: changing a frame of variable-size chunks", ErrUnsupported)
	}
	_, n := s.chunkSpan(i)
	if i < s.offs.len()-1 && n < int(s.hdr.chunksize) {
		return fmt.Errorf("%w: chunk %d is short but not last", ErrCorrupt, i)
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.offs.materialize()
	if s.sparse != nil && s.offs.vals[i] >= 0 {
		s.sparse.drop(s.offs.vals[i])
	}
	s.offs.vals = append(s.offs.vals[:i], s.offs.vals[i+1:]...)
	s.offs.n--
	s.hdr.nbytes -= int64(n)
	s.changed()
	s.offsSlack = 8
	return nil
}
