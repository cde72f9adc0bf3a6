//go:build purego || noasm || !gc || !amd64

package zstdenc

func (e *Encoder) fastAsm(buf []byte, table []uint32, hh hasher, start, end int) bool {
	return false
}

func (e *Encoder) dfastAsm(buf []byte, long, short []uint32, hL, hS hasher, start, end int) bool {
	return false
}
