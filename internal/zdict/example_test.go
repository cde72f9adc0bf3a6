package zdict_test

import (
	"fmt"

	"github.com/goblosc/blosc/internal/zdict"
)

// Records that share a layout: the dictionary is the stretch of them
// whose d-mers recur in the most records. A segment runs from the first
// such d-mer to the last, so the value unique to one record between two
// shared fields comes along.
func ExampleTrain() {
	var samples [][]byte
	for i := range 6 {
		samples = append(samples, fmt.Appendf(nil, `{"sensor":"north-%d","unit":"kelvin","status":"ok"}`, i*7919))
	}
	d := zdict.Train(nil, samples, 256)
	fmt.Printf("%d bytes: %q\n", len(d), d)
	// Output:
	// 50 bytes: "{\"sensor\":\"north-0\",\"unit\":\"kelvin\",\"status\":\"ok\"}"
}
