package bloscpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/rollback"
)

// ErrNoSpace is wrapped by Append's error when the file has fewer free
// offset slots than the new data needs.
var ErrNoSpace = errors.New("bloscpack: no free offset slot left")

// AppendOptions returns the Blosc options the reference's append uses
// when given none: BloscLZ level 7 with byte shuffle, and the file's
// typesize.
func AppendOptions(typesize int) blosc.Options {
	o := blosc.Options{Codec: blosc.BloscLZ, Level: 7, Typesize: typesize}
	o.Filters[blosc.MaxFilters-1] = blosc.ByteShuffle
	return o
}

// Append adds size bytes read from src to the file in place, as the
// reference's append does: the last chunk is refilled up to chunk_size,
// the rest goes into new chunks taking free offset slots, and the header's
// last_chunk, nchunks and max_app_chunks are updated. The file must have
// offsets and enough free slots (else an error wrapping ErrNoSpace, with
// nothing written). opts nil means AppendOptions(the file's typesize). It
// returns the number of chunks added.
//
// An interrupted Append leaves a file that reads as before it or as after
// it, never anything else. The order of writes makes it so:
//
//  1. The refilled last chunk and the new chunks are written past the
//     end of the file, where nothing reads them; sync.
//  2. After them, the rollback record (rollback.go): the old bytes of the
//     header, of the slots steps 3, 4 and 7 write and of the old last
//     chunk step 6 writes over, and the file's old length; sync. From
//     here until step 8 this package reads the file as before.
//  3. The new chunks' slots, unused until nchunks grows, are filled; sync.
//  4. The last chunk's slot is pointed at its refilled copy; sync. The
//     reference, which knows nothing of the record, still sees the old
//     header, whose last_chunk does not match the copy (or whose next
//     slot is now in use), and reads the old last chunk where the
//     previous chunk ends.
//  5. The header is rewritten with one write; sync. The reference reads
//     the file as after from here on.
//  6. The copies are written again where the reference puts them (from
//     the old last chunk's place on, a region nothing reads now); sync.
//  7. The slots are pointed at them with one write; sync. A slot torn by
//     a crash is not valid, and its chunk is read where the previous one
//     ends: the copy just written.
//  8. The record is cut off; sync: the commit.
//  9. The file is truncated after the last chunk; sync (tidying: a
//     failure leaves bytes past the last chunk that no reader uses).
//
// The result is the file the reference's append writes. A call of any
// step up to the commit that returns an error (a full disk, a failing
// one) is undone at once from the record's bytes: the header first, then
// the slots and the old last chunk, then the old length, each synced;
// Append returns the error and the file is the one it was. Should the
// undo fail too, the record is still there (put back first if its removal
// was what failed), and Open and Recover read and restore the file as
// before (docs/durability.md names the one state that cannot be).
func Append(f blosc.WritableFile, src io.Reader, size int64, opts *blosc.Options) (int, error) {
	if size < 0 {
		return 0, invalidf("append size %d", size)
	}
	if err := Recover(f); err != nil {
		return 0, err
	}
	if size == 0 {
		// Nothing to add: the file stays as it is (the header would not
		// change, and it is the commit point of every other append).
		if _, err := Open(f, mustSize(f)); err != nil {
			return 0, err
		}
		return 0, nil
	}
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("bloscpack: %w", err)
	}
	fsize := st.Size()
	bf, err := Open(f, fsize)
	if err != nil {
		return 0, err
	}
	h := bf.h
	switch {
	case h.Version != FormatVersion:
		return 0, fmt.Errorf("%w: bloscpack: append to a format version %d file", blosc.ErrUnsupported, h.Version)
	case !h.Offsets:
		return 0, fmt.Errorf("%w: bloscpack: append to a file without offsets (the reference does not either)", blosc.ErrUnsupported)
	case bf.n < 1 || h.ChunkSize < 1:
		return 0, fmt.Errorf("%w: bloscpack: append to a file with chunk_size %d (an empty input's file cannot grow, as in the reference)", blosc.ErrUnsupported, h.ChunkSize)
	}
	o := AppendOptions(h.Typesize)
	if opts != nil {
		o = *opts
		if o.Typesize == 0 {
			o.Typesize = h.Typesize
		}
	}
	o.Format = blosc.FormatBlosc1
	comp, err := blosc.NewCompressor(o)
	if err != nil {
		return 0, err
	}
	n := bf.n
	slots := h.slots()
	free := slots - int64(n)

	// The old last chunk, verified, and where it is.
	lastRaw, lastPos, err := bf.RawChunk(n - 1)
	if err != nil {
		return 0, err
	}
	old, err := decodeChunk(&bf.dec, nil, lastRaw, n-1, h.LastChunk)
	if err != nil {
		return 0, err
	}
	fill := int64(h.ChunkSize - len(old))
	var k int64
	newLast := h.LastChunk + int(size)
	lastSize := 0
	if size > fill {
		k, _, lastSize = chunking(size-fill, h.ChunkSize)
		newLast = lastSize
		if k > free {
			return 0, fmt.Errorf("%w: %d bytes need %d new chunks, the file has %d free slots", ErrNoSpace, size, k, free)
		}
	}
	first := min(size, fill)

	// 1. Stage every chunk past anything that reads or will be written.
	dsize := bf.dsize
	worst := int64(0)
	if size > fill {
		worst = (k - 1) * int64(h.ChunkSize+chunkHdrLen+dsize)
		worst += int64(lastSize + chunkHdrLen + dsize)
	}
	worst += int64(h.ChunkSize + chunkHdrLen + dsize)
	stage := max(fsize, lastPos+worst)
	hs := newHasher(h.Checksum)
	var staged []int64 // where each chunk (refilled last first) is staged
	var lens []int64
	p := stage
	buf := make([]byte, 0, h.ChunkSize)
	// undo puts the file back as it was after a failed step: the old
	// bytes the record holds (none before it is written: only bytes
	// past the end were), then the old length, each synced. Should a
	// call of it fail too, the record (once written) is still there for
	// Recover.
	var restore []rollback.Range
	touched := false
	fail := func(err error) (int, error) {
		if touched {
			undo(f, restore, fsize)
		}
		return 0, err
	}
	put := func(data []byte) error {
		c, err := comp.Compress(nil, data)
		if err != nil {
			return err
		}
		c = hs.sum(c, c)
		touched = true
		if err := writeAll(f, c, p); err != nil {
			return err
		}
		staged = append(staged, p)
		lens = append(lens, int64(len(c)))
		p += int64(len(c))
		return nil
	}
	buf = append(buf, old...)
	if buf, err = readInto(src, buf, first); err != nil {
		return fail(err)
	}
	if err := put(buf); err != nil {
		return fail(err)
	}
	for i := int64(0); i < k; i++ {
		want := int64(h.ChunkSize)
		if i == k-1 {
			want = int64(lastSize)
		}
		if buf, err = readInto(src, buf[:0], want); err != nil {
			return fail(err)
		}
		if err := put(buf); err != nil {
			return fail(err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	slotAt := func(i int) int64 { return bf.tableStart + 8*int64(i) }
	encodeSlots := func(pos []int64) []byte {
		b := make([]byte, 8*len(pos))
		for i, v := range pos {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
		return b
	}
	nh := h
	nh.LastChunk = newLast
	nh.NChunks += k
	nh.MaxAppChunks -= k
	// 2. The rollback record: the old header and the old slots n-1 ..
	// n+k-1, which steps 3, 4, 5 and 7 write, and the old bytes step 6 writes
	// over (the old last chunk), after everything else. The header
	// comes first: an undo restores it first.
	total := p - stage
	oldHdr := make([]byte, headerLen)
	oldSlots := make([]byte, 8*(k+1))
	oldTail := make([]byte, min(fsize, lastPos+total)-lastPos)
	if _, err := f.ReadAt(oldHdr, 0); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	if _, err := f.ReadAt(oldSlots, slotAt(n-1)); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	if _, err := f.ReadAt(oldTail, lastPos); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	newHdr := append(oldHdr[:12:12], nh.encode()[12:]...)
	rb := rollback.Record{OldSize: fsize, NewHeader: newHdr, Ranges: []rollback.Range{{Off: 0, Old: oldHdr}, {Off: slotAt(n - 1), Old: oldSlots}, {Off: lastPos, Old: oldTail}}}
	rec, err := rb.Encode(p)
	if err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	if err := writeAll(f, rec, p); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	restore = rb.Ranges
	// 3. The new chunks' slots.
	if k > 0 {
		if err := writeSync(f, encodeSlots(staged[1:]), slotAt(n)); err != nil {
			return fail(err)
		}
	}
	// 4. The last chunk's slot.
	if err := writeSync(f, encodeSlots(staged[:1]), slotAt(n-1)); err != nil {
		return fail(err)
	}
	// 5. The header.
	if err := writeSync(f, nh.encode()[12:], 12); err != nil {
		return fail(err)
	}
	// 6. The chunks again, where the reference writes them.
	inPlace := make([]int64, len(staged))
	q := lastPos
	for i := range staged {
		inPlace[i] = q
		q += lens[i]
	}
	if err := copyWithin(f, lastPos, stage, total); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("bloscpack: %w", err))
	}
	// 7. The slots to them.
	if err := writeSync(f, encodeSlots(inPlace), slotAt(n-1)); err != nil {
		return fail(err)
	}
	// 8. The commit: the record's removal alone, so that a truncation
	// half done shows nothing but the record's own bytes. Should it fail,
	// the record goes back first: the undo's writes need it.
	if err := rollback.Remove(f, p); err != nil {
		if writeAll(f, rec, p) == nil && f.Sync() == nil {
			undo(f, restore, fsize)
		}
		return 0, fmt.Errorf("bloscpack: %w", err)
	}
	// 9. Drop the staging copies (and anything that was past the end):
	// tidying, which Open does not need.
	if f.Truncate(lastPos+total) == nil {
		f.Sync()
	}
	return int(k), nil
}

// undo writes the old bytes of ranges back (the header first), then cuts
// f to size, each synced; it stops at the first call that fails.
func undo(f blosc.WritableFile, ranges []rollback.Range, size int64) {
	for _, x := range ranges {
		if _, err := f.WriteAt(x.Old, x.Off); err != nil {
			return
		}
	}
	if len(ranges) > 0 && f.Sync() != nil {
		return
	}
	if f.Truncate(size) == nil {
		f.Sync()
	}
}

func readInto(src io.Reader, buf []byte, n int64) ([]byte, error) {
	l := len(buf)
	buf = append(buf, make([]byte, n)...)
	if _, err := io.ReadFull(src, buf[l:]); err != nil {
		return nil, fmt.Errorf("bloscpack: reading the data to append: %w", err)
	}
	return buf, nil
}

func writeAll(f io.WriterAt, b []byte, p int64) error {
	if _, err := f.WriteAt(b, p); err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}

func writeSync(f blosc.WritableFile, b []byte, p int64) error {
	if err := writeAll(f, b, p); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("bloscpack: %w", err)
	}
	return nil
}

// copyWithin copies n bytes of f from src to dst (regions apart).
func copyWithin(f blosc.WritableFile, dst, src, n int64) error {
	buf := make([]byte, min(n, 1<<20))
	for n > 0 {
		k := min(n, int64(len(buf)))
		if _, err := f.ReadAt(buf[:k], src); err != nil {
			return fmt.Errorf("bloscpack: %w", err)
		}
		if err := writeAll(f, buf[:k], dst); err != nil {
			return err
		}
		dst, src, n = dst+k, src+k, n-k
	}
	return nil
}

func mustSize(f blosc.WritableFile) int64 {
	st, err := f.Stat()
	if err != nil {
		return -1
	}
	return st.Size()
}
