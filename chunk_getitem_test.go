package blosc

import (
	"bytes"
	"testing"
)

// A repeated-value chunk whose value is longer than its typesize (8 bytes
// after the header, typesize 1): c-blosc2 repeats all 8 bytes, and a range
// read through GetItem must keep their phase rather than restart the
// pattern at the first requested item.
func TestGetItemRepeatedValuePhase(t *testing.T) {
	src := []byte("\x05\x10\x05\x01\x808\x01\x00\x808\b\x00(\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x000\xff\xff\xff\xff\x00@\x00\x00")
	whole, err := Decompress(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int{{26666, 53334}, {0, 8}, {1, 7}, {7, 9}, {3, 0}, {len(whole) - 5, 5}} {
		got, err := GetItems(nil, src, int64(r[0]), int64(r[1]))
		if err != nil {
			t.Fatalf("GetItems(%d, %d): %v", r[0], r[1], err)
		}
		if want := whole[r[0] : r[0]+r[1]]; !bytes.Equal(got, want) {
			t.Errorf("GetItems(%d, %d) = % x..., Decompress has % x...", r[0], r[1], got[:min(16, len(got))], want[:min(16, len(want))])
		}
	}
}
