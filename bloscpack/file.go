package bloscpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/goblosc/blosc"
)

// File gives random access to a Bloscpack file: its header and metadata,
// chunk i, and any range of its decompressed bytes. With an offsets table
// a chunk is found through its slot without reading the chunks before it;
// without one the chunk headers are scanned once, 16 bytes each.
//
// Every size in the file is checked against the file's size before
// anything is allocated, every chunk read is checked against its checksum,
// and a chunk's size against the header's chunk_size and last_chunk. A
// File is not safe for concurrent use.
//
// One more rule makes an interrupted Append (see there) read as the file
// it was: when the slot after the last chunk is in use, or the chunk a
// slot points at is not valid, the chunk is read where the previous
// chunk ends, as the reference's reader (which ignores offsets) finds it.
type File struct {
	r    io.ReaderAt
	size int64
	h    Header
	mh   *MetaHeader
	meta *Metadata

	tableStart, dataStart int64
	n                     int     // chunks
	slots                 []int64 // the first n slots (offsets files)
	// uncommitted: the slot after the last chunk is in use, the trace of
	// an append interrupted before its header was written.
	uncommitted bool
	// pos and nbytes of chunks found by scanning (files without offsets,
	// or with an unknown chunk count).
	pos    []int64
	nbytes []int64
	starts []int64 // decompressed start of each chunk, when sizes vary

	dsize  int
	hs     *hasher
	dec    blosc.Decompressor
	raw    []byte
	cache  []byte
	cached int
}

// ChunkInfo describes one stored chunk.
type ChunkInfo struct {
	Index  int    `json:"index"`
	Offset int64  `json:"offset"` // of its Blosc header in the file
	Cbytes int    `json:"cbytes"`
	Nbytes int    `json:"nbytes"`
	Digest string `json:"digest,omitempty"` // hex, as stored
}

// Open reads and checks the header, metadata and offsets of the file of
// the given size that r reads. A file an Append left with its rollback
// record (the append did not commit) reads as it was before that append.
func Open(r io.ReaderAt, size int64) (*File, error) {
	r, size = resolveRollback(r, size)
	f := &File{r: r, size: size, cached: -1}
	var hb [headerLen]byte
	if err := f.readAt(hb[:], 0, "header"); err != nil {
		return nil, err
	}
	h, err := decodeHeader(hb[:])
	if err != nil {
		return nil, err
	}
	f.h = h
	f.dsize = h.Checksum.Size()
	f.hs = newHasher(h.Checksum)
	pos := int64(headerLen)
	if h.Metadata {
		mh, meta, end, err := readMetadataAt(f, pos)
		if err != nil {
			return nil, err
		}
		f.mh, f.meta, pos = &mh, meta, end
	}
	f.tableStart = pos
	if err := f.readTable(); err != nil {
		return nil, err
	}
	return f, nil
}

func readMetadataAt(f *File, pos int64) (MetaHeader, *Metadata, int64, error) {
	var mb [metaHeaderLen]byte
	if err := f.readAt(mb[:], pos, "metadata header"); err != nil {
		return MetaHeader{}, nil, 0, err
	}
	mh, err := decodeMetaHeader(mb[:])
	if err != nil {
		return mh, nil, 0, err
	}
	if mh.sectionLen() > f.size-pos {
		return mh, nil, 0, corruptf("metadata: a section of %d bytes (max_meta_size %d) in a file of %d bytes", mh.sectionLen(), mh.MaxSize, f.size)
	}
	stored := make([]byte, mh.CompSize)
	if err := f.readAt(stored, pos+metaHeaderLen, "metadata"); err != nil {
		return mh, nil, 0, err
	}
	digest := make([]byte, mh.Checksum.Size())
	if err := f.readAt(digest, pos+metaHeaderLen+int64(mh.MaxSize), "metadata checksum"); err != nil {
		return mh, nil, 0, err
	}
	meta, err := decodeMetadataBody(&mh, stored, digest)
	return mh, meta, pos + mh.sectionLen(), err
}

func (f *File) readTable() error {
	h := &f.h
	minChunk := int64(chunkHdrLen + f.dsize)
	left := f.size - f.tableStart
	if h.NChunks < 0 {
		if h.Offsets {
			return corruptf("header: an offsets table with an unknown chunk count")
		}
		f.dataStart = f.tableStart
		return f.scanAll()
	}
	if h.Offsets {
		slots := h.slots()
		if slots > left/8 {
			return corruptf("offsets: %d slots (nchunks %d + max_app_chunks %d) do not fit in the %d bytes after the header", slots, h.NChunks, h.MaxAppChunks, left)
		}
		f.dataStart = f.tableStart + 8*slots
		left -= 8 * slots
	} else {
		f.dataStart = f.tableStart
	}
	if h.NChunks > left/minChunk {
		return corruptf("header: nchunks %d, but %d bytes hold at most %d chunks", h.NChunks, left, left/minChunk)
	}
	if h.NChunks > int64(maxInt) {
		return fmt.Errorf("%w: bloscpack: %d chunks", blosc.ErrTooLarge, h.NChunks)
	}
	f.n = int(h.NChunks)
	if !h.Offsets {
		f.pos = append(f.pos, f.dataStart)
		return nil
	}
	k := f.n
	if int64(k) < h.slots() {
		k++ // the slot after the last chunk tells an interrupted append
	}
	tb := make([]byte, 8*k)
	if err := f.readAt(tb, f.tableStart, "offsets"); err != nil {
		return err
	}
	f.slots = make([]int64, f.n)
	for i := range f.slots {
		s := int64(binary.LittleEndian.Uint64(tb[8*i:]))
		f.slots[i] = s
		switch {
		case s < f.dataStart || s > f.size-minChunk:
			return corruptf("offsets: chunk %d at %d, outside the chunks' part of the file [%d, %d)", i, s, f.dataStart, f.size)
		case i > 0 && s < f.slots[i-1]+minChunk:
			return corruptf("offsets: chunk %d at %d, not after chunk %d at %d (out of order)", i, s, i-1, f.slots[i-1])
		}
	}
	f.uncommitted = k > f.n && int64(binary.LittleEndian.Uint64(tb[8*f.n:])) >= 0
	return nil
}

// scanAll finds every chunk of a file whose chunk count is unknown.
func (f *File) scanAll() error {
	p := f.dataStart
	var total int64
	for p < f.size {
		i := len(f.pos)
		cb, nb, err := f.chunkHeaderAt(i, p, -1)
		if err != nil {
			return err
		}
		f.pos = append(f.pos, p)
		f.nbytes = append(f.nbytes, int64(nb))
		f.starts = append(f.starts, total)
		total += int64(nb)
		p += int64(cb + f.dsize)
	}
	f.n = len(f.pos)
	f.starts = append(f.starts, total)
	return nil
}

// Header returns the file header.
func (f *File) Header() Header { return f.h }

// Metadata returns the metadata section's document, or nil.
func (f *File) Metadata() *Metadata { return f.meta }

// MetaHeader returns the metadata section's header, or nil.
func (f *File) MetaHeader() *MetaHeader { return f.mh }

// Nchunks returns the number of chunks.
func (f *File) Nchunks() int { return f.n }

// Len returns the number of decompressed bytes the file holds.
func (f *File) Len() int64 {
	if f.starts != nil {
		return f.starts[len(f.starts)-1]
	}
	if f.n == 0 {
		return 0
	}
	return int64(f.h.ChunkSize)*int64(f.n-1) + int64(f.h.LastChunk)
}

// wantNbytes is the size chunk i must decompress to.
func (f *File) wantNbytes(i int) int {
	switch {
	case f.nbytes != nil && i < len(f.nbytes):
		return int(f.nbytes[i])
	case f.h.NChunks < 0:
		return -1
	case i < f.n-1:
		return f.h.ChunkSize
	}
	return f.h.LastChunk
}

// chunkHeaderAt reads and checks the Blosc header of chunk i at p.
func (f *File) chunkHeaderAt(i int, p int64, want int) (cbytes, nbytes int, err error) {
	if p < f.dataStart || p > f.size-int64(chunkHdrLen) {
		return 0, 0, corruptf("chunk %d: at %d, outside the file's %d bytes", i, p, f.size)
	}
	var hb [chunkHdrLen]byte
	if err := f.readAt(hb[:], p, fmt.Sprintf("chunk %d header", i)); err != nil {
		return 0, 0, err
	}
	return checkChunkHeader(hb[:], i, want, f.size-p-int64(f.dsize))
}

// checkChunkHeader checks a Blosc1 chunk header against what the file
// says the chunk holds and how many bytes are left for it.
func checkChunkHeader(hb []byte, i, want int, room int64) (cbytes, nbytes int, err error) {
	if hb[0] != 1 && hb[0] != 2 {
		return 0, 0, corruptf("chunk %d: Blosc version %d, not a Blosc1 chunk", i, hb[0])
	}
	nbytes = int(int32(binary.LittleEndian.Uint32(hb[4:])))
	cbytes = int(int32(binary.LittleEndian.Uint32(hb[12:])))
	switch {
	case want >= 0 && nbytes != want:
		return 0, 0, corruptf("chunk %d: holds %d bytes, the header's chunk sizes say %d", i, nbytes, want)
	case nbytes < 0 || nbytes > maxChunkSize:
		return 0, 0, corruptf("chunk %d: nbytes %d out of range", i, nbytes)
	case cbytes < chunkHdrLen || cbytes > nbytes+chunkHdrLen:
		return 0, 0, corruptf("chunk %d: cbytes %d for %d bytes (a Blosc1 chunk has 16..nbytes+16)", i, cbytes, nbytes)
	case int64(cbytes) > room:
		return 0, 0, corruptf("chunk %d: cbytes %d and its checksum run past the end of the file", i, cbytes)
	}
	return cbytes, nbytes, nil
}

// locate returns where chunk i starts, scanning headers in a file
// without offsets.
func (f *File) scanTo(i int) error {
	for len(f.pos) <= i {
		j := len(f.pos) - 1
		cb, _, err := f.chunkHeaderAt(j, f.pos[j], f.wantNbytes(j))
		if err != nil {
			return err
		}
		f.pos = append(f.pos, f.pos[j]+int64(cb+f.dsize))
	}
	return nil
}

// RawChunk returns chunk i as stored (a Blosc1 chunk), its checksum
// verified, and its position. The slice is valid until the next call.
func (f *File) RawChunk(i int) ([]byte, int64, error) {
	if i < 0 || i >= f.n {
		return nil, 0, fmt.Errorf("%w: bloscpack: chunk %d of %d", blosc.ErrRange, i, f.n)
	}
	want := f.wantNbytes(i)
	if !f.h.Offsets || f.h.NChunks < 0 {
		if err := f.scanTo(i); err != nil {
			return nil, 0, err
		}
		c, err := f.chunkAt(i, f.pos[i], want)
		return c, f.pos[i], err
	}
	if i == f.n-1 && f.uncommitted {
		p, err := f.afterChunk(i - 1)
		if err != nil {
			return nil, 0, err
		}
		c, err := f.chunkAt(i, p, want)
		return c, p, err
	}
	p := f.slots[i]
	c, err := f.chunkAt(i, p, want)
	if err == nil && i < f.n-1 && p+int64(len(c)+f.dsize) > f.slots[i+1] {
		err = corruptf("chunk %d: at %d with %d bytes overlaps chunk %d at %d", i, p, len(c)+f.dsize, i+1, f.slots[i+1])
	}
	if err == nil || !errors.Is(err, blosc.ErrCorrupt) {
		return c, p, err
	}
	// The slot may be one an interrupted append left pointing at a copy
	// it had not finished, or tore: the chunk is then where the previous
	// one ends (where the reference's reader looks for it), provided the
	// slot points past that chunk rather than into it.
	q, qerr := f.afterChunk(i - 1)
	if qerr != nil || q == p {
		return nil, p, err
	}
	cb, _, herr := f.chunkHeaderAt(i, q, want)
	if herr != nil {
		return nil, p, err
	}
	if p < q+int64(cb+f.dsize) {
		return nil, p, corruptf("offsets: chunk %d at %d points inside the chunk at %d (%v)", i, p, q, err)
	}
	c2, err2 := f.chunkAt(i, q, want)
	if err2 != nil {
		return nil, p, err
	}
	return c2, q, nil
}

// afterChunk returns where chunk i (located by its slot) ends.
func (f *File) afterChunk(i int) (int64, error) {
	if i < 0 {
		return f.dataStart, nil
	}
	cb, _, err := f.chunkHeaderAt(i, f.slots[i], -1)
	if err != nil {
		return 0, err
	}
	return f.slots[i] + int64(cb+f.dsize), nil
}

// chunkAt reads chunk i at p and verifies its checksum.
func (f *File) chunkAt(i int, p int64, want int) ([]byte, error) {
	cb, _, err := f.chunkHeaderAt(i, p, want)
	if err != nil {
		return nil, err
	}
	n := cb + f.dsize
	if cap(f.raw) < n {
		f.raw = make([]byte, n)
	}
	buf := f.raw[:n]
	if err := f.readAt(buf, p, fmt.Sprintf("chunk %d", i)); err != nil {
		return nil, err
	}
	if err := f.verify(i, buf[:cb], buf[cb:]); err != nil {
		return nil, err
	}
	return buf[:cb], nil
}

func (f *File) verify(i int, chunk, digest []byte) error {
	return verifyChunk(f.hs, i, chunk, digest)
}

func verifyChunk(hs *hasher, i int, chunk, digest []byte) error {
	if hs.c == NoChecksum {
		return nil
	}
	var tmp [64]byte
	if got := hs.sum(tmp[:0], chunk); !bytes.Equal(got, digest) {
		return corruptf("chunk %d: %s checksum mismatch: stored %x, computed %x", i, hs.c, digest, got)
	}
	return nil
}

// ReadChunk decompresses chunk i into dst (reused when large enough).
func (f *File) ReadChunk(dst []byte, i int) ([]byte, error) {
	c, _, err := f.RawChunk(i)
	if err != nil {
		return nil, err
	}
	return decodeChunk(&f.dec, dst, c, i, f.wantNbytes(i))
}

func decodeChunk(d *blosc.Decompressor, dst, c []byte, i, want int) ([]byte, error) {
	out, err := d.Decompress(dst, c)
	if err != nil {
		return nil, fmt.Errorf("bloscpack: chunk %d: %w", i, err)
	}
	if want >= 0 && len(out) != want {
		return nil, corruptf("chunk %d: decompressed to %d bytes, want %d", i, len(out), want)
	}
	return out, nil
}

// chunkStart returns the decompressed offset where chunk i begins.
func (f *File) chunkStart(i int) int64 {
	if f.starts != nil {
		return f.starts[i]
	}
	return int64(i) * int64(f.h.ChunkSize)
}

// chunkFor returns the chunk holding decompressed byte off.
func (f *File) chunkFor(off int64) int {
	if f.starts != nil {
		lo, hi := 0, f.n-1
		for lo < hi {
			m := (lo + hi + 1) / 2
			if f.starts[m] <= off {
				lo = m
			} else {
				hi = m - 1
			}
		}
		return lo
	}
	if f.h.ChunkSize <= 0 {
		return 0
	}
	return int(min(off/int64(f.h.ChunkSize), int64(f.n-1)))
}

// ReadAt reads decompressed bytes [off, off+len(p)), decompressing only
// the chunks that hold them. It implements io.ReaderAt.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: bloscpack: negative offset %d", blosc.ErrRange, off)
	}
	total := f.Len()
	n := 0
	for n < len(p) && off < total {
		i := f.chunkFor(off)
		if f.cached != i {
			out, err := f.ReadChunk(f.cache, i)
			if err != nil {
				f.cached = -1
				return n, err
			}
			f.cache, f.cached = out, i
		}
		k := copy(p[n:], f.cache[off-f.chunkStart(i):])
		if k == 0 {
			return n, corruptf("chunk %d: shorter than the header's chunk sizes", i)
		}
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Chunks lists every chunk's place and sizes, reading only chunk headers
// and digests (no checksum is verified).
func (f *File) Chunks() ([]ChunkInfo, error) {
	out := make([]ChunkInfo, 0, f.n)
	for i := 0; i < f.n; i++ {
		var p int64
		switch {
		case !f.h.Offsets || f.h.NChunks < 0:
			if err := f.scanTo(i); err != nil {
				return out, err
			}
			p = f.pos[i]
		case i == f.n-1 && f.uncommitted:
			q, err := f.afterChunk(i - 1)
			if err != nil {
				return out, err
			}
			p = q
		default:
			p = f.slots[i]
		}
		cb, nb, err := f.chunkHeaderAt(i, p, -1)
		if err != nil {
			return out, err
		}
		d := make([]byte, f.dsize)
		if err := f.readAt(d, p+int64(cb), fmt.Sprintf("chunk %d checksum", i)); err != nil {
			return out, err
		}
		out = append(out, ChunkInfo{Index: i, Offset: p, Cbytes: cb, Nbytes: nb, Digest: fmt.Sprintf("%x", d)})
	}
	return out, nil
}

// readAt fills b from p, calling a short read corruption.
func (f *File) readAt(b []byte, p int64, what string) error {
	if p < 0 || p > f.size || int64(len(b)) > f.size-p {
		return corruptf("%s: %d bytes at %d run past the end of the file (%d bytes)", what, len(b), p, f.size)
	}
	n, err := f.r.ReadAt(b, p)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		return corruptf("%s: %d bytes at %d, only %d read", what, len(b), p, n)
	}
	return fmt.Errorf("bloscpack: %s: %w", what, err)
}

// Unpack decompresses a whole file held in memory.
func Unpack(src []byte) ([]byte, *Metadata, error) {
	f, err := Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		return nil, nil, err
	}
	total := f.Len()
	if total > int64(maxInt) {
		return nil, nil, fmt.Errorf("%w: bloscpack: %d bytes", blosc.ErrTooLarge, total)
	}
	// Grow as chunks decode: the header's total is not yet proven.
	out := make([]byte, 0, min(total, 4*int64(len(src))))
	var tmp []byte
	for i := 0; i < f.n; i++ {
		tmp, err = f.ReadChunk(tmp, i)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, tmp...)
	}
	return out, f.meta, nil
}

const maxInt = int(^uint(0) >> 1)
