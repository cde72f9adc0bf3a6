package rollback

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"

	"github.com/goblosc/blosc/internal/faultfile"
)

func sample() *Record {
	return &Record{
		OldSize:   40,
		NewHeader: []byte("new header"),
		Ranges:    []Range{{0, []byte("old header")}, {30, []byte("0123456789")}, {12, nil}},
	}
}

func same(a, b *Record) bool {
	if a.OldSize != b.OldSize || !bytes.Equal(a.NewHeader, b.NewHeader) || len(a.Ranges) != len(b.Ranges) {
		return false
	}
	for i := range a.Ranges {
		if a.Ranges[i].Off != b.Ranges[i].Off || !bytes.Equal(a.Ranges[i].Old, b.Ranges[i].Old) {
			return false
		}
	}
	return true
}

// file is 40 bytes of a changed file, some new bytes past them, then the
// record.
func file(t *testing.T, rec *Record) (data []byte, pos int64) {
	t.Helper()
	data = bytes.Repeat([]byte("N"), 64)
	b, err := rec.Encode(int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return append(data, b...), 64
}

func TestRoundTrip(t *testing.T) {
	rec := sample()
	data, pos := file(t, rec)
	got, err := Read(bytes.NewReader(data), int64(len(data)), None)
	if err != nil || got == nil {
		t.Fatalf("Read: %v %v", got, err)
	}
	if !same(got, rec) || got.Start != pos || got.Legacy != None || got.Committed(bytes.NewReader(data)) {
		t.Fatalf("read %+v, wrote %+v", got, rec)
	}
	// Two encodings differ (their nonces), and both read back.
	b1, _ := rec.Encode(pos)
	b2, _ := rec.Encode(pos)
	if bytes.Equal(b1, b2) {
		t.Fatal("two records with the same bytes: no nonce")
	}
	// The old bytes do not appear as they are in the record.
	if bytes.Contains(b1, []byte("0123456789")) {
		t.Fatal("the record holds the old bytes unscrambled")
	}
}

// TestCutAnywhere: a file cut short at any byte of its record, or grown
// by any bytes, holds no record; a record moved holds none either.
func TestCutAnywhere(t *testing.T) {
	data, pos := file(t, sample())
	for n := int64(0); n < int64(len(data)); n++ {
		if rec, err := Read(bytes.NewReader(data[:n]), n, None); rec != nil || err != nil {
			t.Fatalf("cut at %d (record at %d): %+v %v", n, pos, rec, err)
		}
	}
	for _, extra := range []int{1, 7, 16} {
		d := append(bytes.Clone(data), make([]byte, extra)...)
		if rec, _ := Read(bytes.NewReader(d), int64(len(d)), None); rec != nil {
			t.Fatalf("%d bytes after the record: read one", extra)
		}
	}
	moved := append([]byte{0}, data...)
	if rec, _ := Read(bytes.NewReader(moved), int64(len(moved)), None); rec != nil {
		t.Fatal("a record one byte from where it was written read as valid")
	}
	for i := range data[pos:] {
		d := bytes.Clone(data)
		d[pos+int64(i)] ^= 1
		if rec, _ := Read(bytes.NewReader(d), int64(len(d)), None); rec != nil {
			t.Fatalf("byte %d of the record flipped: still valid", i)
		}
	}
}

// TestNested: a record among the old bytes of another (a file whose old
// state ended in one) never shows when the outer is cut at any byte.
func TestNested(t *testing.T) {
	inner, _ := file(t, sample())
	outer := &Record{OldSize: int64(len(inner)), Ranges: []Range{{0, inner}}}
	data := bytes.Clone(inner)
	b, err := outer.Encode(int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, b...)
	for n := int64(len(inner)) + 1; n < int64(len(data)); n++ {
		if rec, _ := Read(bytes.NewReader(data[:n]), n, None); rec != nil {
			t.Fatalf("cut at %d: a record", n)
		}
	}
}

func TestOverlayAndRestore(t *testing.T) {
	rec := sample()
	data, _ := file(t, rec)
	want := bytes.Clone(data[:40])
	for _, x := range rec.Ranges {
		copy(want[x.Off:], x.Old)
	}
	got, err := Read(bytes.NewReader(data), int64(len(data)), None)
	if err != nil || got == nil {
		t.Fatal(err)
	}
	o := got.Overlay(bytes.NewReader(data))
	all, err := io.ReadAll(io.NewSectionReader(o, 0, 1000))
	if err != nil || !bytes.Equal(all, want) {
		t.Fatalf("overlay reads %q (%v), want %q", all, err, want)
	}
	for off := int64(0); off <= 41; off++ {
		for n := 0; n <= 12; n++ {
			p := make([]byte, n)
			k, err := o.ReadAt(p, off)
			wantN := max(0, min(n, 40-int(off)))
			if k != wantN || !bytes.Equal(p[:k], want[min(off, 40):min(off, 40)+int64(k)]) || n > 0 && (k < n) != (err == io.EOF) {
				t.Fatalf("ReadAt(%d bytes, %d) = %d, %v", n, off, k, err)
			}
		}
	}
	f := faultfile.New(data, faultfile.NoFault)
	if err := got.Restore(f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Bytes(), want) {
		t.Fatalf("restored %q, want %q", f.Bytes(), want)
	}
	// Every call of Restore cut by a crash: the record is still there or
	// the file is restored.
	for k := 0; ; k++ {
		f := faultfile.New(data, faultfile.Plan{At: k, Keep: 3})
		err := got.Restore(f)
		if !f.Crashed() {
			break
		}
		if err == nil {
			t.Fatalf("crash at call %d: no error", k)
		}
		left := f.Bytes()
		if r, _ := Read(bytes.NewReader(left), int64(len(left)), None); r == nil && !bytes.Equal(left, want) {
			t.Fatalf("crash at call %d: neither a record nor the old file", k)
		}
	}
}

// legacyFrameRecord is the record earlier versions wrote for frames.
func legacyFrameRecord(oldHeader, newHeader []byte, oldSize int64) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(len(oldHeader)))
	b = append(b, oldHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(newHeader)))
	b = append(b, newHeader...)
	b = binary.LittleEndian.AppendUint64(b, uint64(oldSize))
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+16))
	return append(b, "b2fgoRB\x01"...)
}

// legacyBloscpackRecord is the record earlier versions wrote for
// Bloscpack files.
func legacyBloscpackRecord(oldSize int64, newHeader []byte, ranges []Range) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(oldSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(newHeader)))
	b = append(b, newHeader...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ranges)))
	for _, x := range ranges {
		b = binary.LittleEndian.AppendUint64(b, uint64(x.Off))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(x.Old)))
		b = append(b, x.Old...)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+16))
	return append(b, "bpkRB\x01\x00\x00"...)
}

func TestLegacy(t *testing.T) {
	body := []byte("NEWHEAD.....data.....")
	fr := append(bytes.Clone(body), legacyFrameRecord([]byte("OLDHEAD"), []byte("NEWHEAD"), 12)...)
	rec, err := Read(bytes.NewReader(fr), int64(len(fr)), Frame)
	if err != nil || rec == nil {
		t.Fatalf("legacy frame record: %v %v", rec, err)
	}
	if rec.Legacy != Frame || rec.OldSize != 12 || rec.Start != int64(len(body)) || len(rec.Ranges) != 1 || string(rec.Ranges[0].Old) != "OLDHEAD" || !rec.Committed(bytes.NewReader(fr)) {
		t.Fatalf("legacy frame record read as %+v", rec)
	}
	if r, _ := Read(bytes.NewReader(fr), int64(len(fr)), Bloscpack); r != nil {
		t.Fatal("a frame's legacy record read where only Bloscpack's is accepted")
	}
	if r, _ := Read(bytes.NewReader(fr), int64(len(fr)), None); r != nil {
		t.Fatal("a legacy record read where none is accepted")
	}
	torn := bytes.Clone(fr)
	torn[0] = 'X'
	if r, _ := Read(bytes.NewReader(torn), int64(len(torn)), Frame); r == nil || r.Committed(bytes.NewReader(torn)) {
		t.Fatal("legacy frame record: a header not the new one reads as committed")
	}

	ranges := []Range{{0, []byte("OLDHEAD")}, {9, []byte("xy")}}
	bp := append(bytes.Clone(body), legacyBloscpackRecord(15, []byte("NEWHEAD"), ranges)...)
	rec, err = Read(bytes.NewReader(bp), int64(len(bp)), Bloscpack)
	if err != nil || rec == nil || rec.Legacy != Bloscpack || !same(rec, &Record{OldSize: 15, NewHeader: []byte("NEWHEAD"), Ranges: ranges}) {
		t.Fatalf("legacy Bloscpack record: %+v %v", rec, err)
	}
	if !rec.Committed(bytes.NewReader(bp)) {
		t.Fatal("legacy Bloscpack record with its new header on file: not committed")
	}
	// A range past the old length is not valid.
	bad := append(bytes.Clone(body), legacyBloscpackRecord(5, []byte("NEWHEAD"), ranges)...)
	if r, _ := Read(bytes.NewReader(bad), int64(len(bad)), Bloscpack); r != nil {
		t.Fatal("a range past the old length accepted")
	}
}

// sealed makes body (plain, as Parse sees it once unscrambled) a record
// with a right CRC and footer, so that fuzzing reaches the fields.
func sealed(body []byte, legacy Legacy) []byte {
	b := bytes.Clone(body)
	magic := Magic
	switch legacy {
	case Frame:
		magic = legacyFrame
	case Bloscpack:
		magic = legacyBpk
	default:
		if len(b) < 8 {
			return b
		}
		scramble(b[8:], binary.LittleEndian.Uint64(b))
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)+footerLen))
	return append(b, magic...)
}

// FuzzParse: Parse never panics nor allocates more than its input, and
// what it accepts encodes to a record that reads back the same. The
// input is taken both as a whole record and as a record's plain body,
// sealed with its CRC and footer.
func FuzzParse(f *testing.F) {
	data, pos := file(&testing.T{}, sample())
	f.Add(data[pos:], pos, uint8(0))
	f.Add(legacyFrameRecord([]byte("old"), []byte("new"), 3), int64(10), uint8(1))
	f.Add(legacyBloscpackRecord(9, []byte("new"), []Range{{2, []byte("ab")}}), int64(12), uint8(2))
	plain := binary.LittleEndian.AppendUint64(nil, 7)
	plain = binary.LittleEndian.AppendUint64(plain, 64)
	plain = binary.LittleEndian.AppendUint64(plain, 10)
	plain = binary.LittleEndian.AppendUint32(plain, 2)
	plain = append(plain, "hd"...)
	plain = binary.LittleEndian.AppendUint32(plain, 1)
	plain = binary.LittleEndian.AppendUint64(plain, 3)
	plain = binary.LittleEndian.AppendUint32(plain, 4)
	plain = append(plain, "olds"...)
	f.Add(plain, int64(64), uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, start int64, which uint8) {
		legacy := Legacy(which % 3)
		for _, in := range [][]byte{b, sealed(b, legacy)} {
			rec := Parse(bytes.Clone(in), start, legacy)
			if rec == nil {
				continue
			}
			if rec.Start != start || rec.OldSize < 0 || rec.OldSize > start {
				t.Fatalf("accepted %+v at %d", rec, start)
			}
			for _, x := range rec.Ranges {
				if x.Off < 0 || x.Off+int64(len(x.Old)) > rec.OldSize {
					t.Fatalf("accepted a range at %d of %d bytes, old length %d", x.Off, len(x.Old), rec.OldSize)
				}
			}
			enc, err := rec.Encode(start)
			if err != nil {
				t.Fatal(err)
			}
			back := Parse(enc, start, None)
			if back == nil || !same(back, rec) {
				t.Fatalf("round trip: %+v became %+v", rec, back)
			}
		}
	})
}
