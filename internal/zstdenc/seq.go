package zstdenc

import (
	"github.com/goblosc/blosc/internal/le"
	"github.com/goblosc/blosc/internal/zstdcodes"
)

// Baselines and extra bits of the literal length and match length codes
// (RFC 8878 3.1.1.3.2.1.1), and the predefined distributions (3.1.1.3.2.2).
var (
	llBase = zstdcodes.LLBase
	llBits = zstdcodes.LLBits
	mlBase = zstdcodes.MLBase
	mlBits = zstdcodes.MLBits

	llPredefNorm = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}
	mlPredefNorm = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
		-1, -1, -1, -1, -1}
	ofPredefNorm = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
)

const (
	llMaxSym = 35
	mlMaxSym = 52
	ofMaxSym = 31
	llMaxLog = 9
	mlMaxLog = 9
	ofMaxLog = 8
)

// Compression modes of the sequences section (RFC 8878 3.1.1.3.2.1).
const (
	modePredef = iota
	modeRLE
	modeFSE
	modeRepeat
)

// llBits64 and mlBits64 are llBits and mlBits in tables of 64 entries,
// which a code masked to 6 bits indexes without a bounds check.
var llBits64, mlBits64 [64]uint8

var (
	llPredef, mlPredef, ofPredef fseCTable
	llCodeSmall                  [64]uint8
	mlCodeSmall                  [128]uint8
)

func init() {
	copy(llBits64[:], llBits[:])
	copy(mlBits64[:], mlBits[:])
	llPredef.build(llPredefNorm, 6)
	mlPredef.build(mlPredefNorm, 6)
	ofPredef.build(ofPredefNorm, 5)
	for c := 0; c < 36; c++ {
		for v := llBase[c]; v < llBase[c]+1<<llBits[c] && v < 64; v++ {
			llCodeSmall[v] = uint8(c)
		}
	}
	for c := 0; c < 53; c++ {
		for v := mlBase[c] - 3; v < mlBase[c]-3+1<<mlBits[c] && v < 128; v++ {
			mlCodeSmall[v] = uint8(c)
		}
	}
	seqCodeTabs = seqCodeTables{llCodeSmall, mlCodeSmall}
}

// seqCodeTables gathers copies of the tables seqCodesAsm reads, so that
// one register addresses both (a pointer each cost loads a sequence).
type seqCodeTables struct {
	llSmall [64]uint8
	mlSmall [128]uint8
}

var seqCodeTabs seqCodeTables

func llCode(ll uint32) uint8 {
	if ll < 64 {
		return llCodeSmall[ll]
	}
	return uint8(highbit(ll) + 19)
}

func mlCode(mlb uint32) uint8 {
	if mlb < 128 {
		return mlCodeSmall[mlb]
	}
	return uint8(highbit(mlb) + 36)
}

// seqKind is one of the three sequence fields with its tables.
type seqKind struct {
	maxSym     int
	maxLog     uint
	predef     *fseCTable
	predefNorm []int16
	predefLog  uint8
}

var (
	llKind = seqKind{llMaxSym, llMaxLog, &llPredef, llPredefNorm, 6}
	ofKind = seqKind{ofMaxSym, ofMaxLog, &ofPredef, ofPredefNorm, 5}
	mlKind = seqKind{mlMaxSym, mlMaxLog, &mlPredef, mlPredefNorm, 6}
)

// fseTables is the FSE state a frame carries from block to block: per
// field (ll, of, ml) two tables, the one a repeat mode names (slot cur)
// and the one a block being written builds. A kept block that built a
// new table flips cur rather than copying ~1.7 KB a table; a repeated
// table stays where it is.
type fseTables struct {
	t     [3][2]fseCTable
	cur   [3]uint8
	valid [3]bool // t[k][cur[k]] holds a table a repeat mode can name
}

// chooseTable picks the cheapest mode for one field's codes, as libzstd
// does at its slower levels (ZSTD_selectEncodingType): the predefined
// table, the previous block's, or a new one whose description counts
// against it. It writes a new table's description at dst and returns the
// mode, that size and the table to code with: the predefined one, prev,
// or cur, where a new or single-symbol table is built.
func (e *Encoder) chooseTable(k *seqKind, codes []uint8, count *[64]uint32, prev *fseCTable, prevValid bool,
	cur *fseCTable, dst []byte) (mode int, n int, t *fseCTable) {
	maxSym := 0
	for s := k.maxSym; s >= 0; s-- {
		if count[s] != 0 {
			maxSym = s
			break
		}
	}
	nbSeq := len(codes)
	most := uint32(0)
	for _, c := range count[:maxSym+1] {
		most = max(most, c)
	}
	predefOK := maxSym < len(k.predefNorm)
	if int(most) == nbSeq {
		if predefOK && nbSeq <= 2 {
			return modePredef, 0, k.predef
		}
		cur.buildRLE(codes[0])
		dst[0] = codes[0]
		return modeRLE, 1, cur
	}
	if e.strategy < stratLazy {
		// The fast, double fast and greedy levels choose as libzstd
		// does below lazy, by counts alone: the predefined table for few sequences
		// or a flat distribution, else a new table, never the previous
		// block's (libzstd repeats one there only from a dictionary's
		// tables). No cost is worked out: on the small frames of byte
		// planes the three costs took about what the table build does.
		if predefOK {
			minSeq := (1 << k.predefLog) * (10 - e.strategy) >> 3
			if nbSeq < minSeq || int(most) < nbSeq>>(k.predefLog-1) {
				return modePredef, 0, k.predef
			}
		}
		log := optimalTableLog(k.maxLog, nbSeq, maxSym, 2)
		total := nbSeq
		last := codes[nbSeq-1]
		if count[last] > 1 {
			count[last]--
			total--
		}
		norm := e.norm[:maxSym+1]
		normalizeCount(norm, log, count[:], total, maxSym, total >= 2048)
		count[last]++
		hs := writeNCount(dst, norm, maxSym, log)
		cur.build(norm, uint8(log))
		return modeFSE, hs, cur
	}
	const inf = ^uint64(0)
	basic := inf
	if predefOK {
		if c, ok := normCost(k.predefNorm, k.predefLog, len(k.predefNorm)-1, count[:], maxSym); ok {
			basic = c
		}
	}
	repeat := inf
	if prevValid {
		if c, ok := normCost(prev.norm[:], prev.log, int(prev.maxSym), count[:], maxSym); ok {
			repeat = c
		}
	}
	// A new table: the last code is the state's start and costs no
	// symbol, so libzstd leaves it out of the counts it normalizes.
	log := optimalTableLog(k.maxLog, nbSeq, maxSym, 2)
	total := nbSeq
	last := codes[nbSeq-1]
	if count[last] > 1 {
		count[last]--
		total--
	}
	norm := e.norm[:maxSym+1]
	normalizeCount(norm, log, count[:], total, maxSym, total >= 2048)
	hs := writeNCount(dst, norm, maxSym, log)
	count[last]++
	fresh, _ := normCost(norm, uint8(log), maxSym, count[:], maxSym)
	fresh += uint64(hs) * 8 * 256
	switch {
	case basic <= repeat && basic <= fresh:
		return modePredef, 0, k.predef
	case repeat <= fresh:
		return modeRepeat, 0, prev
	}
	cur.build(norm, uint8(log))
	return modeFSE, hs, cur
}

// encodeSequences writes the sequences bit stream into dst (room for 12
// bytes a sequence and 16 more) and returns its size. The bit writer and
// the three states live in locals: this loop is most of the entropy
// stage's time.
func (e *Encoder) encodeSequences(dst []byte, ll, of, ml *fseCTable) int {
	n := len(e.seqs)
	sq := e.seqs[:n]
	lc, oc, mc := e.llCodes[:n], e.ofCodes[:n], e.mlCodes[:n]
	llS, ofS, mlS := &ll.states, &of.states, &ml.states
	llT, ofT, mlT := &ll.tt, &of.tt, &ml.tt
	start := func(t *fseCTable, sym uint8) uint32 {
		tt := t.tt[sym&63]
		nb := (tt.deltaNbBits + 1<<15) >> 16
		v := nb<<16 - tt.deltaNbBits
		return uint32(t.states[(int32(v>>nb)+tt.deltaFind)&511])
	}
	vml := start(ml, mc[n-1])
	vof := start(of, oc[n-1])
	vll := start(ll, lc[n-1])
	var acc uint64
	var nb uint
	pos := 0
	put := func(v uint64, k uint) {
		acc |= (v & (1<<(k&63) - 1)) << (nb & 63)
		nb += k
	}
	// putx appends v, which has no bits above its k.
	putx := func(v uint64, k uint) {
		acc |= v << (nb & 63)
		nb += k
	}
	flush := func() {
		le.Store64(dst, pos, acc)
		k := nb >> 3
		pos += int(k)
		acc >>= (k << 3) & 63
		nb &= 7
	}
	// The lengths' extra bits are their low bits (a code's base is a
	// multiple of the power of two its extra bits span): put masks them.
	s := &sq[n-1]
	put(uint64(s.ll), uint(llBits64[lc[n-1]&63]))
	put(uint64(s.ml-3), uint(mlBits64[mc[n-1]&63]))
	flush()
	putx(uint64(s.ofx), uint(oc[n-1]))
	flush()
	i := n - 2
	if i >= 0 && haveSeqBitsAsm && len(dst) >= pos+12*(i+1)+8 {
		// The same loop in assembly (seqasm_amd64.s), its state passed
		// through b.
		b := seqBits{acc: acc, nb: uint64(nb), pos: pos, vll: uint64(vll), vof: uint64(vof), vml: uint64(vml)}
		encodeSeqsAsm(&dst[0], &sq[0], &lc[0], &oc[0], &mc[0], ll, of, ml, &b, i, &llBits64, &mlBits64)
		acc, nb, pos = b.acc, uint(b.nb), b.pos
		vll, vof, vml = uint32(b.vll), uint32(b.vof), uint32(b.vml)
		i = -1
	}
	for ; i >= 0; i-- {
		l, o, m := lc[i]&63, oc[i]&63, mc[i]&63
		s := &sq[i]
		t := ofT[o]
		k := (vof + t.deltaNbBits) >> 16
		put(uint64(vof), uint(k))
		vof = uint32(ofS[(int32(vof>>(k&31))+t.deltaFind)&511])
		t = mlT[m]
		k = (vml + t.deltaNbBits) >> 16
		put(uint64(vml), uint(k))
		vml = uint32(mlS[(int32(vml>>(k&31))+t.deltaFind)&511])
		t = llT[l]
		k = (vll + t.deltaNbBits) >> 16
		put(uint64(vll), uint(k))
		vll = uint32(llS[(int32(vll>>(k&31))+t.deltaFind)&511])
		put(uint64(s.ll), uint(llBits64[l]))
		flush()
		put(uint64(s.ml-3), uint(mlBits64[m]))
		putx(uint64(s.ofx), uint(o))
		flush()
	}
	put(uint64(vml), uint(ml.log))
	put(uint64(vof), uint(of.log))
	flush()
	put(uint64(vll), uint(ll.log))
	put(1, 1)
	flush()
	if nb > 0 {
		pos++
	}
	return pos
}

// seqBits is encodeSequences' bit writer and FSE states, handed to the
// assembly loop and back.
type seqBits struct {
	acc           uint64
	nb            uint64
	pos           int
	vll, vof, vml uint64
}
