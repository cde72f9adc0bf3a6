package b2nd

import (
	"fmt"
	"testing"

	"github.com/goblosc/blosc/internal/schunkhook"
)

// BenchmarkGatherRows times the rows of a 64x64 block of 8-byte items
// (64 rows, the block's width apart) gathered by gatherRows8 in Go and
// unshuffled by schunkhook.UnshuffleRows' kernel, for short rows: where
// the kernel starts to win sets unshuffleRowsMin.
func BenchmarkGatherRows(b *testing.B) {
	var streams [16][]byte
	for j := range 8 {
		streams[j] = make([]byte, 64*64)
	}
	for _, row := range []int64{1, 2, 3, 4, 5, 8} {
		dst := make([]byte, 8*64*row)
		b.Run(fmt.Sprintf("row=%d/go", row), func(b *testing.B) {
			for b.Loop() {
				gatherRows8(dst, &streams, 0, 3, row, 64, row, 64)
			}
		})
		if schunkhook.UnshufflesRows(8, row) {
			b.Run(fmt.Sprintf("row=%d/kernel", row), func(b *testing.B) {
				for b.Loop() {
					schunkhook.UnshuffleRows(dst, &streams, 8, 0, 3, row, 64, row, 64)
				}
			})
		}
	}
}
