//go:build !purego && !noasm && gc

package zstdenc

// tagMatchesAsm is tagMatches with SSE2 (baseline on amd64): each 16
// tags compared at once (PCMPEQB) and their equalities gathered into 16
// bits (PMOVMSKB), where the portable code takes four rounds of
// arithmetic on 8-byte words and a multiply each. n is 16, 32 or 64 and
// len(tags) at least n.
//
//go:noescape
func tagMatchesSSE2(tags *byte, tag uint8, n int) uint64

// tagMatches returns the bits of the n (16, 32 or 64) tags equal to tag,
// bit j for tags[j].
// SSE2 is part of amd64, so there is no switch: the call inlines into
// rowSearch (the portable compare is tested on its own by
// TestTagMatches).
func tagMatches(tags []byte, tag uint8, n int) uint64 {
	_ = tags[n-1]
	return tagMatchesSSE2(&tags[0], tag, n)
}

// useRowAsm selects the rows' prefetches; a variable, so that a
// comparison can switch them off.
var useRowAsm = true

// prefetchRow asks for a row's tags and its entries from entries on,
// as libzstd prefetches the rows a few positions ahead.
//
//go:noescape
func prefetchRow(tags *byte, entries *uint32)

// tagMatches64Prefetch is tagMatchesSSE2 on 64 tags after prefetchRow's
// prefetches of another row: rowSearch64's one call a search.
//
//go:noescape
func tagMatches64Prefetch(tags *byte, tag uint8, ptags *byte, pentries *uint32) uint64

// tagMatches64AndPrefetch returns the bits of the 64 tags equal to tag
// and asks for the row at ptags and pentries, as prefetchRow does.
func tagMatches64AndPrefetch(tags []byte, tag uint8, ptags *byte, pentries *uint32) uint64 {
	_ = tags[63]
	return tagMatches64Prefetch(&tags[0], tag, ptags, pentries)
}

// rowScan64Asm is rowSearch64's inserts, search and insert of ip in
// one assembly function (tags_amd64.s): on clevel 6's blocks nearly
// every position is searched and most searches find nothing, so the Go
// search's fixed cost (its call of the tag compare, the spills around
// it, the insert's reloads) was most of its time. With over 0 it is
// also lazy's loop over the positions that find nothing and lazy's steps
// after a match (lazy's spills around each search, its dispatch and its
// checks were the rest of that cost).
//
//go:noescape
func rowScan64Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)

// rowScan32Asm is rowScan64Asm for rows of 32, rowSearch's steps where
// the search log is 5 (libzstd's levels 5 and 9 over 256 KiB): the same
// body (rowscan_amd64.h).
//
//go:noescape
func rowScan32Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)

// rowScan16Asm is rowScan64Asm for rows of 16, rowSearch's steps where
// the search log is 4 (libzstd's level 7 over 256 KiB).
//
//go:noescape
func rowScan16Asm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, over int, tags, heads *byte, entries *uint32, mul, shift uint64, base uint32, next, depth int) (rip, best, off, st, rep, nextOut int)

// chain16ScanAsm is greedy16's and lazy16's loop over the positions that
// find nothing, the inserts and the search from 3 included, and lazy16's
// steps after a match, in assembly (tags_amd64.s); it returns at the
// match the steps leave, at a position the Go loop must take (a repeat
// at ip+1, a long match's inside to skip) or at ilimit.
//
//go:noescape
func chain16ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint16, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int)

// chain32ScanAsm is chain16ScanAsm over the uint32 chains (heads and
// links biased by base), lazy's loop for sources of more than 64 KiB
// searched by hash chains (tags_amd64.s).
//
//go:noescape
func chain32ScanAsm(buf *byte, buflen, ip, end, ilimit, anchor, rep1, rep2, tries int, heads, chain *uint32, hmask, cmask int, mul, shift uint64, next, depth int, lits *[]byte, seqs *[]seq, base uint32) (rip, ranchor, rrep1, rrep2, best, off, st, rep, nextOut int)
