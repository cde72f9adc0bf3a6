package zstdenc

// Block splitting, libzstd 1.5.4's for btopt and up with a window of
// 128 KiB or more (ZSTD_compressBlock_splitBlock): a block's sequences
// are cut in halves, recursively, while the two halves cost less than
// the whole, and each part is written as a block of its own with tables
// fitted to it. libzstd estimates the parts' sizes from their
// statistics; here each part is coded (into scratch, committing
// nothing) and measured, which is the same comparison with exact sizes.
// The sequences keep plain offsets, so a part after one stored raw codes
// its repeats against what the decoder holds without libzstd's repair
// of repeat codes.

const (
	// Parts of fewer sequences are not cut (MIN_SEQUENCES_BLOCK_SPLITTING).
	splitMinSeqs = 300
	// At most this many cuts in a block (ZSTD_MAX_NB_BLOCK_SPLITS).
	splitMaxCuts = 196
)

// splitBlock appends src, whose sequences and literals the finder left
// in e.seqs and e.lits, as one block or as several.
func (e *Encoder) splitBlock(dst, src []byte, last bool) []byte {
	seqs, lits := e.seqs, e.lits
	n := len(seqs)
	if n <= 4 {
		return e.writeBlock(dst, src, last)
	}
	if cap(e.cuts) < splitMaxCuts+64 {
		// The cuts stop growing at splitMaxCuts plus the depth of the
		// recursion (at most 9 below a block's 43691 sequences).
		e.cuts = make([]int, 0, splitMaxCuts+64)
	}
	e.cuts = e.cuts[:0]
	e.deriveCuts(seqs, lits, 0, n)
	if len(e.cuts) == 0 {
		return e.writeBlock(dst, src, last)
	}
	e.cuts = append(e.cuts, n)
	from, lit, pos := 0, 0, 0
	for k, to := range e.cuts {
		litEnd, size := lit, 0
		for _, s := range seqs[from:to] {
			litEnd += int(s.ll)
			size += int(s.ll + s.ml)
		}
		final := k == len(e.cuts)-1
		if final {
			litEnd = len(lits)
			size = len(src) - pos
		}
		e.seqs, e.lits = seqs[from:to], lits[lit:litEnd]
		dst = e.writeBlock(dst, src[pos:pos+size], last && final)
		from, lit, pos = to, litEnd, pos+size
	}
	e.seqs, e.lits = seqs, lits
	return dst
}

// deriveCuts adds to e.cuts, in order, the cuts inside seqs[a:b]
// (ZSTD_deriveBlockSplitsHelper).
func (e *Encoder) deriveCuts(seqs []seq, lits []byte, a, b int) {
	if b-a < splitMinSeqs || len(e.cuts) >= splitMaxCuts {
		return
	}
	mid := (a + b) / 2
	whole := e.partSize(seqs, lits, a, b)
	first := e.partSize(seqs, lits, a, mid)
	second := e.partSize(seqs, lits, mid, b)
	if first+second < whole {
		e.deriveCuts(seqs, lits, a, mid)
		e.cuts = append(e.cuts, mid)
		e.deriveCuts(seqs, lits, mid, b)
	}
}

// partSize is the size of seqs[a:b] with their literals (and the block's
// last literals if b is the end) coded as one block after the blocks
// written so far, header included.
func (e *Encoder) partSize(seqs []seq, lits []byte, a, b int) int {
	lit := 0
	for _, s := range seqs[:a] {
		lit += int(s.ll)
	}
	litEnd, size := lit, 0
	for _, s := range seqs[a:b] {
		litEnd += int(s.ll)
		size += int(s.ll + s.ml)
	}
	if b == len(seqs) {
		litEnd = len(lits)
	}
	size += litEnd - lit
	// compressBlock turns the sequences it codes into their extra bits
	// (seqCodes), so it codes a copy: the block's own are coded again.
	e.splitSeqs = append(e.splitSeqs[:0], seqs[a:b]...)
	e.seqs, e.lits = e.splitSeqs, lits[lit:litEnd]
	n := e.compressBlock()
	e.seqs, e.lits = seqs, lits
	if n == 0 {
		n = size
	}
	return n + 3
}
