//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
)

// c-blosc2's blosc2_getitem_ctx on a repeated-value chunk whose value is
// longer than its typesize (the FuzzDecompress2 seed
// getitem-repeated-value-phase): blosc2_decompress_ctx gives what
// Decompress gives, and GetItem follows it. C's getitem departs from its
// own decompress in exactly two ways, which this test pins down so that
// any other disagreement fails: it restarts the value at the first
// requested byte instead of keeping its phase, and it fails when the
// range is not a whole number of values.
func TestGetItemRepeatedValueVersusC2(t *testing.T) {
	src := []byte("\x05\x10\x05\x01\x808\x01\x00\x808\b\x00(\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x000\xff\xff\xff\xff\x00@\x00\x00")
	value := src[header2Len:]
	d, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	whole, err := blosc.Decompress(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	cWhole := make([]byte, len(whole))
	if n, err := d.Decompress(cWhole, src); err != nil || n != len(whole) || !bytes.Equal(cWhole, whole) {
		t.Fatalf("blosc2_decompress_ctx: %d bytes, %v; differs from Decompress at %d", n, err, golden.FirstDiff(cWhole, whole))
	}
	agree, restarted, refused := 0, 0, 0
	for _, r := range [][2]int{{0, 8}, {8, 64}, {26666, 53334}, {1, 7}, {3, 16}, {7, 9}, {4, 8}, {0, len(whole)}, {len(whole) - 8, 8}, {5, 0}} {
		ours, err := blosc.GetItems(nil, src, int64(r[0]), int64(r[1]))
		if err != nil {
			t.Fatalf("GetItem(%d, %d): %v", r[0], r[1], err)
		}
		if !bytes.Equal(ours, whole[r[0]:r[0]+r[1]]) {
			t.Fatalf("GetItem(%d, %d) differs from Decompress", r[0], r[1])
		}
		c := make([]byte, r[1])
		n, cerr := d.GetItem(c, src, r[0], r[1])
		switch {
		case cerr == nil && n == r[1] && bytes.Equal(c, ours):
			agree++
		case cerr != nil && r[1]%len(value) != 0:
			refused++
		case cerr == nil && n == r[1] && r[0]%len(value) != 0 && bytes.Equal(c, bytes.Repeat(value, r[1]/len(value))):
			restarted++
		default:
			t.Errorf("blosc2_getitem_ctx(%d, %d) = %d, %v, % x...; ours % x...", r[0], r[1], n, cerr, c[:min(n, 16)], ours[:min(len(ours), 16)])
		}
	}
	t.Logf("c-blosc2 %s getitem: %d ranges agree, %d restart the value at the range start, %d refused (not a whole number of values)", cblosc2.Version(), agree, restarted, refused)
	if restarted == 0 || refused == 0 || agree == 0 {
		t.Errorf("expected every kind of outcome; has c-blosc2's getitem changed?")
	}
}

// c-blosc2 bug: _blosc_getitem decodes a block straight into dest when
// "startb == 0 && bsize == nitems_bytes", meant for a request of exactly
// one aligned block; a request of one block's bytes that starts inside a
// block also meets it at the next block, which then overwrites dest from
// its start. blosc2_getitem_ctx returns the wrong items with no error.
// Found by FuzzCrossCBlosc2; GetItem is right, as this test also checks.
func TestGetItemBlockSizedRangeVersusC2(t *testing.T) {
	in := make([]byte, 131072)
	for i := 0; i < len(in)/8; i++ {
		binary.LittleEndian.PutUint64(in[8*i:], uint64(i))
	}
	ch, err := blosc.Compress(nil, in, blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8, Blocksize: 32768,
		Threads: 1, Filters: [blosc.MaxFilters]blosc.Filter{5: blosc.ByteShuffle}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	for _, r := range [][3]int{{0, 4096, 1}, {4096, 4096, 1}, {24, 4095, 1}, {24, 4096, 0}, {1, 4096, 0}} {
		want := in[r[0]*8 : (r[0]+r[1])*8]
		got, err := blosc.GetItems(nil, ch, int64(r[0]), int64(r[1]))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("GetItem(%d, %d): %v, first difference at %d", r[0], r[1], err, golden.FirstDiff(got, want))
		}
		c := make([]byte, len(want))
		n, cerr := d.GetItem(c, ch, r[0], r[1])
		if right := cerr == nil && n == len(want) && bytes.Equal(c, want); right != (r[2] == 1) {
			t.Errorf("blosc2_getitem_ctx(%d, %d): %d bytes, %v, first item %d; expected it to be %v",
				r[0], r[1], n, cerr, binary.LittleEndian.Uint64(c), r[2] == 1)
		}
	}
}

// c2GetItemBlockBug reports whether blosc2_getitem_ctx meets the bug of
// TestGetItemBlockSizedRangeVersusC2 on items [start, start+n).
// The block met can be the last, shorter one.
func c2GetItemBlockBug(h *blosc.Header, start, n int) bool {
	bs := h.Blocksize
	lo, hi := start*h.Typesize, (start+n)*h.Typesize
	if bs <= 0 || n == 0 {
		return false
	}
	for j := lo/bs + 1; j < h.Nblocks && j*bs < hi; j++ {
		if blockSize(h, j) == hi-lo {
			return true
		}
	}
	return false
}

// c-blosc2 bug: blosc2_getitem_ctx undoes the delta filter of every block
// after the first against the wrong reference, so any range reaching past
// block 0 of a delta chunk comes back wrong with no error, even the whole
// chunk; blosc2_decompress_ctx is right. Found by FuzzCrossCBlosc2;
// GetItem agrees with Decompress, as this test also checks.
func TestGetItemDeltaVersusC2(t *testing.T) {
	in, err := golden.Pattern("linspace_f64", 3000)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := blosc.Compress(nil, in, blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8, Blocksize: 1024,
		Threads: 1, Filters: [blosc.MaxFilters]blosc.Filter{4: blosc.Delta, 5: blosc.ByteShuffle}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	whole := make([]byte, len(in))
	if n, err := d.Decompress(whole, ch); err != nil || n != len(in) || !bytes.Equal(whole, in) {
		t.Fatalf("blosc2_decompress_ctx: %d, %v", n, err)
	}
	for _, r := range [][3]int{{0, 128, 1}, {120, 8, 1}, {113, 28, 0}, {130, 10, 0}, {0, 375, 0}} {
		want := in[r[0]*8 : (r[0]+r[1])*8]
		got, err := blosc.GetItems(nil, ch, int64(r[0]), int64(r[1]))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("GetItem(%d, %d): %v, first difference at %d", r[0], r[1], err, golden.FirstDiff(got, want))
		}
		c := make([]byte, len(want))
		n, cerr := d.GetItem(c, ch, r[0], r[1])
		if right := cerr == nil && n == len(want) && bytes.Equal(c, want); right != (r[2] == 1) {
			t.Errorf("blosc2_getitem_ctx(%d, %d): %d bytes, %v, first difference at %d; expected it to be right: %v",
				r[0], r[1], n, cerr, golden.FirstDiff(c, want), r[2] == 1)
		}
	}
}
