// Package lz4_test holds internal/lz4's encoders to liblz4: byte for byte
// (TestHCVersusC, FuzzHCVersusC under -tags cblosc) and in speed
// (BenchmarkHCVersusC; BenchmarkStreamsVersusC under -tags cblosc2).
package lz4_test

import "fmt"

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
