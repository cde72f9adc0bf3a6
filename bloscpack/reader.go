package bloscpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/goblosc/blosc"
)

// Reader streams the decompressed bytes of a Bloscpack file from an
// io.Reader, reading it once from start to end: it needs no seeking and
// holds one chunk at a time. Chunks are located as File locates them
// (through their offsets when present, skipping gaps forward) and every
// checksum is verified before its chunk is decompressed.
type Reader struct {
	r    io.Reader
	h    Header
	mh   *MetaHeader
	meta *Metadata

	pos         int64 // bytes consumed
	n           int64 // chunks; -1 unknown
	slots       []int64
	uncommitted bool
	i           int64 // next chunk

	hs  *hasher
	dec blosc.Decompressor
	raw []byte
	alt []byte
	out []byte
	off int
	err error
}

// NewReader reads and checks the header, metadata and offsets table.
func NewReader(r io.Reader) (*Reader, error) {
	z := &Reader{r: r}
	var hb [headerLen]byte
	if err := z.readFull(hb[:], "header"); err != nil {
		return nil, err
	}
	h, err := decodeHeader(hb[:])
	if err != nil {
		return nil, err
	}
	z.h, z.n, z.hs = h, h.NChunks, newHasher(h.Checksum)
	if h.Metadata {
		var mb [metaHeaderLen]byte
		if err := z.readFull(mb[:], "metadata header"); err != nil {
			return nil, err
		}
		mh, err := decodeMetaHeader(mb[:])
		if err != nil {
			return nil, err
		}
		stored, err := z.readGrow(nil, int64(mh.CompSize), "metadata")
		if err != nil {
			return nil, err
		}
		if err := z.skip(int64(mh.MaxSize-mh.CompSize), "metadata padding"); err != nil {
			return nil, err
		}
		digest := make([]byte, mh.Checksum.Size())
		if err := z.readFull(digest, "metadata checksum"); err != nil {
			return nil, err
		}
		meta, err := decodeMetadataBody(&mh, stored, digest)
		if err != nil {
			return nil, err
		}
		z.mh, z.meta = &mh, meta
	}
	if h.Offsets {
		if h.NChunks < 0 {
			return nil, corruptf("header: an offsets table with an unknown chunk count")
		}
		slots := h.slots()
		dataStart := z.pos + 8*slots
		k := h.NChunks
		if k < slots {
			k++
		}
		// Read the slots in pieces: a lying count runs into the end of
		// the stream before it makes us allocate much.
		for int64(len(z.slots)) < k {
			var b [8]byte
			if err := z.readFull(b[:], "offsets"); err != nil {
				return nil, err
			}
			s := int64(binary.LittleEndian.Uint64(b[:]))
			i := len(z.slots)
			switch {
			case int64(i) == h.NChunks:
				z.uncommitted = s >= 0
			case s < dataStart:
				return nil, corruptf("offsets: chunk %d at %d, before the chunks start at %d", i, s, dataStart)
			case i > 0 && s < z.slots[i-1]+int64(chunkHdrLen+h.Checksum.Size()):
				return nil, corruptf("offsets: chunk %d at %d, not after chunk %d at %d (out of order)", i, s, i-1, z.slots[i-1])
			}
			z.slots = append(z.slots, s)
		}
		if err := z.skip(8*(slots-k), "offsets"); err != nil {
			return nil, err
		}
	}
	return z, nil
}

// Header returns the file header.
func (z *Reader) Header() Header { return z.h }

// Metadata returns the metadata document, or nil.
func (z *Reader) Metadata() *Metadata { return z.meta }

// MetaHeader returns the metadata section's header, or nil.
func (z *Reader) MetaHeader() *MetaHeader { return z.mh }

func (z *Reader) want(i int64) int {
	switch {
	case z.n < 0 || z.h.ChunkSize < 0 || z.h.LastChunk < 0:
		return -1
	case i < z.n-1:
		return z.h.ChunkSize
	}
	return z.h.LastChunk
}

// next decodes the next chunk into z.out; io.EOF after the last one.
func (z *Reader) next() error {
	if z.n >= 0 && z.i >= z.n {
		return io.EOF
	}
	i := z.i
	var chunk []byte
	var err error
	if z.h.Offsets && !(i == z.n-1 && z.uncommitted) {
		chunk, err = z.chunkAtSlot(i)
	} else {
		chunk, err = z.readChunk(i, &z.raw, -1)
	}
	if err != nil {
		return err
	}
	z.out, err = decodeChunk(&z.dec, z.out, chunk, int(i), z.want(i))
	if err != nil {
		return err
	}
	z.off = 0
	z.i++
	return nil
}

// chunkAtSlot reads chunk i where its slot points, skipping any gap. As
// File does, it takes the chunk found at the start of the gap when the
// slot's chunk is not valid (an interrupted append's copy) and the slot
// points past it.
func (z *Reader) chunkAtSlot(i int64) ([]byte, error) {
	s := z.slots[i]
	if s < z.pos {
		return nil, corruptf("offsets: chunk %d at %d, inside chunk %d", i, s, i-1)
	}
	var cand []byte
	if gap := s - z.pos; gap > 0 {
		c, err := z.readChunk(i, &z.alt, gap)
		if err != nil && !errors.Is(err, errNoCandidate) {
			if !errors.Is(err, blosc.ErrCorrupt) {
				return nil, err
			}
		} else if err == nil {
			cand = c
		}
		if err := z.skip(s-z.pos, fmt.Sprintf("the gap before chunk %d", i)); err != nil {
			return nil, err
		}
	}
	c, err := z.readChunk(i, &z.raw, -1)
	if err != nil && cand != nil && errors.Is(err, blosc.ErrCorrupt) {
		return cand, nil
	}
	return c, err
}

var errNoCandidate = errors.New("no chunk fits the gap")

// readChunk reads chunk i at the current position into *buf and verifies
// it. With room >= 0 the chunk must fit in room bytes (else
// errNoCandidate, having read only its header).
func (z *Reader) readChunk(i int64, buf *[]byte, room int64) ([]byte, error) {
	var hb [chunkHdrLen]byte
	if room >= 0 && room < chunkHdrLen {
		return nil, errNoCandidate
	}
	n, err := io.ReadFull(z.r, hb[:])
	z.pos += int64(n)
	if z.n < 0 && n == 0 && err == io.EOF {
		return nil, io.EOF // a stream of unknown length ends between chunks
	}
	if err != nil {
		return nil, z.short(err, fmt.Sprintf("chunk %d header", i))
	}
	cb, _, err := checkChunkHeader(hb[:], int(i), z.want(i), 1<<62)
	if err != nil {
		return nil, err
	}
	ds := z.h.Checksum.Size()
	if room >= 0 && int64(cb+ds) > room {
		return nil, errNoCandidate
	}
	b := *buf
	if cap(b) < cb+ds {
		b = make([]byte, 0, min(cb+ds, 1<<20))
	}
	b = append(b[:0], hb[:]...)
	b, err = z.readGrow(b, int64(cb+ds-chunkHdrLen), fmt.Sprintf("chunk %d", int(i)))
	if err != nil {
		return nil, err
	}
	*buf = b
	if err := verifyChunk(z.hs, int(i), b[:cb], b[cb:]); err != nil {
		return nil, err
	}
	return b[:cb], nil
}

// Read implements io.Reader over the decompressed bytes.
func (z *Reader) Read(p []byte) (int, error) {
	for z.off >= len(z.out) {
		if z.err != nil {
			return 0, z.err
		}
		if z.err = z.next(); z.err != nil {
			return 0, z.err
		}
	}
	n := copy(p, z.out[z.off:])
	z.off += n
	return n, nil
}

// WriteTo writes the remaining decompressed bytes to w, a chunk at a time.
func (z *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if z.off < len(z.out) {
			n, err := w.Write(z.out[z.off:])
			total += int64(n)
			z.off += n
			if err != nil {
				return total, err
			}
			continue
		}
		if z.err != nil {
			if z.err == io.EOF {
				return total, nil
			}
			return total, z.err
		}
		z.err = z.next()
	}
}

func (z *Reader) readFull(b []byte, what string) error {
	n, err := io.ReadFull(z.r, b)
	z.pos += int64(n)
	if err != nil {
		return z.short(err, what)
	}
	return nil
}

// readGrow appends n bytes read from the stream to b, growing b only as
// bytes arrive, so a lying size costs no more memory than the stream has.
func (z *Reader) readGrow(b []byte, n int64, what string) ([]byte, error) {
	const step = 8 << 20
	for n > 0 {
		k := min(n, step)
		l := len(b)
		if int64(cap(b)-l) < k {
			nb := make([]byte, l, l+int(max(k, min(n, int64(l)))))
			copy(nb, b)
			b = nb
		}
		b = b[:l+int(k)]
		if err := z.readFull(b[l:], what); err != nil {
			return nil, err
		}
		n -= k
	}
	return b, nil
}

func (z *Reader) skip(n int64, what string) error {
	if n <= 0 {
		return nil
	}
	m, err := io.CopyN(io.Discard, z.r, n)
	z.pos += m
	if err != nil {
		return z.short(err, what)
	}
	return nil
}

func (z *Reader) short(err error, what string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return corruptf("%s: the file ends at %d", what, z.pos)
	}
	return fmt.Errorf("bloscpack: %s: %w", what, err)
}
