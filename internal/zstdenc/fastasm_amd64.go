//go:build !purego && !noasm && gc

package zstdenc

// useFastAsm selects fastBlockAsm and dfastBlockAsm for the fast and
// double fast strategies (tests clear it to compare with the Go loops).
var useFastAsm = true

// fastCtx is what fastBlockAsm reads and leaves: the block's buffer and
// hash table, the hash, and where the literals and sequences go.
type fastCtx struct {
	buf    *byte
	table  *uint32
	table2 *uint32 // dfast: the short table (table is the long one)
	mul2   uint64  // dfast: the short hash's multiplier
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
// (fastasm_amd64.s), as fastBlockAsm is the fast one; shL and shS are
// the long and short hashes' shifts, base is c.base (read from the frame
// where the search keeps its step in base's register) and nextStep the
// search's own slot.
//
//go:noescape
func dfastBlockAsm(c *fastCtx, rep1, rep2, anchor, ilimit, end, cur, shL, shS, base, nextStep int)

// dfastAsm runs the double fast strategy through dfastBlockAsm when the
// buffers leave the room it writes without checks, and reports whether
// it did.
func (e *Encoder) dfastAsm(buf []byte, long, short []uint32, hL, hS hasher, start, end int) bool {
	n := end - start
	if !useFastAsm || n < 32 || end > len(buf) || hL.shift < 32 || len(long) != 1<<(64-hL.shift) ||
		hS.shift < 32 || len(short) != 1<<(64-hS.shift) ||
		cap(e.lits)-len(e.lits) < n+16 || cap(e.seqs)-len(e.seqs) < n/4+1 {
		return false
	}
	lits, seqs := e.lits[:cap(e.lits)], e.seqs[:cap(e.seqs)]
	c := fastCtx{
		buf: &buf[0], table: &long[0], table2: &short[0], lits: &lits[0], seqs: &seqs[0],
		mul: hL.mul, mul2: hS.mul, base: uint64(e.base),
		ip0: max(start, 1), bufLen: len(buf), nlits: len(e.lits), nseqs: len(e.seqs),
	}
	dfastBlockAsm(&c, int(e.mrep[0]), int(e.mrep[1]), start, end-8, end, 0, int(hL.shift), int(hS.shift), int(e.base), 0)
	e.lits = lits[:c.nlits]
	e.seqs = seqs[:c.nseqs]
	e.mrep = [2]uint32{uint32(c.rep1), uint32(c.rep2)}
	e.lastLits(buf, start, c.anchor, end)
	return true
}
