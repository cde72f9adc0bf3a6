package main

import (
	"os"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

func TestZZGen(t *testing.T) {
	if os.Getenv("ZZGEN") == "" {
		t.Skip()
	}
	for _, p := range []string{"f32_noise", "linspace_f64"} {
		in, _ := golden.Pattern(p, 256<<20)
		os.WriteFile("/dev/shm/zz_"+p, in, 0o644)
	}
}
