//go:build purego || noasm || !gc || !amd64

package zstdenc

// tagMatches returns the bits of the n (16, 32 or 64) tags equal to tag,
// bit j for tags[j].
func tagMatches(tags []byte, tag uint8, n int) uint64 {
	return tagMatchesSWAR(tags, tag, n)
}

// useRowAsm: no prefetch here.
var useRowAsm = false

// prefetchRow is never called here (useRowAsm is false).
func prefetchRow(tags *byte, entries *uint32) {}

// tagMatches64AndPrefetch is never called here (useRowAsm is false); it
// compares as tagMatches does and prefetches nothing.
func tagMatches64AndPrefetch(tags []byte, tag uint8, ptags *byte, pentries *uint32) uint64 {
	return tagMatchesSWAR(tags, tag, 64)
}

// rowScan64Asm is never called here (useRowAsm is false).
func rowScan64Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int) {
	panic("zstdenc: rowScan64Asm without assembly")
}

// rowScan32Asm is never called here (useRowAsm is false).
func rowScan32Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int) {
	panic("zstdenc: rowScan32Asm without assembly")
}

// rowScan16Asm is never called here (useRowAsm is false).
func rowScan16Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int) {
	panic("zstdenc: rowScan16Asm without assembly")
}

// chain16ScanAsm is never called here (useRowAsm is false).
func chain16ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint16, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int) {
	panic("zstdenc: chain16ScanAsm without assembly")
}

// chain32ScanAsm is never called here (useRowAsm is false).
func chain32ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint32, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq, base uint32) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int) {
	panic("zstdenc: chain32ScanAsm without assembly")
}
