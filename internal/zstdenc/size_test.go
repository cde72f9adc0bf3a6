package zstdenc

import (
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func TestLogSizes(t *testing.T) {
	var e Encoder
	for _, name := range []string{"text", "arange_i16", "arange_i64", "linspace_f64", "f32_noise"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 256<<10), 8)
		for _, lvl := range []int{1, 3} {
			t.Logf("%s l%d: %d -> %d", name, lvl, len(src), len(e.Encode(nil, src, lvl)))
		}
	}
}
