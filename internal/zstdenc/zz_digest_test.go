package zstdenc

import (
	"crypto/sha256"
	"fmt"
	"os"
	"testing"

	"github.com/goblosc/blosc/internal/datasets"
	"github.com/goblosc/blosc/internal/golden"
)

func TestZZDigest(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	var e Encoder
	names := []string{"text", "linspace_f64", "f32_noise", "rec12", "arange_i64", "runs", "rand_s1"}
	names = append(names, datasets.RealWorld...)
	for _, name := range names {
		for _, n := range []int{5000, 32 << 10, 64 << 10, 300 << 10} {
			src := golden.Shuffled(golden.MustPattern(t, name, n), 8)
			for lvl := 1; lvl <= 22; lvl++ {
				h := sha256.Sum256(e.Encode(nil, src, lvl))
				fmt.Printf("%s %d %d %x\n", name, n, lvl, h[:8])
			}
		}
	}
}
