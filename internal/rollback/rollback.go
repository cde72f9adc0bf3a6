// Package rollback is the rollback record ("hot journal") that frame files
// and Bloscpack files keep while they are changed in place.
//
// Before a change writes over any byte a reader uses, it appends to the
// file a record of the file as it was: its old length and the old bytes at
// each offset the change will write. The record's durable removal (the
// file cut to its new length, synced) is the change's commit point. So a
// file that ends in a valid record always holds a change that did not
// commit: a writer puts the old bytes back and cuts the file to its old
// length (Restore), a reader reads through the old bytes (Overlay).
//
// The record is
//
//	nonce   uint64  random, per record
//	body    scrambled with a keystream drawn from the nonce:
//	        pos      uint64  the record's own offset in the file
//	        oldSize  uint64
//	        header   uint32 length, bytes (the new header, for diagnosis)
//	        count    uint32
//	        count ×  offset uint64, length uint32, old bytes
//	crc     uint32  CRC-32 (IEEE) of nonce and body as stored
//	length  uint64  of the whole record
//	magic   "b2goRB\x02\x00"
//
// all little-endian. A record is valid only at the offset it names, with
// its magic, length and CRC right, so a file cut short inside a record (a
// truncation half done) shows either the whole record or none: the bytes
// before such a cut are the record's own, scrambled with a nonce no data
// written earlier could know, never a record that parses.
//
// Read also accepts the records earlier versions wrote, whose meaning was
// different: a change had committed when the header on file was the
// record's new one (Legacy, Committed).
package rollback

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	mrand "math/rand/v2"
)

// File is what Restore and Remove need of a file changed in place; both
// blosc.WritableFile and *os.File are one.
type File interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Sync() error
}

// Range is bytes of the file as they were before the change.
type Range struct {
	Off int64
	Old []byte
}

// Record is a rollback record.
type Record struct {
	OldSize   int64   // the file's length before the change
	NewHeader []byte  // the header the change writes
	Ranges    []Range // old bytes, restored in order

	// Set by Read:
	Start  int64  // where the record starts in the file
	Legacy Legacy // the earlier version's format, or None
}

// Legacy names a record format of earlier versions.
type Legacy int

const (
	None      Legacy = iota
	Frame            // "b2fgoRB\x01": old header, new header, old length
	Bloscpack        // "bpkRB\x01\x00\x00": old length, new header, ranges
)

const (
	// Magic ends every record this package writes.
	Magic       = "b2goRB\x02\x00"
	legacyFrame = "b2fgoRB\x01"
	legacyBpk   = "bpkRB\x01\x00\x00"
	footerLen   = 16 // length, magic
	// MaxLen bounds a record: larger ones are not read (nor written).
	MaxLen = 1 << 30
	// minimum lengths of whole records: fixed fields, CRC, footer
	minLen       = 8 + 8 + 8 + 4 + 4 + 4 + footerLen
	legacyMinLen = 4 + 4 + 8 + 4 + footerLen
)

// ErrTooLarge is returned by Encode for a record over MaxLen bytes.
var ErrTooLarge = errors.New("rollback: record too large")

// Encode returns the record as written at offset pos of the file.
func (r *Record) Encode(pos int64) ([]byte, error) {
	n := minLen + len(r.NewHeader)
	for _, x := range r.Ranges {
		n += 12 + len(x.Old)
	}
	if n > MaxLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, n)
	}
	b := make([]byte, 8, n)
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	copy(b, nonce[:])
	b = binary.LittleEndian.AppendUint64(b, uint64(pos))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.OldSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.NewHeader)))
	b = append(b, r.NewHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.Ranges)))
	for _, x := range r.Ranges {
		b = binary.LittleEndian.AppendUint64(b, uint64(x.Off))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(x.Old)))
		b = append(b, x.Old...)
	}
	scramble(b[8:], binary.LittleEndian.Uint64(b))
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+footerLen))
	return append(b, Magic...), nil
}

// scramble XORs b with the keystream of nonce (its own inverse).
func scramble(b []byte, nonce uint64) {
	g := mrand.NewPCG(nonce, nonce^0x9e3779b97f4a7c15)
	var k [8]byte
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(k[:], g.Uint64())
		v := binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(k[:])
		binary.LittleEndian.PutUint64(b, v)
		b = b[8:]
	}
	binary.LittleEndian.PutUint64(k[:], g.Uint64())
	for i := range b {
		b[i] ^= k[i]
	}
}

// Read returns the valid record that ends a file of size bytes, or nil
// when there is none (or only part of one). legacy names the earlier
// format also accepted, if any. The error is the reader's own, from
// reading the file.
func Read(r io.ReaderAt, size int64, legacy Legacy) (*Record, error) {
	if size < footerLen {
		return nil, nil
	}
	var foot [footerLen]byte
	if err := readFull(r, foot[:], size-footerLen); err != nil {
		return nil, noShort(err)
	}
	magic := string(foot[8:])
	min := int64(minLen)
	switch {
	case magic == Magic:
	case magic == legacyFrame && legacy == Frame, magic == legacyBpk && legacy == Bloscpack:
		min = legacyMinLen
	default:
		return nil, nil
	}
	n := binary.LittleEndian.Uint64(foot[:8])
	if n < uint64(min) || n > uint64(size) || n > MaxLen {
		return nil, nil
	}
	b := make([]byte, n)
	if err := readFull(r, b, size-int64(n)); err != nil {
		return nil, noShort(err)
	}
	rec := Parse(b, size-int64(n), legacy)
	return rec, nil
}

// Ends reports whether b, a file's last bytes, ends with the magic of a
// record Read accepts with legacy: whether Read is worth a call.
func Ends(b []byte, legacy Legacy) bool {
	if len(b) < footerLen {
		return false
	}
	switch string(b[len(b)-8:]) {
	case Magic:
		return true
	case legacyFrame:
		return legacy == Frame
	case legacyBpk:
		return legacy == Bloscpack
	}
	return false
}

// Parse parses a whole record b found at offset start of a file, or
// returns nil if it is not valid there. b is scrambled in place when the
// record is this package's: the record's slices point into b.
func Parse(b []byte, start int64, legacy Legacy) *Record {
	if len(b) < footerLen || len(b) > MaxLen || start < 0 {
		return nil
	}
	foot := b[len(b)-footerLen:]
	if binary.LittleEndian.Uint64(foot) != uint64(len(b)) {
		return nil
	}
	magic := string(foot[8:])
	body := b[:len(b)-footerLen]
	if len(body) < 4 {
		return nil
	}
	sum := binary.LittleEndian.Uint32(body[len(body)-4:])
	body = body[:len(body)-4]
	if crc32.ChecksumIEEE(body) != sum {
		return nil
	}
	var rec *Record
	switch {
	case magic == Magic:
		rec = parseCurrent(body, start)
	case magic == legacyFrame && legacy == Frame:
		rec = parseLegacyFrame(body, start)
	case magic == legacyBpk && legacy == Bloscpack:
		rec = parseLegacyBloscpack(body)
	}
	if rec == nil {
		return nil
	}
	rec.Start = start
	if rec.OldSize < 0 || rec.OldSize > start {
		return nil
	}
	for _, x := range rec.Ranges {
		if x.Off < 0 || x.Off > rec.OldSize-int64(len(x.Old)) {
			return nil
		}
	}
	return rec
}

// cursor takes fields off the front of a record's body.
type cursor struct {
	b  []byte
	ok bool
}

func (c *cursor) take(n int) []byte {
	if !c.ok || n < 0 || n > len(c.b) {
		c.ok = false
		return nil
	}
	v := c.b[:n:n]
	c.b = c.b[n:]
	return v
}

// u32 takes a length or count: more than MaxLen is no valid one (and
// would not fit a 32-bit int).
func (c *cursor) u32() int {
	v := c.take(4)
	if v == nil {
		return -1
	}
	x := binary.LittleEndian.Uint32(v)
	if x > MaxLen {
		c.ok = false
		return -1
	}
	return int(x)
}

func (c *cursor) i64() int64 {
	v := c.take(8)
	if v == nil {
		return -1
	}
	x := binary.LittleEndian.Uint64(v)
	if x > 1<<62 {
		c.ok = false
		return -1
	}
	return int64(x)
}

// ranges reads count ranges, each at least 12 bytes (so count is bounded
// by the body's length before anything is allocated).
func (c *cursor) ranges() []Range {
	cnt := c.u32()
	if !c.ok || cnt < 0 || cnt > len(c.b)/12 {
		return nil
	}
	out := make([]Range, 0, cnt)
	for range cnt {
		off := c.i64()
		old := c.take(c.u32())
		if !c.ok {
			return nil
		}
		out = append(out, Range{off, old})
	}
	return out
}

func parseCurrent(body []byte, start int64) *Record {
	if len(body) < 8 {
		return nil
	}
	scramble(body[8:], binary.LittleEndian.Uint64(body))
	c := cursor{b: body[8:], ok: true}
	pos := c.i64()
	rec := &Record{OldSize: c.i64()}
	rec.NewHeader = c.take(c.u32())
	rec.Ranges = c.ranges()
	if !c.ok || len(c.b) != 0 || pos != start {
		return nil
	}
	return rec
}

func parseLegacyFrame(body []byte, start int64) *Record {
	c := cursor{b: body, ok: true}
	old := c.take(c.u32())
	rec := &Record{Legacy: Frame}
	rec.NewHeader = c.take(c.u32())
	rec.OldSize = c.i64()
	if !c.ok || len(c.b) != 0 {
		return nil
	}
	rec.Ranges = []Range{{0, old}}
	return rec
}

func parseLegacyBloscpack(body []byte) *Record {
	c := cursor{b: body, ok: true}
	rec := &Record{Legacy: Bloscpack, OldSize: c.i64()}
	rec.NewHeader = c.take(c.u32())
	rec.Ranges = c.ranges()
	if !c.ok || len(c.b) != 0 {
		return nil
	}
	return rec
}

// Committed reports, for a record of an earlier version, whether the
// change it belongs to had committed: the header in r is its new one.
// A record of this package's is never committed.
func (r *Record) Committed(f io.ReaderAt) bool {
	if r.Legacy == None || len(r.NewHeader) == 0 {
		return false
	}
	cur := make([]byte, len(r.NewHeader))
	return readFull(f, cur, 0) == nil && bytes.Equal(cur, r.NewHeader)
}

// Overlay returns f as it was before the change: the old bytes over the
// current ones. Its length is OldSize.
func (r *Record) Overlay(f io.ReaderAt) io.ReaderAt { return overlay{f, r} }

type overlay struct {
	f   io.ReaderAt
	rec *Record
}

func (o overlay) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("rollback: read at %d", off)
	}
	if off >= o.rec.OldSize {
		return 0, io.EOF
	}
	want := len(p)
	if int64(want) > o.rec.OldSize-off {
		p = p[:o.rec.OldSize-off]
	}
	n, err := o.f.ReadAt(p, off)
	// The old bytes stand for what the file holds there now, whether or
	// not it is as long.
	for _, x := range o.rec.Ranges {
		lo, hi := max(off, x.Off), min(off+int64(len(p)), x.Off+int64(len(x.Old)))
		if lo < hi {
			copy(p[lo-off:hi-off], x.Old[lo-x.Off:hi-x.Off])
			n = max(n, int(hi-off))
		}
	}
	if n == len(p) {
		err = nil
		if len(p) < want {
			err = io.EOF
		}
	}
	return n, err
}

// Restore puts the file back as it was: the old bytes (in order), synced,
// then the old length, synced. It stops at the first call that fails; the
// record is still there then (it lies past the old length), for the next
// Restore.
func (r *Record) Restore(f File) error {
	for _, x := range r.Ranges {
		if _, err := f.WriteAt(x.Old, x.Off); err != nil {
			return err
		}
	}
	if len(r.Ranges) > 0 {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Truncate(r.OldSize); err != nil {
		return err
	}
	return f.Sync()
}

// Remove is the commit: it cuts f to the record's start at pos and syncs.
func Remove(f File, pos int64) error {
	if err := f.Truncate(pos); err != nil {
		return err
	}
	return f.Sync()
}

// noShort drops errShort: a file shorter than its caller says holds no
// record there, and the caller's own reads report the shortness.
func noShort(err error) error {
	if err == errShort {
		return nil
	}
	return err
}

// readFull reads exactly len(p) bytes at off; a file that ends before
// is errShort.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = errShort
	}
	return err
}

var errShort = errors.New("rollback: short file")
