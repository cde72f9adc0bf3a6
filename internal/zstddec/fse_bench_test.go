package zstddec

import "testing"

// BenchmarkBuildSeqTable builds the predefined literal length table at
// log 6 and a flat 512-state one, per entry.
func BenchmarkBuildSeqTable(b *testing.B) {
	var t [512]seqEntry
	flat := make([]int16, 36)
	for i := range flat {
		flat[i] = 14
	}
	flat[0] += 512 - 14*36
	for _, c := range []struct {
		name string
		norm []int16
		log  uint
	}{{"predef-ll", llPredefNorm, 6}, {"flat-512", flat, 9}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				buildSeqTable(t[:], c.norm, c.log, llBase[:], llBits[:])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(int(1)<<c.log), "ns/entry")
		})
	}
}
