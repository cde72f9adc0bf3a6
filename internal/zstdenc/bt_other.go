//go:build purego || noasm || !gc || !amd64

package zstdenc

// dubtSortFast has no assembly here: dubtSort's Go loop runs.
func (e *Encoder) dubtSortFast(buf []byte, cur, end, nb, btLow int) bool { return false }
