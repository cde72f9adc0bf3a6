// Command shuffle generates shuffle_amd64.s and its Go stubs: the byte
// shuffle and unshuffle kernels of package blosc for SSE2, AVX2 and
// AVX-512 (BW+VBMI). Run it through `go generate` in the module root.
//
// Every kernel has the signature func(dst, src *byte, n, blocks int): n is
// the element count of the whole buffer (so stream j starts j*n bytes into
// the shuffled side) and blocks the number of whole vector blocks to process
// from the start. Leftover elements and bytes are the Go caller's job.
//
// Two designs, both derived from viewing a block as a bit permutation of
// byte addresses (element bits above byte-in-element bits on the element
// side, the reverse on the stream side):
//
//   - SSE2/AVX2: P = 2, 4 or 8 byte elements. One byte unpack pass
//     (PUNPCKL/HBW of vector k with vector k+P/2) rotates the in-lane address
//     left by one bit, so shuffling is four passes and unshuffling log2(P)
//     passes; lanes stay put, which the lane-strided loads and stores absorb.
//     16-byte elements are split into two 8-byte halves (see halvesShuffle).
//     AVX2 also takes typesizes that are not powers of two by padding every
//     element to P bytes with VPSHUFB on the way in (and packing on the way
//     out), at the cost of a few bytes read or written past the block that
//     the Go caller accounts for (its slack function).
//   - AVX-512 VBMI: VPERMT2B gathers from a 128-byte window of elements
//     (masked loads keep odd typesizes inside the buffer), producing half of
//     the streams per output; a log2 transpose of the remaining cells
//     (VPUNPCKxQDQ, VPERMT2Q, VSHUFI64X2) finishes the job. Unshuffling
//     stores whole vectors, overrunning the block for odd typesizes.
package main

import (
	"flag"
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

const signature = "func(dst *byte, src *byte, n int, blocks int)"

// rowsSubset selects the kernels package bitshuffle builds its bit
// shuffle of typesizes without a kernel of their own on: a byte transpose
// into rows, then the typesize-1 bit shuffle of each row. It runs the
// plain AVX-512 kernels on cache-resident tiles, so it needs neither the
// non-temporal nor the skewed forms, nor the typesizes that are powers of
// two (those have whole bit-shuffle kernels).
var rowsSubset = flag.Bool("rows", false, "emit only the kernels package bitshuffle uses, exported, for internal/byteshuffle")

func main() {
	ConstraintExpr("!purego,!noasm,gc")
	flag.Parse()
	if *rowsSubset {
		exported = true
		for ts := 3; ts <= 16; ts++ {
			if isRowsTypesize(ts) {
				vbmiShuffle(ts, false)
				vbmiUnshuffle(ts, false)
			}
		}
		Generate()
		return
	}
	for _, p := range []int{2, 4, 8, 16} {
		unpackShuffle(sse2, p, p)
		unpackUnshuffle(sse2, p, p)
	}
	for ts := 2; ts <= 16; ts++ {
		unpackShuffle(avx2, ts, pow2(ts))
		unpackUnshuffle(avx2, ts, pow2(ts))
	}
	for ts := 2; ts <= 16; ts++ {
		// The plain kernels of the other typesizes are the -rows subset,
		// generated once into internal/byteshuffle, which package
		// bitshuffle uses too.
		if !isRowsTypesize(ts) {
			vbmiShuffle(ts, false)
			vbmiUnshuffle(ts, false)
		}
		vbmiShuffleShifted(ts)
		if ts > 8 {
			vbmiShuffleSkewed(ts)
		}
		if ts == 8 {
			vbmiShuffleSplit(ts)
		}
		if ts&(ts-1) == 0 {
			vbmiShuffle(ts, true)
			vbmiUnshuffle(ts, true)
			vbmiUnshuffleStreams(ts)
			if ts == 8 {
				vbmiUnshuffleRows8()
				vbmiShuffleRows8()
			}
		} else {
			vbmiUnshuffleLines(ts)
		}
	}
	vbmiRowsSmall(2)
	vbmiRowsSmall(4)
	avx2Rows(2)
	avx2Rows(4)
	avx2Rows(8)
	Generate()
}

// pow2 is the smallest power of two at least ts (and at least 2).
func pow2(ts int) int {
	p := 2
	for p < ts {
		p *= 2
	}
	return p
}

func log2(p int) int {
	n := 0
	for ; p > 1; p >>= 1 {
		n++
	}
	return n
}

// streamAddr returns a register holding base + stream*n.
func streamAddr(base, n Register, stream int) Register {
	t := GP64()
	if stream == 0 {
		MOVQ(base, t)
		return t
	}
	IMUL3Q(Imm(uint64(stream)), n, t)
	ADDQ(base, t)
	return t
}

// ---------------------------------------------------------------------------
// SSE2 / AVX2: byte-unpack networks.

type isa struct {
	name  string
	lanes int // 16-byte lanes per vector
}

var (
	sse2 = isa{"SSE2", 1}
	avx2 = isa{"AVX2", 2}
)

// Without AVX-512 only 16 vector registers encode, but avo's allocator
// would hand out all 32, so these kernels draw physical registers from a
// pool and give them back explicitly.
var pool []VecPhysical

func (s isa) resetPool() {
	pool = pool[:0]
	for i := 15; i >= 0; i-- {
		if s.lanes == 1 {
			pool = append(pool, X(i))
		} else {
			pool = append(pool, Y(i))
		}
	}
}

func (s isa) vec() VecPhysical {
	if len(pool) == 0 {
		panic("out of vector registers")
	}
	r := pool[len(pool)-1]
	pool = pool[:len(pool)-1]
	return r
}

func free(r VecPhysical) { pool = append(pool, r) }

func X(i int) VecPhysical {
	return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
}

func Y(i int) VecPhysical {
	return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}[i]
}

func (s isa) bytes() int { return 16 * s.lanes }

// slot is a network input: a vector in a register, or one loaded on
// demand so that registers are taken only when the network needs them.
type slot struct {
	r    VecPhysical
	load func() VecPhysical
}

func (s isa) toReg(v slot) VecPhysical {
	if v.load != nil {
		return v.load()
	}
	return v.r
}

func (s isa) loadu(m Mem, r VecPhysical) {
	if s.lanes == 1 {
		MOVOU(m, r)
	} else {
		VMOVDQU(m, r)
	}
}

func (s isa) storeu(r VecPhysical, m Mem) {
	if s.lanes == 1 {
		MOVOU(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

// unpack returns the byte interleave of the low and of the high halves of
// each lane of a and b, a's bytes at even positions.
func (s isa) unpack(a VecPhysical, b slot) (lo, hi VecPhysical) {
	lo = s.vec()
	br := s.toReg(b)
	if s.lanes == 1 {
		MOVO(a, lo)
		PUNPCKLBW(br, lo)
		PUNPCKHBW(br, a)
		free(br)
		return lo, a
	}
	VPUNPCKLBW(br, a, lo)
	VPUNPCKHBW(br, a, a)
	free(br)
	return lo, a
}

// passes runs count unpack passes over in; the last pass hands each output
// vector to emit as soon as it exists.
func (s isa) passes(in []slot, count int, emit func(i int, r VecPhysical)) {
	p := len(in)
	for pass := 0; pass < count; pass++ {
		last := pass == count-1
		out := make([]slot, p)
		for k := 0; k < p/2; k++ {
			a := s.toReg(in[k])
			lo, hi := s.unpack(a, in[k+p/2])
			for j, r := range []VecPhysical{lo, hi} {
				i := 2*k + j
				if last {
					emit(i, r)
				} else {
					out[i] = slot{r: r}
				}
			}
		}
		in = out
	}
}

// frame is the stack a padded unshuffle kernel holds its lane-1 halves in.
func (s isa) frame(ts, p int) int {
	if ts != p {
		return 16 * p
	}
	return 0
}

// padTable is the in-lane VPSHUFB table that spreads 16/p elements of ts
// bytes into p-byte slots (zero padded); packTable is its inverse.
func padTable(name string, ts, p, lanes int) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for l := 0; l < lanes; l++ {
		for i := 0; i < 16; i++ {
			e, j := i/p, i%p
			v := 0x80
			if j < ts {
				v = e*ts + j
			}
			DATA(16*l+i, U8(v))
		}
	}
	return m
}

func packTable(name string, ts, p, lanes int) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for l := 0; l < lanes; l++ {
		for i := 0; i < 16; i++ {
			v := 0x80
			if i < 16/p*ts {
				v = i/ts*p + i%ts
			}
			DATA(16*l+i, U8(v))
		}
	}
	return m
}

// exported makes the kernel names exported (the -rows subset, called from
// the packages that import internal/byteshuffle).
var exported bool

// isRowsTypesize reports whether the plain AVX-512 kernels of ts belong to
// the -rows subset: typesizes 3 to 15 that are not powers of two.
func isRowsTypesize(ts int) bool { return ts >= 3 && ts <= 16 && ts&(ts-1) != 0 }

func kernelName(dir string, ts int, s string) string {
	if exported {
		dir = strings.ToUpper(dir[:1]) + dir[1:]
	}
	return fmt.Sprintf("%s%d%s", dir, ts, s)
}

// prologue starts a kernel; frame is the size of its stack buffers, above
// which the function may not be NOSPLIT.
func prologue(name, doc string, frame int) (dst, src, n, blocks Register) {
	attr := NOSPLIT
	if frame > 512 {
		attr = 0
	}
	TEXT(name, attr, signature)
	Pragma("noescape")
	Doc(doc)
	dst = Load(Param("dst"), GP64())
	src = Load(Param("src"), GP64())
	n = Load(Param("n"), GP64())
	blocks = Load(Param("blocks"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef("done"))
	return
}

func epilogue(s isa, dst, src, blocks Register, dstStep, srcStep int) {
	ADDQ(U32(dstStep), dst)
	ADDQ(U32(srcStep), src)
	DECQ(blocks)
	JNZ(LabelRef("loop"))
	Label("done")
	if s.name == "AVX512NT" {
		SFENCE()
	}
	if s.lanes > 1 {
		VZEROUPPER()
	}
	RET()
}

// unpackShuffle: a block is 16*lanes elements; vector v's lane l holds the
// 16/p elements starting at element 16*l + v*16/p.
func unpackShuffle(s isa, ts, p int) {
	if p == 16 {
		halvesShuffle(s, ts)
		return
	}
	name := kernelName("shuffle", ts, s.name)
	w := 16 * s.lanes
	dst, src, n, blocks := prologue(name, fmt.Sprintf("%s shuffles blocks of %d elements of %d bytes.", name, w, ts), s.frame(ts, p))
	s.resetPool()
	var pad Op
	if ts != p {
		pad = padTable("padTable"+s.name+fmt.Sprint(ts), ts, p, s.lanes)
	}
	var padReg VecPhysical
	if pad != nil {
		padReg = s.vec()
		VMOVDQU(pad, padReg)
	}
	Label("loop")
	in := make([]slot, p)
	for v := 0; v < p; v++ {
		in[v] = slot{load: func() VecPhysical {
			r := s.vec()
			lane := func(l int) Mem {
				return Mem{Base: src, Disp: (16*l + v*16/p) * ts}
			}
			if s.lanes == 1 {
				MOVOU(lane(0), r)
			} else {
				VMOVDQU(lane(0), r.AsX())
				VINSERTI128(Imm(1), lane(1), r, r)
			}
			if padReg != nil {
				VPSHUFB(padReg, r, r)
			}
			return r
		}}
	}
	s.passes(in, 4, func(i int, r VecPhysical) {
		if i < ts {
			s.storeu(r, Mem{Base: streamAddr(dst, n, i)})
		}
		free(r)
	})
	epilogue(s, dst, src, blocks, w, w*ts)
}

func unpackUnshuffle(s isa, ts, p int) {
	if p == 16 {
		halvesUnshuffle(s, ts)
		return
	}
	name := kernelName("unshuffle", ts, s.name)
	w := 16 * s.lanes
	dst, src, n, blocks := prologue(name, fmt.Sprintf("%s unshuffles blocks of %d elements of %d bytes.", name, w, ts), s.frame(ts, p))
	s.resetPool()
	var packReg VecPhysical
	var held Mem
	if ts != p {
		packReg = s.vec()
		VMOVDQU(packTable("packTable"+s.name+fmt.Sprint(ts), ts, p, s.lanes), packReg)
		held = AllocLocal(p * 16)
	}
	Label("loop")
	in := make([]slot, p)
	for b := 0; b < p; b++ {
		in[b] = slot{load: func() VecPhysical {
			r := s.vec()
			if b >= ts {
				if s.lanes == 1 {
					PXOR(r, r)
				} else {
					VPXOR(r, r, r)
				}
				return r
			}
			s.loadu(Mem{Base: streamAddr(src, n, b)}, r)
			return r
		}}
	}
	s.passes(in, log2(p), func(v int, r VecPhysical) {
		lane := func(l int) Mem { return Mem{Base: dst, Disp: (16*l + v*16/p) * ts} }
		switch {
		case s.lanes == 1:
			MOVOU(r, lane(0))
		case packReg != nil:
			// Each 16-byte store runs past its elements into the next
			// lane's; storing in address order lets the next store repair
			// it, so lane 1 waits until every lane 0 is written.
			VPSHUFB(packReg, r, r)
			VMOVDQU(r.AsX(), lane(0))
			VEXTRACTI128(Imm(1), r, held.Offset(16*v))
		default:
			VMOVDQU(r.AsX(), lane(0))
			VEXTRACTI128(Imm(1), r, lane(1))
		}
		free(r)
	})
	if packReg != nil {
		for v := 0; v < p; v++ {
			t := s.vec()
			VMOVDQU(held.Offset(16*v), t.AsX())
			VMOVDQU(t.AsX(), Mem{Base: dst, Disp: (16 + v*16/p) * ts})
			free(t)
		}
	}
	epilogue(s, dst, src, blocks, w*ts, w)
}

// ---------------------------------------------------------------------------
// AVX-512 VBMI.
//
// A block is 64 elements. With p = pow2(ts), r = p/2 pairs of windows of
// e = 128/p elements each (b = e*ts <= 128 bytes) are gathered by VPERMT2B
// into two outputs: output h of window k holds streams h*r .. h*r+r-1 as r
// cells of e bytes. Transposing the r x r cell matrix of each h leaves
// stream h*r+s in row s, all 64 elements in order.

var avx512 = isa{"AVX512", 4}

// avx512nt is the AVX-512 epilogue flavour: the non-temporal kernels fence
// their stores before returning so later ordinary accesses see them.
func avx512nt(nt bool) isa {
	if nt {
		return isa{"AVX512NT", 4}
	}
	return avx512
}

func vbmiShape(ts int) (p, r, e, b int) {
	p = pow2(ts)
	r = p / 2
	e = 128 / p
	b = e * ts
	return
}

var tables = map[string]Mem{}

// table64 defines (once) the 64-byte table name with byte i = f(i).
func table64(name string, f func(i int) int) Mem {
	if m, ok := tables[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	tables[name] = m
	for i := 0; i < 64; i++ {
		DATA(i, U8(f(i)))
	}
	return m
}

func qwordTables() (lo, hi Mem) {
	// Interleave 16-byte cells of two rows: lo takes cells 0 and 2 of each
	// 32-byte half, hi cells 1 and 3 (qword indices >= 8 name the second row).
	lo = GLOBL("permQLo", RODATA|NOPTR)
	for i, v := range []int{0, 1, 8, 9, 4, 5, 12, 13} {
		DATA(8*i, U64(uint64(v)))
	}
	hi = GLOBL("permQHi", RODATA|NOPTR)
	for i, v := range []int{2, 3, 10, 11, 6, 7, 14, 15} {
		DATA(8*i, U64(uint64(v)))
	}
	return
}

var qLo, qHi Mem
var qDone bool

func loadZ(m Mem) VecVirtual {
	z := ZMM()
	VMOVDQU64(m, z)
	return z
}

// transpose swaps row and cell indices of the square matrix in rows, whose
// cells are cell bytes wide, one index bit per stage.
func transpose(rows []VecVirtual, cell int, ql, qh VecVirtual) {
	for d := 1; d < len(rows); d *= 2 {
		g := cell * d
		for i := range rows {
			if i&d != 0 {
				continue
			}
			a, b := rows[i], rows[i+d]
			lo := ZMM()
			switch g {
			case 8:
				VPUNPCKLQDQ(b, a, lo)
				VPUNPCKHQDQ(b, a, a)
			case 16:
				VMOVDQA64(a, lo)
				VPERMT2Q(b, ql, lo)
				VPERMT2Q(b, qh, a)
			case 32:
				VSHUFI64X2(U8(0x44), b, a, lo)
				VSHUFI64X2(U8(0xEE), b, a, a)
			default:
				panic("cell size")
			}
			rows[i], rows[i+d] = lo, a
		}
	}
}

func vbmiCommon(ts int, needMask bool) (ql, qh VecVirtual, mask Op) {
	p, _, _, b := vbmiShape(ts)
	if p >= 8 {
		if !qDone {
			qLo, qHi = qwordTables()
			qDone = true
		}
		ql, qh = loadZ(qLo), loadZ(qHi)
	}
	if b < 128 && needMask {
		k := K()
		t := GP64()
		MOVQ(U64(uint64(1)<<(b-64)-1), t)
		KMOVQ(t, k)
		mask = k
	}
	return
}

// ntName marks the variants whose stores bypass the caches (VMOVNTDQ):
// for buffers far larger than the caches they avoid reading every output
// line before writing it, as the runtime's memmove does for big copies.
// Their stores must be 64-byte aligned.
func ntName(name string, nt bool) string {
	if nt {
		return name + "NT"
	}
	return name
}

func store64(z VecVirtual, m Mem, nt bool) {
	if nt {
		VMOVNTDQ(z, m)
	} else {
		VMOVDQU64(z, m)
	}
}

// gatherTables loads the two VPERMT2B indexes of the shuffle kernels:
// table h gathers streams h*r .. h*r+r-1 of a 128-byte window as r cells
// of e bytes.
func gatherTables(ts int) [2]VecVirtual {
	_, r, e, _ := vbmiShape(ts)
	var t [2]VecVirtual
	for h := range t {
		t[h] = loadZ(table64(fmt.Sprintf("gather%dH%d", ts, h), func(q int) int {
			s, el := q/e, q%e
			if st := h*r + s; st < ts {
				return el*ts + st
			}
			return 0
		}))
	}
	return t
}

func vbmiShuffle(ts int, nt bool) {
	_, r, e, b := vbmiShape(ts)
	name := ntName(kernelName("shuffle", ts, "AVX512"), nt)
	doc := fmt.Sprintf("%s shuffles blocks of 64 elements of %d bytes.", name, ts)
	if nt {
		doc = fmt.Sprintf("%s shuffles blocks of 64 elements of %d bytes with non-temporal stores; dst and n must be multiples of 64.", name, ts)
	}
	dst, src, n, blocks := prologue(name, doc, 0)
	t := gatherTables(ts)
	ql, qh, mask := vbmiCommon(ts, true)
	Label("loop")
	rows := [2][]VecVirtual{make([]VecVirtual, r), make([]VecVirtual, r)}
	for k := 0; k < r; k++ {
		a, c := ZMM(), ZMM()
		VMOVDQU64(Mem{Base: src, Disp: k * b}, a)
		if mask == nil {
			VMOVDQU64(Mem{Base: src, Disp: k*b + 64}, c)
		} else {
			VMOVDQU8_Z(Mem{Base: src, Disp: k*b + 64}, mask, c)
		}
		o := ZMM()
		VMOVDQA64(a, o)
		VPERMT2B(c, t[0], o)
		VPERMT2B(c, t[1], a)
		rows[0][k], rows[1][k] = o, a
	}
	for h := range rows {
		transpose(rows[h], e, ql, qh)
		for s, z := range rows[h] {
			if st := h*r + s; st < ts {
				store64(z, Mem{Base: streamAddr(dst, n, st)}, nt)
			}
		}
	}
	epilogue(avx512nt(nt), dst, src, blocks, 64, 64*ts)
}

// vbmiShuffleShifted is the non-temporal shuffle for streams that do not
// start on a 64-byte boundary (odd typesizes, n%64 != 0): each stream's
// output is shifted into the aligned lines it straddles. Stream s keeps its
// previous block's 64 bytes in a register (typesize 11's last stream in
// prev[s]) and a VPERMI2B index in idx[s] (byte q: (q - a) mod 128, a the
// stream's misalignment), so block i writes the aligned line at (stream
// start &^ 63) + 64i: the last a bytes of block i-1, then the first 64-a
// of block i. The first line of a misaligned stream therefore also writes
// a bytes before the stream, the end of the previous one, and the last a
// bytes of the blocks stay unwritten: the caller rewrites the end of every
// stream with an ordinary kernel after.
func vbmiShuffleShifted(ts int) {
	_, r, e, b := vbmiShape(ts)
	name := fmt.Sprintf("shuffle%dAVX512NTShifted", ts)
	TEXT(name, NOSPLIT, "func(dst *byte, src *byte, n int, blocks int, idx *byte, prev *byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s shuffles blocks of 64 elements of %d bytes with non-temporal stores to the aligned lines of each stream (see vbmiShuffleShifted in asmgen/shuffle).", name, ts))
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	blocks := Load(Param("blocks"), GP64())
	idx := Load(Param("idx"), GP64())
	prev := Load(Param("prev"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef("done"))
	t := gatherTables(ts)
	ql, qh, mask := vbmiCommon(ts, true)
	// Each stream's previous vector stays in a register where one is left:
	// storing it to memory every block, among the non-temporal stores,
	// cost 10-20% of the speed at 64 MiB when every stream did so. Beside
	// 16 rows and the tables only shiftedInRegs fit, so typesize 11 keeps
	// its last stream's in prev. From 12 on the kernels gather and
	// transpose one half of the streams at a time (loading every window
	// twice) with all of them in registers: against whole blocks with the
	// rest in prev, that was 5-10% slower at typesizes 9-11, even at 12
	// and 13, and faster at 14 (the two in one process, alternating, 15
	// times each at 64 MiB).
	halves := [][]int{{0, 1}}
	inRegs := min(ts, shiftedInRegs)
	if ts > shiftedInRegs+1 {
		halves = [][]int{{0}, {1}}
		inRegs = ts
	}
	last := make([]VecVirtual, inRegs)
	for st := range last {
		last[st] = ZMM()
		VPXORQ(last[st], last[st], last[st])
	}
	idxRegs := make([]VecVirtual, shiftedIdxInRegs(ts))
	for st := range idxRegs {
		idxRegs[st] = loadZ(Mem{Base: idx, Disp: 64 * st})
	}
	Label("loop")
	for _, hs := range halves {
		var rows [2][]VecVirtual
		for k := 0; k < r; k++ {
			a, c := ZMM(), ZMM()
			VMOVDQU64(Mem{Base: src, Disp: k * b}, a)
			if mask == nil {
				VMOVDQU64(Mem{Base: src, Disp: k*b + 64}, c)
			} else {
				VMOVDQU8_Z(Mem{Base: src, Disp: k*b + 64}, mask, c)
			}
			if len(hs) == 2 {
				o := ZMM()
				VMOVDQA64(a, o)
				VPERMT2B(c, t[0], o)
				VPERMT2B(c, t[1], a)
				rows[0] = append(rows[0], o)
				rows[1] = append(rows[1], a)
			} else {
				VPERMT2B(c, t[hs[0]], a)
				rows[hs[0]] = append(rows[hs[0]], a)
			}
		}
		for _, h := range hs {
			transpose(rows[h], e, ql, qh)
			for s, z := range rows[h] {
				st := h*r + s
				if st >= ts {
					continue
				}
				line := ZMM()
				if st < len(idxRegs) {
					VMOVDQA64(idxRegs[st], line)
				} else {
					VMOVDQU64(Mem{Base: idx, Disp: 64 * st}, line)
				}
				if st < inRegs {
					VPERMI2B(last[st], z, line)
					VMOVDQA64(z, last[st])
				} else {
					VPERMI2B(Mem{Base: prev, Disp: 64 * st}, z, line)
					VMOVDQU64(z, Mem{Base: prev, Disp: 64 * st})
				}
				a := streamAddr(dst, n, st)
				ANDQ(I32(-64), a)
				VMOVNTDQ(line, Mem{Base: a})
			}
		}
	}
	epilogue(avx512nt(true), dst, src, blocks, 64, 64*ts)
}

// Tried on the shifted kernel at 64 MiB and dropped (each against the
// kept kernel, alternating single calls in one process, both orders):
//   - staging 2, 4 or 8 blocks' lines in an aligned stack ring and then
//     writing each stream's lines back to back, so that each stream gets
//     128-512 contiguous bytes at a time: 1-9% slower at every typesize
//     (one order only), 33% at 16 with 8 blocks;
//   - prefetching the source 512 bytes (PREFETCHT0) or 1 KiB (PREFETCHNTA)
//     ahead: slower in 13 of 14 cases, by up to 14%;
//   - skipping the transpose steps whose rows only feed streams past the
//     typesize: 2% faster on a 256 KiB buffer, nothing measurable at
//     64 MiB. Dropping every transpose (wrong output, timing only) gained
//     only 1.5% at typesizes 3 and 7 and 5% at 12, so below 12 these
//     kernels wait on memory, not on their shuffles.
//
// shiftedIdxInRegs is how many streams' VPERMI2B indexes the shifted
// kernel of ts keeps in registers rather than loading each block: all of
// them up to typesize 8, none where whole blocks leave no register (9 to
// 11), and what the halves leave from 12 on (rows, two gather and two
// transpose tables, every stream's previous vector and four temporaries).
// Against the kernels that loaded every index, alternating in one process
// at 64 MiB (61-101 pairs in each order, three runs): typesize 12, which
// keeps 4 of its 12, 1-5% faster in every run; 3 and 7 within 2% either
// way. With all indexes in registers (giving wrong output, for timing
// only) typesize 12 gained 4% and 16 8%: the loads cost more than their
// count suggests.
func shiftedIdxInRegs(ts int) int {
	_, r, _, _ := vbmiShape(ts)
	switch {
	case ts <= 8:
		return ts
	case ts <= shiftedInRegs+1:
		return 0
	}
	return max(0, 32-(r+4+ts+4))
}

// shiftedInRegs is how many streams' previous vectors fit in registers
// beside the 16 rows, gather tables and transpose indexes of a whole block
// (avo's allocator uses all 32 at typesize 10).
const shiftedInRegs = 10

// skewDepth is how many distinct block lags the skewed kernels give their
// streams; 16 (a 16 KiB ring) measured slower.
const skewDepth = 8

// vbmiShuffleSkewed is vbmiShuffle for n a multiple of 1 KiB or so, where
// the streams' lines of a block share few offsets modulo 4 KiB: on AMD
// Zen 4, 8 or 16 stores at one 4 KiB offset run at half the speed, 2 at
// most nearly full speed (BenchmarkShuffleKernels in shuffle_bench_test.go
// at sizes that are and are not multiples of 4 KiB). Stream s is written s%D blocks late (D =
// skewDepth), its newest rows kept in ring[s][block%D], so the lines in
// flight spread over D offsets. Typesize 8 (with D = 4) gained too
// unsteadily to keep: its median over runs fell while some runs rose. The first D-1 iterations write stale ring
// bytes to the D-1 blocks before dst, and the last D-1 blocks of the
// lagging streams stay unwritten: the caller starts the kernel D-1 blocks
// in and rewrites both ends with an ordinary kernel.
func vbmiShuffleSkewed(ts int) {
	_, r, e, b := vbmiShape(ts)
	depth := skewDepth
	name := fmt.Sprintf("shuffle%dAVX512Skewed", ts)
	TEXT(name, NOSPLIT, "func(dst *byte, src *byte, n int, blocks int, ring *byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s shuffles blocks of 64 elements of %d bytes, stream s written s%%%d blocks late (see vbmiShuffleSkewed in asmgen/shuffle).", name, ts, depth))
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	blocks := Load(Param("blocks"), GP64())
	ring := Load(Param("ring"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef("done"))
	slot := GP64() // 64 * (iteration % depth)
	XORQ(slot, slot)
	t := gatherTables(ts)
	ql, qh, mask := vbmiCommon(ts, true)
	Label("loop")
	rows := [2][]VecVirtual{make([]VecVirtual, r), make([]VecVirtual, r)}
	for k := 0; k < r; k++ {
		a, c := ZMM(), ZMM()
		VMOVDQU64(Mem{Base: src, Disp: k * b}, a)
		if mask == nil {
			VMOVDQU64(Mem{Base: src, Disp: k*b + 64}, c)
		} else {
			VMOVDQU8_Z(Mem{Base: src, Disp: k*b + 64}, mask, c)
		}
		o := ZMM()
		VMOVDQA64(a, o)
		VPERMT2B(c, t[0], o)
		VPERMT2B(c, t[1], a)
		rows[0][k], rows[1][k] = o, a
	}
	for h := range rows {
		transpose(rows[h], e, ql, qh)
		for s, z := range rows[h] {
			st := h*r + s
			if st >= ts {
				continue
			}
			lag := st % depth
			a := streamAddr(dst, n, st)
			if lag == 0 {
				VMOVDQU64(z, Mem{Base: a})
				continue
			}
			// The ring slot of block i-lag is the one block i+depth-lag
			// will take: (slot + 64*(depth-lag)) mod 64*depth.
			old := GP64()
			LEAQ(Mem{Base: slot, Disp: 64 * (depth - lag)}, old)
			ANDQ(U32(64*depth-1), old)
			ADDQ(ring, old)
			y := ZMM()
			VMOVDQU64(Mem{Base: old, Disp: 64 * depth * st}, y)
			VMOVDQU64(y, Mem{Base: a, Disp: -64 * lag})
			VMOVDQU64(z, Mem{Base: ring, Index: slot, Scale: 1, Disp: 64 * depth * st})
		}
	}
	ADDQ(U32(64), slot)
	ANDQ(U32(64*depth-1), slot)
	epilogue(avx512, dst, src, blocks, 64, 64*ts)
}

// vbmiUnshuffle stores every window as two full vectors in address order,
// so for typesizes that are not powers of two each store's overflow is
// rewritten by the next and the last one runs 128-b bytes past the blocks:
// the caller must have room there (it runs the final blocks into scratch).
// Masked stores would avoid that but are several times slower on AMD Zen 4,
// even when only a few run per call.
func vbmiUnshuffle(ts int, nt bool) {
	_, _, _, b := vbmiShape(ts)
	name := ntName(kernelName("unshuffle", ts, "AVX512"), nt)
	doc := fmt.Sprintf("%s unshuffles blocks of 64 elements of %d bytes.", name, ts)
	if nt {
		doc = fmt.Sprintf("%s unshuffles blocks of 64 elements of %d bytes with non-temporal stores; dst must be 64-byte aligned.", name, ts)
	}
	if b < 128 {
		doc = fmt.Sprintf("%s unshuffles blocks of 64 elements of %d bytes, writing up to %d bytes of scratch past them.", name, ts, 128-b)
	}
	dst, src, n, blocks := prologue(name, doc, 0)
	vbmiUnshuffleLoop(ts, nt, dst, src, blocks, func(st int) Register { return streamAddr(src, n, st) })
}

// streamsSignature is the signature of the kernels that read each stream
// through its own pointer: streams[j] is stream j's start and off the
// offset into every stream of the first element.
const streamsSignature = "func(dst *byte, streams *[16]*byte, off int, blocks int)"

// vbmiUnshuffleStreams is vbmiUnshuffle reading stream j at
// streams[j]+off instead of src+j*n, for a typesize that is a power of two
// (whose blocks end where their stores do). Package blosc unshuffles a
// Blosc2 block whose streams are partly stored raw with it, reading those
// streams where the chunk holds them instead of copying them next to the
// decoded ones.
func vbmiUnshuffleStreams(ts int) {
	name := kernelName("unshuffle", ts, "AVX512Streams")
	TEXT(name, NOSPLIT, streamsSignature)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s unshuffles blocks of 64 elements of %d bytes from ts streams anywhere in memory.", name, ts))
	dst := Load(Param("dst"), GP64())
	tbl := Load(Param("streams"), GP64())
	off := Load(Param("off"), GP64())
	blocks := Load(Param("blocks"), GP64())
	TESTQ(blocks, blocks)
	JZ(LabelRef("done"))
	vbmiUnshuffleLoop(ts, false, dst, off, blocks, func(st int) Register {
		t := GP64()
		MOVQ(Mem{Base: tbl, Disp: 8 * st}, t)
		ADDQ(off, t)
		return t
	})
}

// vbmiUnshuffleRows8 unshuffles rows of 8-byte elements from the eight
// streams of a shuffled block straight into their places in dst, row k
// being row elements at streams[j]+sp+k*ss and at dst+k*ds. Package b2nd
// reads a box of a block this way (rows of 16 elements or fewer of a 3-D
// block, of 64 or fewer of a 2-D one), where unshuffling the block's part
// into scratch and copying its rows out moved every byte twice. Each 16
// elements of a row are sixteen bytes of each stream: four streams per
// vector (VINSERTI32X4), then two VPERMT2B give the 128 bytes of output.
// A row's last elements, fewer than 16, are read and written through
// masks, so nothing outside the rows is touched.
func vbmiUnshuffleRows8() {
	name := "unshuffle8AVX512Rows"
	TEXT(name, NOSPLIT, "func(dst *byte, streams *[16]*byte, sp int, row int, n1 int, ds int, ss int, m0 uint64, m1 uint64, m2 uint64)")
	Pragma("noescape")
	Doc(name + " unshuffles n1 rows of row elements of 8 bytes from 8 streams anywhere in memory, row k from streams[j]+sp+k*ss into dst+k*ds; m0, m1 and m2 mask the last row%16 elements' bytes of a stream and of the two halves of their output.")
	dst := Load(Param("dst"), GP64())
	tbl := Load(Param("streams"), GP64())
	sp := Load(Param("sp"), GP64())
	row := Load(Param("row"), GP64())
	n1 := Load(Param("n1"), GP64())
	ds := Load(Param("ds"), GP64())
	ss := Load(Param("ss"), GP64())
	TESTQ(n1, n1)
	JZ(LabelRef("done"))
	// Output byte q of elements 8h to 8h+7 is byte 8h+q/8 of stream q%8:
	// streams 0-3 are lanes of the first vector, 4-7 of the second.
	var perm [2]VecVirtual
	for h := range perm {
		perm[h] = loadZ(table64(fmt.Sprintf("rows8H%d", h), func(q int) int {
			el, st := 8*h+q/8, q%8
			return 64*(st/4) + 16*(st%4) + el
		}))
	}
	full, tail := GP64(), GP64()
	MOVQ(row, full)
	SHRQ(U8(4), full)
	MOVQ(row, tail)
	ANDQ(U8(15), tail)
	// The masks of a row's last elements, fewer than 16: K1 their bytes
	// of each stream, K2 and K3 their output bytes in each half.
	for i, k := range []Register{K1, K2, K3} {
		m := Load(Param(fmt.Sprintf("m%d", i)), GP64())
		KMOVQ(m, k)
	}
	e, d, c := GP64(), GP64(), GP64()
	// sixteen gathers elements [e, e+16) of the streams, loaded by load,
	// into two vectors of 128 output bytes.
	sixteen := func(load func(st int, a Mem, x VecVirtual)) (lo, hi VecVirtual) {
		var xs [8]VecVirtual
		for st := range xs {
			p := GP64()
			MOVQ(Mem{Base: tbl, Disp: 8 * st}, p)
			xs[st] = XMM()
			load(st, Mem{Base: p, Index: e, Scale: 1}, xs[st])
		}
		var zs [2]VecVirtual
		for v := range zs {
			// A VEX or zeroing load cleared the vector above its lane 0.
			z := xs[4*v].AsZ().(VecVirtual)
			for l := 1; l < 4; l++ {
				VINSERTI32X4(U8(l), xs[4*v+l], z, z)
			}
			zs[v] = z
		}
		lo, hi = ZMM(), zs[0]
		VMOVDQA64(zs[0], lo)
		VPERMT2B(zs[1], perm[0], lo)
		VPERMT2B(zs[1], perm[1], hi)
		return lo, hi
	}
	Label("row")
	MOVQ(sp, e)
	MOVQ(dst, d)
	MOVQ(full, c)
	TESTQ(c, c)
	JZ(LabelRef("tail"))
	Label("full")
	lo, hi := sixteen(func(_ int, a Mem, x VecVirtual) { VMOVDQU(a, x) })
	VMOVDQU64(lo, Mem{Base: d})
	VMOVDQU64(hi, Mem{Base: d, Disp: 64})
	ADDQ(U8(16), e)
	ADDQ(U32(128), d)
	DECQ(c)
	JNZ(LabelRef("full"))
	Label("tail")
	TESTQ(tail, tail)
	JZ(LabelRef("next"))
	lo, hi = sixteen(func(_ int, a Mem, x VecVirtual) { VMOVDQU8_Z(a, K1, x) })
	VMOVDQU8(lo, K2, Mem{Base: d})
	VMOVDQU8(hi, K3, Mem{Base: d, Disp: 64})
	Label("next")
	ADDQ(ss, sp)
	ADDQ(ds, dst)
	DECQ(n1)
	JNZ(LabelRef("row"))
	Label("done")
	VZEROUPPER()
	RET()
}

// vbmiShuffleRows8 is the inverse of vbmiUnshuffleRows8: it shuffles
// rows of 8-byte elements straight from their places in src into the
// eight streams of a block, row k being row elements at src+k*ss and at
// element k*ds of each stream (stream j at dst+j*n). Package b2nd makes
// a chunk from the caller's rows this way, where copying the rows into
// the chunk first and shuffling each block from there moved every byte
// twice. Each 16 elements of a row are 128 bytes of src: two VPERMT2B
// give sixteen bytes of each stream, four streams per vector, stored a
// lane at a time. A row's last elements, fewer than 16, are read and
// written through masks, so nothing outside the rows is touched. The
// rows of a block lie far apart, each in a page of its own, where the
// hardware prefetchers do not follow: the caller names the place pf
// bytes ahead that the loop prefetches (the same place in a row further
// on; see rowsPrefetchLead).
func vbmiShuffleRows8() {
	name := "shuffle8AVX512Rows"
	TEXT(name, NOSPLIT, "func(dst *byte, src *byte, n int, row int, n1 int, ds int, ss int, pf int, m0 uint64, m1 uint64, m2 uint64)")
	Pragma("noescape")
	Doc(name + " shuffles n1 rows of row elements of 8 bytes into 8 streams n bytes apart, row k from src+k*ss into dst+k*ds of each stream, prefetching pf bytes past each 128 bytes of a row it reads; m0, m1 and m2 mask the last row%16 elements' bytes of a stream and of the two halves of their input.")
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	row := Load(Param("row"), GP64())
	n1 := Load(Param("n1"), GP64())
	ds := Load(Param("ds"), GP64())
	ss := Load(Param("ss"), GP64())
	pf := Load(Param("pf"), GP64())
	TESTQ(n1, n1)
	JZ(LabelRef("done"))
	// Byte q of a vector of streams 4v to 4v+3 is element q%16's byte
	// of stream 4v+q/16: byte 8*(q%16)+4v+q/16 of the 128 input bytes.
	var perm [2]VecVirtual
	for v := range perm {
		perm[v] = loadZ(table64(fmt.Sprintf("srows8V%d", v), func(q int) int {
			el, st := q%16, 4*v+q/16
			return 8*el + st
		}))
	}
	full, tail := GP64(), GP64()
	MOVQ(row, full)
	SHRQ(U8(4), full)
	MOVQ(row, tail)
	ANDQ(U8(15), tail)
	// K1 masks the tail's bytes of each stream, K2 and K3 its input
	// bytes in each half.
	for i, k := range []Register{K1, K2, K3} {
		m := Load(Param(fmt.Sprintf("m%d", i)), GP64())
		KMOVQ(m, k)
	}
	n3 := GP64()
	LEAQ(Mem{Base: n, Index: n, Scale: 2}, n3)
	s, d, d4, c := GP64(), GP64(), GP64(), GP64()
	// stream addresses stream j's bytes at d (streams 0-3) or d4 (4-7).
	stream := func(st int) Mem {
		base := d
		if st >= 4 {
			base = d4
		}
		switch st % 4 {
		case 0:
			return Mem{Base: base}
		case 1:
			return Mem{Base: base, Index: n, Scale: 1}
		case 2:
			return Mem{Base: base, Index: n, Scale: 2}
		}
		return Mem{Base: base, Index: n3, Scale: 1}
	}
	// sixteen turns the 128 input bytes in lo and hi into the two
	// vectors of streams, clobbering lo.
	sixteen := func(lo, hi VecVirtual) [2]VecVirtual {
		z0 := ZMM()
		VMOVDQA64(lo, z0)
		VPERMT2B(hi, perm[0], z0)
		VPERMT2B(hi, perm[1], lo)
		return [2]VecVirtual{z0, lo}
	}
	Label("row")
	MOVQ(src, s)
	MOVQ(dst, d)
	LEAQ(Mem{Base: dst, Index: n, Scale: 4}, d4)
	MOVQ(full, c)
	TESTQ(c, c)
	JZ(LabelRef("tail"))
	Label("full")
	PREFETCHT0(Mem{Base: s, Index: pf, Scale: 1})
	PREFETCHT0(Mem{Base: s, Index: pf, Scale: 1, Disp: 64})
	lo, hi := ZMM(), ZMM()
	VMOVDQU64(Mem{Base: s}, lo)
	VMOVDQU64(Mem{Base: s, Disp: 64}, hi)
	zs := sixteen(lo, hi)
	for st := range 8 {
		z, l := zs[st/4], st%4
		if l == 0 {
			VMOVDQU(z.AsX(), stream(st))
		} else {
			VEXTRACTI32X4(U8(l), z, stream(st))
		}
	}
	ADDQ(U32(128), s)
	ADDQ(U8(16), d)
	ADDQ(U8(16), d4)
	DECQ(c)
	JNZ(LabelRef("full"))
	Label("tail")
	TESTQ(tail, tail)
	JZ(LabelRef("next"))
	lo, hi = ZMM(), ZMM()
	VMOVDQU8_Z(Mem{Base: s}, K2, lo)
	VMOVDQU8_Z(Mem{Base: s, Disp: 64}, K3, hi)
	zs = sixteen(lo, hi)
	for st := range 8 {
		z, l := zs[st/4], st%4
		x := z.AsX()
		if l != 0 {
			x = XMM()
			VEXTRACTI32X4(U8(l), z, x)
		}
		VMOVDQU8(x, K1, stream(st))
	}
	Label("next")
	ADDQ(ss, src)
	ADDQ(ds, dst)
	DECQ(n1)
	JNZ(LabelRef("row"))
	Label("done")
	VZEROUPPER()
	RET()
}

// vbmiUnshuffleLoop emits the loop of vbmiUnshuffle, whose stream st
// starts at addr(st), src being the offset advanced a block at a time.
func vbmiUnshuffleLoop(ts int, nt bool, dst, src, blocks Register, addr func(st int) Register) {
	_, r, e, b := vbmiShape(ts)
	var u [2]VecVirtual
	for h := range u {
		u[h] = loadZ(table64(fmt.Sprintf("scatter%dH%d", ts, h), func(q int) int {
			o := 64*h + q
			if o >= b {
				return 0
			}
			el, st := o/ts, o%ts
			return 64*(st/r) + (st%r)*e + el
		}))
	}
	ql, qh, _ := vbmiCommon(ts, false)
	Label("loop")
	rows := [2][]VecVirtual{make([]VecVirtual, r), make([]VecVirtual, r)}
	for h := range rows {
		for s := range rows[h] {
			z := ZMM()
			if st := h*r + s; st < ts {
				a := addr(st)
				VMOVDQU64(Mem{Base: a}, z)
				if nt {
					prefetchStream(ts, a)
				}
			} else {
				VPXORQ(z, z, z)
			}
			rows[h][s] = z
		}
		transpose(rows[h], e, ql, qh)
	}
	for k := 0; k < r; k++ {
		lo, hi := rows[0][k], rows[1][k]
		o := ZMM()
		VMOVDQA64(lo, o)
		VPERMT2B(hi, u[0], o)
		store64(o, Mem{Base: dst, Disp: k * b}, nt)
		VPERMT2B(hi, u[1], lo)
		store64(lo, Mem{Base: dst, Disp: k*b + 64}, nt)
	}
	epilogue(avx512nt(nt), dst, src, blocks, 64*ts, 64)
}

// unshufflePrefetch is how far ahead of each stream the non-temporal
// unshuffle kernels of typesizes up to prefetchMaxStreams prefetch (into
// every cache level). BenchmarkUnshuffleKernels at 64 MiB on AMD Zen 4,
// each kernel alternating with its unprefetched self in both orders:
// 256, 512 and 1024 bytes all help typesizes 2 to 7, 512 the most; the
// same prefetch is neutral at 9 to 11 and costs at 8 and 12 to 16 (twice
// that many lines in flight is likely more than the L1 can track), and a
// prefetch into L2 only (PREFETCHT1) changed nothing at any typesize. The
// non-temporal hint (PREFETCHNTA) was slower everywhere, and so was
// prefetching the shuffle's single source stream.
//
// Typesize 16 unshuffles slower relative to memcpy when n is a multiple of
// 4 KiB than when it is not, every stream then reading the same offset
// within a page; typesize 8 shows no such difference. Loading the upper
// eight streams one block ahead, so each block's loads fall on two
// offsets, did not help.
const (
	unshufflePrefetch  = 512
	prefetchMaxStreams = 7
)

// prefetchStream prefetches the stream at a unshufflePrefetch bytes ahead
// for the typesizes where that measured faster. A prefetch never faults,
// so running past the end of the stream or of the buffer is harmless.
func prefetchStream(ts int, a Register) {
	if ts <= prefetchMaxStreams {
		PREFETCHT0(Mem{Base: a, Disp: unshufflePrefetch})
	}
}

// vbmiUnshuffleLines is the non-temporal unshuffle for typesizes that are
// not powers of two. A block's output is exactly ts lines, aligned when dst
// is, but a window holds b = 128/p*ts bytes, so a line straddles two
// windows: its index table names window k's bytes in the line's first part
// and window k+1's in the rest, and two merge-masked VPERMI2B fill each
// part in turn (the later one reading its indexes from bytes the earlier
// left alone). Nothing is written past the block.
func vbmiUnshuffleLines(ts int) {
	const nt = true
	_, r, e, b := vbmiShape(ts)
	name := kernelName("unshuffle", ts, "AVX512NT")
	doc := fmt.Sprintf("%s unshuffles blocks of 64 elements of %d bytes with non-temporal stores; dst must be 64-byte aligned.", name, ts)
	dst, src, n, blocks := prologue(name, doc, 0)
	scatter := func(o int) int {
		el, st := o/ts, o%ts
		return 64*(st/r) + (st%r)*e + el
	}
	ql, qh, _ := vbmiCommon(ts, false)
	type line struct {
		k     int // window of the line's first byte
		split int // bytes from window k; the rest from k+1
		table Mem
	}
	lines := make([]line, ts)
	for m := range lines {
		k := 64 * m / b
		split := min(64, (k+1)*b-64*m)
		t := GLOBL(fmt.Sprintf("lines%dL%d", ts, m), RODATA|NOPTR)
		for q := 0; q < 64; q++ {
			g := 64*m + q
			if q < split {
				DATA(q, U8(scatter(g-k*b)))
			} else {
				DATA(q, U8(scatter(g-(k+1)*b)))
			}
		}
		lines[m] = line{k, split, t}
	}
	lo, hi := K(), K()
	Label("loop")
	rows := [2][]VecVirtual{make([]VecVirtual, r), make([]VecVirtual, r)}
	for h := range rows {
		for s := range rows[h] {
			z := ZMM()
			if st := h*r + s; st < ts {
				a := streamAddr(src, n, st)
				VMOVDQU64(Mem{Base: a}, z)
				if nt {
					prefetchStream(ts, a)
				}
			} else {
				VPXORQ(z, z, z)
			}
			rows[h][s] = z
		}
		transpose(rows[h], e, ql, qh)
	}
	for m, l := range lines {
		x := ZMM()
		VMOVDQU64(l.table, x)
		if l.split == 64 {
			VPERMI2B(rows[1][l.k], rows[0][l.k], x)
		} else {
			t := GP64()
			MOVQ(U64(uint64(1)<<l.split-1), t)
			KMOVQ(t, lo)
			KNOTQ(lo, hi)
			VPERMI2B(rows[1][l.k+1], rows[0][l.k+1], hi, x)
			VPERMI2B(rows[1][l.k], rows[0][l.k], lo, x)
		}
		VMOVNTDQ(x, Mem{Base: dst, Disp: 64 * m})
	}
	epilogue(avx512nt(true), dst, src, blocks, 64*ts, 64)
}

// With p = 16 the unpack network needs 17 live vectors, one more than
// SSE2 and AVX2 have, so these kernels split every element into its low
// and high 8 bytes (VPUNPCKL/HQDQ of neighbouring elements) and run the
// p = 8 network twice, once per half. Bytes past ts in an element only ever
// reach streams past ts, which are not stored, so no padding shuffle is
// needed; the loads still read 16-ts bytes past the block's last element
// and the stores of unshuffle write as many, like the other padded kernels.

func (s isa) gatherElement(src Register, ts, e0 int) VecPhysical {
	r := s.vec()
	if s.lanes == 1 {
		MOVOU(Mem{Base: src, Disp: e0 * ts}, r)
	} else {
		VMOVDQU(Mem{Base: src, Disp: e0 * ts}, r.AsX())
		VINSERTI128(Imm(1), Mem{Base: src, Disp: (e0 + 16) * ts}, r, r)
	}
	return r
}

// qdq returns, per lane, the h-th qwords of a and b ([a.q_h, b.q_h]),
// consuming a and b.
func (s isa) qdq(a, b VecPhysical, h int) VecPhysical {
	if s.lanes == 1 {
		if h == 0 {
			PUNPCKLQDQ(b, a)
		} else {
			PUNPCKHQDQ(b, a)
		}
	} else if h == 0 {
		VPUNPCKLQDQ(b, a, a)
	} else {
		VPUNPCKHQDQ(b, a, a)
	}
	free(b)
	return a
}

func halvesShuffle(s isa, ts int) {
	name := kernelName("shuffle", ts, s.name)
	w := 16 * s.lanes
	dst, src, n, blocks := prologue(name, fmt.Sprintf("%s shuffles blocks of %d elements of %d bytes.", name, w, ts), 0)
	s.resetPool()
	Label("loop")
	for h := 0; h < 2; h++ {
		in := make([]slot, 8)
		for v := range in {
			in[v] = slot{load: func() VecPhysical {
				a := s.gatherElement(src, ts, 2*v)
				b := s.gatherElement(src, ts, 2*v+1)
				return s.qdq(a, b, h)
			}}
		}
		s.passes(in, 4, func(i int, r VecPhysical) {
			if st := 8*h + i; st < ts {
				s.storeu(r, Mem{Base: streamAddr(dst, n, st)})
			}
			free(r)
		})
	}
	epilogue(s, dst, src, blocks, w, w*ts)
}

func halvesUnshuffle(s isa, ts int) {
	name := kernelName("unshuffle", ts, s.name)
	w := 16 * s.lanes
	frame := 8 * s.bytes()
	if s.lanes > 1 {
		frame += 16 * 16
	}
	dst, src, n, blocks := prologue(name, fmt.Sprintf("%s unshuffles blocks of %d elements of %d bytes.", name, w, ts), frame)
	lows := AllocLocal(8 * s.bytes())
	var held Mem
	if s.lanes > 1 {
		held = AllocLocal(16 * 16)
	}
	s.resetPool()
	Label("loop")
	for h := 0; h < 2; h++ {
		in := make([]slot, 8)
		for b := range in {
			in[b] = slot{load: func() VecPhysical {
				r := s.vec()
				switch st := 8*h + b; {
				case st >= ts && s.lanes == 1:
					PXOR(r, r)
				case st >= ts:
					VPXOR(r, r, r)
				default:
					s.loadu(Mem{Base: streamAddr(src, n, st)}, r)
				}
				return r
			}}
		}
		s.passes(in, 3, func(v int, r VecPhysical) {
			if h == 0 {
				s.storeu(r, lows.Offset(v*s.bytes()))
				free(r)
				return
			}
			// Elements 2v and 2v+1 of each lane, stored in address order
			// so each store's overflow past ts bytes is rewritten next.
			for j := 0; j < 2; j++ {
				lo := s.vec()
				s.loadu(lows.Offset(v*s.bytes()), lo)
				var x VecPhysical
				if j == 0 {
					x = s.qdqKeep(lo, r, 0)
				} else {
					x = s.qdqKeep(lo, r, 1)
				}
				e := 2*v + j
				if s.lanes == 1 {
					MOVOU(x, Mem{Base: dst, Disp: e * ts})
				} else {
					VMOVDQU(x.AsX(), Mem{Base: dst, Disp: e * ts})
					VEXTRACTI128(Imm(1), x, held.Offset(16*e))
				}
				free(x)
			}
			free(r)
		})
	}
	if s.lanes > 1 {
		for e := 0; e < 16; e++ {
			t := s.vec()
			VMOVDQU(held.Offset(16*e), t.AsX())
			VMOVDQU(t.AsX(), Mem{Base: dst, Disp: (16 + e) * ts})
			free(t)
		}
	}
	epilogue(s, dst, src, blocks, w*ts, w)
}

// qdqKeep is qdq that consumes a but leaves b intact.
func (s isa) qdqKeep(a, b VecPhysical, h int) VecPhysical {
	if s.lanes == 1 {
		if h == 0 {
			PUNPCKLQDQ(b, a)
		} else {
			PUNPCKHQDQ(b, a)
		}
	} else if h == 0 {
		VPUNPCKLQDQ(b, a, a)
	} else {
		VPUNPCKHQDQ(b, a, a)
	}
	return a
}
