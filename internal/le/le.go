// Package le reads and writes little-endian words at byte offsets of a
// slice for the codecs' hot loops. On little-endian platforms that move
// unaligned words in one instruction the accesses skip bounds checks
// (le_unsafe.go): every caller has proved the offset in range by the
// invariants noted where it calls. Everywhere else, and under -tags
// purego or noasm, they are checked (le_safe.go), which is how the tests
// and fuzz targets of the callers prove those invariants.
package le
