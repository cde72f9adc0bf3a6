//go:build !purego && !noasm && gc

package zstdenc

// dfastFree, when not 0, makes dfastBlockAsm's search test the table
// entries without branches (above 0) or with them (below): tests run
// both loops so.
var dfastFree int8

// useFastAsm selects fastBlockAsm and dfastBlockAsm for the fast and
// double fast strategies (tests clear it to compare with the Go loops).
var useFastAsm = true

// fastCtx is what fastBlockAsm reads and leaves: the block's buffer and
// hash table, the hash, and where the literals and sequences go.
type fastCtx struct {
	buf    *byte
	table  *uint32
	table2 *uint32 // dfast: the short table (table is the long one)
	lits   *byte
	seqs   *seq
	mul    uint64
	shift  uint64
	base   uint64
	ip0    int
	bufLen int
	nlits  int
	nseqs  int
	rep1   int
	rep2   int
	anchor int
}

// fastBlockAsm is the fast loop of Encoder.fast in assembly
// (fastasm_amd64.s), step for step: from c.ip0 to ilimit it finds the
// matches, extends them, stores their literals and sequences after
// c.nlits and c.nseqs, and leaves c.rep1, c.rep2 and c.anchor as the
// Go loop leaves its values. rep1 and the others are its variables;
// dummy is its own slot (fastDummy's index from c.buf).
//
//go:noescape
func fastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur, dummy int)

// fastAsm runs the fast strategy through fastBlockAsm when the buffers
// leave the room it writes without checks, and reports whether it did.
func (e *Encoder) fastAsm(buf []byte, table []uint32, hh hasher, start, end int) bool {
	n := end - start
	if !useFastAsm || n < 32 || end > len(buf) || hh.shift < 32 || len(table) != 1<<(64-hh.shift) ||
		cap(e.lits)-len(e.lits) < n+16 || cap(e.seqs)-len(e.seqs) < n/4+1 {
		return false
	}
	ip0 := max(start, 1)
	lits, seqs := e.lits[:cap(e.lits)], e.seqs[:cap(e.seqs)]
	c := fastCtx{
		buf: &buf[0], table: &table[0], lits: &lits[0], seqs: &seqs[0],
		mul: hh.mul, shift: uint64(hh.shift), base: uint64(e.base),
		ip0: ip0, bufLen: len(buf), nlits: len(e.lits), nseqs: len(e.seqs),
	}
	fastBlockAsm(&c, int(e.mrep[0]), int(e.mrep[1]), start, end-8, end, 0, 0)
	e.lits = lits[:c.nlits]
	e.seqs = seqs[:c.nseqs]
	e.mrep = [2]uint32{uint32(c.rep1), uint32(c.rep2)}
	e.lastLits(buf, start, c.anchor, end)
	return true
}

// dfastBlockAsm is the double fast loop of Encoder.dfast in assembly
// (fastasm_amd64.s), as fastBlockAsm is the fast one; shL, shS, mulL
// and mulS are the long and short hashes' shifts and multipliers (all
// but mulL read from the frame where they are used, which leaves a
// register for base), base is c.base,
// and nextStep, bound and lvalid are the loop's own slots. free
// chooses the search that tests the table entries without branches: a
// block's searches that meet matches within a position or two (text's)
// predict whether an entry is this frame's, as it goes with a match,
// and run faster with the branches; planes of noise and of long
// stretches without matches, where an entry of this frame is about a
// coin's toss (half of the loop's mispredictions), faster without.
// Encoder.dfSearchy holds which of the last four blocks had at least
// two literals a sequence (a search of two positions or more a match).
//
//go:noescape
func dfastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur, shL, shS, base, nextStep int, mulL, mulS uint64, bound int, lvalid, free bool)

// dfastAsm runs the double fast strategy through dfastBlockAsm when the
// buffers leave the room it writes without checks, and reports whether
// it did.
func (e *Encoder) dfastAsm(buf []byte, long, short []uint32, hL, hS hasher, start, end int) bool {
	n := end - start
	ip0 := max(start, 1)
	// The loop reads rep1's bytes without checking that ip+1-rep1 is in
	// buf, which holds from the block's start on when it does there.
	if !useFastAsm || n < 32 || end > len(buf) || hL.shift < 32 || len(long) != 1<<(64-hL.shift) ||
		hS.shift < 32 || len(short) != 1<<(64-hS.shift) || int(e.mrep[0]) > ip0+1 ||
		cap(e.lits)-len(e.lits) < n+16 || cap(e.seqs)-len(e.seqs) < n/4+1 {
		return false
	}
	lits, seqs := e.lits[:cap(e.lits)], e.seqs[:cap(e.seqs)]
	c := fastCtx{
		buf: &buf[0], table: &long[0], table2: &short[0], lits: &lits[0], seqs: &seqs[0],
		base: uint64(e.base),
		ip0:  ip0, bufLen: len(buf), nlits: len(e.lits), nseqs: len(e.seqs),
	}
	// The search without branches on the entries where a recent block
	// searched long between matches (tests may force either).
	free := e.dfSearchy != 0
	if dfastFree != 0 {
		free = dfastFree > 0
	}
	dfastBlockAsm(&c, int(e.mrep[0]), int(e.mrep[1]), start, end-8, end, 0, int(hL.shift), int(hS.shift), int(e.base), 0, hL.mul, hS.mul, 0, false, free)
	nl, ns := c.nlits-len(e.lits), c.nseqs-len(e.seqs)
	searchy := uint8(0)
	if nl >= 64 && nl >= 2*ns {
		searchy = 1
	}
	e.dfSearchy = (e.dfSearchy<<1 | searchy) & 0xF
	e.lits = lits[:c.nlits]
	e.seqs = seqs[:c.nseqs]
	e.mrep = [2]uint32{uint32(c.rep1), uint32(c.rep2)}
	e.lastLits(buf, start, c.anchor, end)
	return true
}
