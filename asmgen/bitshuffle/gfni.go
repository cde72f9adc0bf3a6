package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The GFNI kernels work on superblocks of 512 elements so that every bit
// row receives 64 bytes, a whole cache line, per superblock: rows are often
// a power of two apart and narrower stores make them fight over L1 sets.
//
// Phase A, per 64-element sub-block sb: build 8x8 bit tiles (quadword =
// byte j of 8 consecutive elements, bytes in reverse element order), let one
// VGF2P8AFFINEQB per vector transpose 8 tiles, and gather the tiles of each
// byte column d into one vector ([g][b]: group g's byte for bit row b),
// stored at stage[d][sb]. Phase B, per column d: the 8 vectors stage[d][*]
// become, by an 8x8 byte and an 8x8 quadword transpose, the 64-byte slices
// of bit rows 8(j0+d)+b. Unshuffle runs both phases backwards.
//
// Only typesizes 1, 2, 4, 8 and 16 are handled: they load whole vectors of
// elements and form tiles with one or two byte permutes (16 runs two column
// chunks, j0 = 0 and 8). Other typesizes are left to the superblock kernel
// of super.go.

const gfniTranspose = 0x8040201008040201 // byte m = 1<<m: selects bit m of every matrix row

// vgf2p8affineqb emits VGF2P8AFFINEQB $0, matrix, x, out (Go operand order),
// which avo v0.5.0 lacks; the Go assembler knows it.
func vgf2p8affineqb(matrix, x, out reg.VecVirtual) {
	Instruction(&ir.Instruction{
		Opcode:   "VGF2P8AFFINEQB",
		Operands: []Op{U8(0), matrix, x, out},
		Inputs:   []Op{matrix, x},
		Outputs:  []Op{out},
		ISA:      []string{"AVX512F", "GFNI"},
	})
}

// tileTable returns the VPERMB index turning a vector of 64/ts whole
// elements (ts in 1, 2, 4, 8) into 8 tiles, quadword g'*ts+d holding byte d
// of the 8 elements of group g', last element first.
func tileTable(ts int) Mem {
	return table(fmt.Sprintf("bitshuffleTiles%d", ts), func() {
		var idx [64]byte
		for q := 0; q < 8; q++ {
			g, d := q/ts, q%ts
			for i := 0; i < 8; i++ {
				idx[8*q+i] = byte((8*g+7-i)*ts + d)
			}
		}
		emitBytes(idx[:])
	})
}

// tileTableInverse is the VPERMB index undoing tileTable after the inverse
// bit transpose (which yields bytes in forward element order).
func tileTableInverse(ts int) Mem {
	return table(fmt.Sprintf("bitshuffleUntiles%d", ts), func() {
		var idx [64]byte
		for q := 0; q < 8; q++ {
			g, d := q/ts, q%ts
			for i := 0; i < 8; i++ {
				idx[(8*g+i)*ts+d] = byte(8*q + i)
			}
		}
		emitBytes(idx[:])
	})
}

// reverseTable reverses the bytes of every quadword.
func reverseTable() Mem {
	return table("bitshuffleReverse", func() {
		var idx [64]byte
		for i := range idx {
			idx[i] = byte(i&^7 | (7 - i&7))
		}
		emitBytes(idx[:])
	})
}

// transposeRevTable is the 8x8 byte transpose with each output quadword
// reversed: [g][b] -> [b'][g] where byte b' = 7-b... used when unshuffling.
func transposeRevTable() Mem {
	return table("bitshuffleT8x8Rev", func() {
		var idx [64]byte
		for p := 0; p < 64; p++ {
			g, b := p/8, 7-p%8 // output quadword g holds rows 7..0
			idx[p] = byte(8*b + g)
		}
		emitBytes(idx[:])
	})
}

func emitBytes(b []byte) {
	for i := 0; i < len(b); i += 8 {
		var w uint64
		for j := 0; j < 8; j++ {
			w |= uint64(b[i+j]) << (8 * j)
		}
		DATA(i, U64(w))
	}
}

// qwordIndex returns a VPERMT2Q/VPERMI2Q index table.
func qwordIndex(name string, idx [8]int) Mem {
	return table(name, func() {
		for i, v := range idx {
			DATA(8*i, U64(uint64(v)))
		}
	})
}

// permute2 returns the quadword permutation of the pair (lo, hi) given by
// idx (0-7 from lo, 8-15 from hi) in a new register.
func permute2(lo, hi reg.VecVirtual, idx Mem) reg.VecVirtual {
	out := ZMM()
	VMOVDQU64(idx, out)
	VPERMI2Q(hi, lo, out)
	return out
}

// transposeQwords transposes 8 vectors as an 8x8 matrix of quadwords:
// afterwards v[i] quadword p is what v[p] quadword i was. Each stage swaps
// the off-diagonal blocks of size s.
func transposeQwords(v []reg.VecVirtual) {
	transposeQwordsPerm(v, identityPerm(), identityPerm())
}

// transposeStage returns the index vectors of the stage of transposeQwords
// that swaps blocks of s quadwords: lo for the new v[i], hi for v[i|s].
func transposeStage(s int) (lo, hi reg.VecVirtual) {
	if r, ok := stageRegs[s]; ok {
		return r[0], r[1]
	}
	// lo: new v[i] keeps its own quadwords where p&s == 0 and takes
	// v[i|s]'s p^s elsewhere; hi mirrors it for v[i|s].
	var loIdx, hiIdx [8]int
	for p := 0; p < 8; p++ {
		if p&s == 0 {
			loIdx[p] = p
			hiIdx[p] = p ^ s
		} else {
			loIdx[p] = 8 + (p ^ s)
			hiIdx[p] = 8 + p
		}
	}
	lo, hi = ZMM(), ZMM()
	VMOVDQU64(qwordIndex(fmt.Sprintf("bitshuffleQLo%d", s), loIdx), lo)
	VMOVDQU64(qwordIndex(fmt.Sprintf("bitshuffleQHi%d", s), hiIdx), hi)
	stageRegs[s] = [2]reg.VecVirtual{lo, hi}
	return lo, hi
}

// stageRegs holds the current function's transposeQwords index vectors,
// loaded once at its start by loadTransposeStages.
var stageRegs map[int][2]reg.VecVirtual

func loadTransposeStages() {
	stageRegs = map[int][2]reg.VecVirtual{}
	for _, s := range []int{4, 2} {
		transposeStage(s)
	}
}

// permuteReg is permute2 with the index in a register.
func permuteReg(lo, hi, idx reg.VecVirtual) reg.VecVirtual {
	out := ZMM()
	VMOVDQA64(idx, out)
	VPERMI2Q(hi, lo, out)
	return out
}

// gfniArgs are the registers the GFNI kernels add to args.
type gfniArgs struct {
	*args
	stage  Mem
	matrix reg.VecVirtual
	t8x8   reg.VecVirtual
}

var gfniDirections = []bool{false, true}

func genGFNI() {
	genGFNIx("", false)
	genGFNIx("", true)
}

// genGFNIx emits the GFNI kernels, or with split the split kernels
// (split.go) for the typesizes in gfniSplit.
func genGFNIx(suffix string, split bool) {
	typesizes := []int{1, 2, 4, 8, 16}
	if split {
		suffix += "Split"
		typesizes = nil
		for _, ts := range []int{4, 8} {
			if _, ok := gfniSplit[ts]; ok {
				typesizes = append(typesizes, ts)
			}
		}
	}
	for _, inverse := range gfniDirections {
		name := "shuffleAVX512GFNI" + suffix
		if inverse {
			name = "unshuffleAVX512GFNI" + suffix
		}
		usesVEX[name] = true
		TEXT(name, 0, sig())
		Pragma("noescape")
		if split {
			Doc(name+" handles superblocks of 512 elements of typesizes 4 and 8 with GFNI tile",
				"transposes, each pass's rows spread over four L1 sets: see the generator.")
		} else {
			Doc(name+" handles superblocks of 512 elements with GFNI tile transposes:", "see the generator.")
		}
		a := &gfniArgs{args: loadArgs(inverse)}
		loadTransposeStages()
		a.stage = alignedStageSize(a.args, gfniStageBytes(split))
		a.matrix = ZMM()
		MOVQ(U64(gfniTranspose), a.tmp)
		VPBROADCASTQ(a.tmp, a.matrix)
		a.t8x8 = ZMM()
		VMOVDQU64(t8x8Table(), a.t8x8)
		for _, ts := range typesizes {
			CMPQ(a.ts, U8(ts))
			JEQ(LabelRef(fmt.Sprintf("%sts%d", name, ts)))
		}
		Comment("other typesizes are the caller's to avoid")
		RET()
		for _, ts := range typesizes {
			Label(fmt.Sprintf("%sts%d", name, ts))
			if x := gfniSplit[ts]; split {
				if inverse {
					gfniSplitInverse(fmt.Sprintf("%ssplit%d", name, ts), a, ts, x)
				} else {
					gfniSplitForward(fmt.Sprintf("%ssplit%d", name, ts), a, ts, x)
				}
				continue
			}
			if r := gfniRowRing[ts]; r > 1 && !inverse {
				gfniRowDelayed(fmt.Sprintf("%srows%d", name, ts), a, ts, r)
				continue
			}
			if r := gfniRing[ts]; r > 1 && !inverse {
				gfniDelayed(fmt.Sprintf("%sring%d", name, ts), a, ts, r)
				continue
			}
			gfniLoop(fmt.Sprintf("%sdense%d", name, ts), a, ts, inverse)
		}
	}
}

func t8x8Table() Mem {
	return table("bitshuffleT8x8", func() {
		for i := 0; i < 64; i += 8 {
			var word uint64
			for j := 0; j < 8; j++ {
				p := i + j
				word |= uint64(8*(p%8)+p/8) << (8 * j)
			}
			DATA(i, U64(word))
		}
	})
}

// alignedStage reserves the 4 KiB stage on the stack, aligned to 64 bytes
// so that no staged vector straddles two cache lines.
func alignedStage(a *args) Mem { return alignedStageSize(a, 8*8*64) }

func alignedStageSize(a *args, size int) Mem {
	local := AllocLocal(size + 64)
	base := GP64()
	LEAQ(local, base)
	ADDQ(U8(63), base)
	ANDQ(I32(-64), base)
	return Mem{Base: base}
}

func stageAt(a *gfniArgs, d, sb int) Mem {
	return a.stage.Offset(d*512 + sb*64)
}

// gfniLoop emits the superblock loop for dense typesize ts (1, 2, 4, 8) or,
// with ts 0, the gathering form for any typesize.
func gfniLoop(name string, a *gfniArgs, ts int, inverse bool) {
	q := GP64()
	// Typesizes 1 and 2 keep the whole superblock (8*ts vectors) in
	// registers; larger ones stage it in memory.
	inRegs := ts <= 2
	ncols := min(ts, 8)                     // byte columns per chunk (typesize 16 has two chunks)
	held := make([][]reg.VecVirtual, ncols) // held[d][sb]
	for d := range held {
		held[d] = make([]reg.VecVirtual, 8)
	}
	blockLoop(name, a.args, 64, func() {
		if !inverse {
			for sb := 0; sb < 8; sb++ {
				cols := tilesForward(a, ts, sb)
				for d, v := range cols {
					if inRegs {
						held[d][sb] = v
					} else {
						VMOVDQU64(v, stageAt(a, d, sb))
					}
				}
			}
			MOVQ(a.rb, q)
			for d := 0; d < ncols; d++ {
				v := make([]reg.VecVirtual, 8)
				for sb := range v {
					if inRegs {
						v[sb] = held[d][sb]
					} else {
						v[sb] = ZMM()
						VMOVDQU64(stageAt(a, d, sb), v[sb])
					}
				}
				// [g][b] -> [b][g] folded into the first stage
				transposeQwordsPerm(v, t8x8Perm(), identityPerm())
				for b := 0; b < 8; b++ {
					VMOVDQU64(v[b], Mem{Base: q})
					ADDQ(a.rowLen, q)
				}
			}
			return
		}
		MOVQ(a.rb, q)
		for d := 0; d < ncols; d++ {
			v := make([]reg.VecVirtual, 8)
			for b := range v {
				v[b] = ZMM()
				VMOVDQU64(Mem{Base: q}, v[b])
				ADDQ(a.rowLen, q)
			}
			// [b][g] -> [g][7-b], tiles in the byte order GFNI needs,
			// folded into the last stage
			transposeQwordsPerm(v, identityPerm(), revPerm())
			for sb := range v {
				if inRegs {
					held[d][sb] = v[sb]
				} else {
					VMOVDQU64(v[sb], stageAt(a, d, sb))
				}
			}
		}
		for sb := 0; sb < 8; sb++ {
			tilesInverse(a, ts, sb, func(d int) reg.VecVirtual {
				if inRegs {
					return held[d][sb]
				}
				v := ZMM()
				VMOVDQU64(stageAt(a, d, sb), v)
				return v
			})
		}
	})
}

type bytePerm [64]int

func identityPerm() *bytePerm {
	var p bytePerm
	for i := range p {
		p[i] = i
	}
	return &p
}

// t8x8Perm: output byte 8b+g takes input byte 8g+b.
func t8x8Perm() *bytePerm {
	var p bytePerm
	for i := range p {
		p[i] = 8*(i%8) + i/8
	}
	return &p
}

// revPerm: output quadword g holds input bytes 8b+g for b = 7..0.
func revPerm() *bytePerm {
	var p bytePerm
	for i := range p {
		g, b := i/8, 7-i%8
		p[i] = 8*b + g
	}
	return &p
}

// transposeQwordsPerm is transposeQwords with the byte permutation pre
// applied to every input first and post to every output last. The stages
// commute, so the one moving 256-bit halves goes first or last and absorbs
// pre or post as a two-table byte permute; the one swapping neighbouring
// quadwords stays within 128-bit lanes, where unpacks run twice as fast as
// lane-crossing permutes.
func transposeQwordsPerm(v []reg.VecVirtual, pre, post *bytePerm) {
	id := *identityPerm()
	order := []int{4, 2, 1}
	if *post != id {
		order = []int{1, 2, 4}
		if *pre != id {
			panic("transposeQwordsPerm: pre and post")
		}
	}
	for n, s := range order {
		folded := n == 0 && *pre != id || n == 2 && *post != id
		switch {
		case folded:
			lo, hi := foldedTables(s, pre, post)
			lt, ht := byteTable(lo), byteTable(hi)
			for i := 0; i < 8; i++ {
				if i&s != 0 {
					continue
				}
				a, b := v[i], v[i|s]
				x, y := ZMM(), ZMM()
				VMOVDQU64(lt, x)
				VPERMI2B(b, a, x)
				VMOVDQU64(ht, y)
				VPERMI2B(b, a, y)
				v[i], v[i|s] = x, y
			}
		case s == 1:
			for i := 0; i < 8; i += 2 {
				a, b := v[i], v[i+1]
				x, y := ZMM(), ZMM()
				VPUNPCKLQDQ(b, a, x)
				VPUNPCKHQDQ(b, a, y)
				v[i], v[i+1] = x, y
			}
		default:
			lm, hm := transposeStage(s)
			for i := 0; i < 8; i++ {
				if i&s != 0 {
					continue
				}
				a, b := v[i], v[i|s]
				v[i] = permuteReg(a, b, lm)
				// a is dead after this: permute into it, saving a copy
				VPERMT2Q(b, hm, a)
				v[i|s] = a
			}
		}
	}
}

// foldedTables returns the two-table byte indexes of the transposeQwords
// stage swapping blocks of s quadwords with pre applied before it and post
// after it: lo for the new v[i], hi for v[i|s].
func foldedTables(s int, pre, post *bytePerm) (lo, hi [64]int) {
	var loQ, hiQ [8]int
	for p := 0; p < 8; p++ {
		if p&s == 0 {
			loQ[p], hiQ[p] = p, p^s
		} else {
			loQ[p], hiQ[p] = 8+(p^s), 8+p
		}
	}
	byteIdx := func(q [8]int) [64]int {
		var idx [64]int
		for P := 0; P < 64; P++ {
			src := post[P]
			p, j := src/8, src%8
			m := pre[8*(q[p]%8)+j]
			if q[p] >= 8 {
				m += 64
			}
			idx[P] = m
		}
		return idx
	}
	return byteIdx(loQ), byteIdx(hiQ)
}

// byteTable emits (once) a 64-byte index table.
func byteTable(idx [64]int) Mem {
	var b [64]byte
	for i, v := range idx {
		b[i] = byte(v)
	}
	// Names stay short and unique: hash the contents.
	return table(fmt.Sprintf("bitshuffleBytes%016x", fnv64(b[:])), func() { emitBytes(b[:]) })
}

func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// tilesForward builds sub-block sb's transposed tiles, one vector per byte
// column d ([g][b]).
func tilesForward(a *gfniArgs, ts, sb int) []reg.VecVirtual {
	if ts == 16 {
		// Group g is 128 bytes; the chunk's tiles are one two-table byte
		// permute of them, its index picked by j0 (0 or 8: offset 8*j0).
		perm := ZMM()
		LEAQ(tiles16Table(), a.tmp)
		VMOVDQU64(Mem{Base: a.tmp, Index: a.j0, Scale: 8}, perm)
		v := make([]reg.VecVirtual, 8)
		for g := range v {
			lo, hi := ZMM(), ZMM()
			VMOVDQU64(Mem{Base: a.src, Disp: 1024*sb + 128*g}, lo)
			VMOVDQU64(Mem{Base: a.src, Disp: 1024*sb + 128*g + 64}, hi)
			v[g] = ZMM()
			VMOVDQA64(perm, v[g])
			VPERMI2B(hi, lo, v[g])
			vgf2p8affineqb(v[g], a.matrix, v[g])
		}
		transposeQwords(v)
		return v
	}
	if ts == 8 {
		return tiles8Forward(a, sb)
	}
	// ts vectors of 64/ts elements, quadword g'*ts+d = tile (group g', column d)
	perm := ZMM()
	if ts == 1 {
		VMOVDQU64(tileTable(ts), perm)
		in := ZMM()
		VPERMB(Mem{Base: a.jp, Disp: 64 * sb}, perm, in)
		vgf2p8affineqb(in, a.matrix, in)
		return []reg.VecVirtual{in}
	}
	// Typesizes 2 and 4: the tiles of column d for 4 groups (32 elements)
	// lie in 2 vectors, one two-table byte permute away.
	in := make([]reg.VecVirtual, ts)
	for m := range in {
		in[m] = ZMM()
		VMOVDQU64(Mem{Base: a.jp, Disp: 64*ts*sb + 64*m}, in[m])
	}
	cols := make([]reg.VecVirtual, ts)
	if ts == 4 {
		// Per column pair: one permute of each 32-element half gives 4
		// tiles of both columns; exchanging 256-bit halves of the two
		// results sorts them into columns.
		for p := 0; p < 2; p++ {
			lo, hi := ZMM(), ZMM()
			VMOVDQU64(pairTable4(p), lo)
			VPERMI2B(in[1], in[0], lo)
			VMOVDQU64(pairTable4(p), hi)
			VPERMI2B(in[3], in[2], hi)
			vgf2p8affineqb(lo, a.matrix, lo)
			vgf2p8affineqb(hi, a.matrix, hi)
			cols[2*p], cols[2*p+1] = ZMM(), ZMM()
			VSHUFI64X2(U8(0x44), hi, lo, cols[2*p])
			VSHUFI64X2(U8(0xEE), hi, lo, cols[2*p+1])
		}
		return cols
	}
	for d := range cols {
		cols[d] = ZMM()
		VMOVDQU64(columnTable(ts, d), cols[d])
		VPERMI2B(in[1], in[0], cols[d])
		vgf2p8affineqb(cols[d], a.matrix, cols[d])
	}
	return cols
}

// pairTable4 is the two-table byte index gathering, from 32 elements of
// typesize 4, the tiles of columns 2p (quadwords 0-3) and 2p+1 (4-7):
// quadword q byte i = byte 2p+q/4 of element 8(q%4)+7-i.
func pairTable4(p int) Mem {
	return table(fmt.Sprintf("bitshufflePair4_%d", p), func() {
		var idx [64]byte
		for q := 0; q < 8; q++ {
			d, g := 2*p+q/4, q%4
			for i := 0; i < 8; i++ {
				idx[8*q+i] = byte((8*g+7-i)*4 + d)
			}
		}
		emitBytes(idx[:])
	})
}

// tiles16Table holds, for chunks j0 = 0 and 8, the two-table byte index
// turning a 16-byte-element group into the chunk's 8 tiles: quadword d
// byte i = byte j0+d of element 7-i.
func tiles16Table() Mem {
	return table("bitshuffleTiles16", func() {
		var idx [128]byte
		for c := 0; c < 2; c++ {
			for d := 0; d < 8; d++ {
				for i := 0; i < 8; i++ {
					idx[64*c+8*d+i] = byte(16*(7-i) + 8*c + d)
				}
			}
		}
		emitBytes(idx[:])
	})
}

// untiles16Table(half) holds, for chunks j0 = 0 and 8, the byte index
// putting a group's 8 transposed tiles ([d][k]) back at the chunk's
// positions in elements 4*half..4*half+3: byte 16k'+8c+d takes 8d+k.
// Other bytes are masked off by chunkMask16Table.
func untiles16Table(half int) Mem {
	return table(fmt.Sprintf("bitshuffleUntiles16_%d", half), func() {
		var idx [128]byte
		for c := 0; c < 2; c++ {
			for p := 0; p < 64; p++ {
				k, jb := 4*half+p/16, p%16
				if jb/8 == c {
					idx[64*c+p] = byte(8*(jb%8) + k)
				}
			}
		}
		emitBytes(idx[:])
	})
}

// chunkMask16Table: byte masks of chunk 0 (bytes 0-7 of each 16) and
// chunk 1 (bytes 8-15), at offsets 0 and 8 = j0.
func chunkMask16Table() Mem {
	return table("bitshuffleChunkMask16", func() {
		DATA(0, U64(0x00FF00FF00FF00FF))
		DATA(8, U64(0xFF00FF00FF00FF00))
	})
}

// columnTable is the two-table byte index gathering the tiles of column d
// of the 4 (ts 4) or 8 (ts 2) groups in 128 bytes of elements: quadword g
// byte i = byte d of element 8g+7-i (for ts 4, groups repeat in the upper
// quadwords).
func columnTable(ts, d int) Mem {
	return table(fmt.Sprintf("bitshuffleColumn%d_%d", ts, d), func() {
		var idx [64]byte
		groups := 128 / ts / 8
		for q := 0; q < 8; q++ {
			g := q % groups
			for i := 0; i < 8; i++ {
				idx[8*q+i] = byte((8*g+7-i)*ts + d)
			}
		}
		emitBytes(idx[:])
	})
}

// elementTable is the inverse of columnTable: after the inverse bit
// transpose, column d's byte e is byte d of element e of the sub-block, so
// byte p of output vector m (element bytes 64m+p) takes byte e of column d,
// e*ts+d = 64m+p. It covers columns d0 and d0+1; other bytes are left 0.
func elementTable(ts, m, d0 int) Mem {
	return table(fmt.Sprintf("bitshuffleElement%d_%d_%d", ts, m, d0), func() {
		var idx [64]byte
		for p := 0; p < 64; p++ {
			e, d := (64*m+p)/ts, (64*m+p)%ts
			if d == d0 || d == d0+1 {
				idx[p] = byte(64*(d-d0) + e)
			}
		}
		emitBytes(idx[:])
	})
}

// tilesInverse turns the column vectors col(d) of sub-block sb back into
// its elements.
func tilesInverse(a *gfniArgs, ts, sb int, col func(d int) reg.VecVirtual) {
	if ts == 16 {
		v := make([]reg.VecVirtual, 8)
		for d := range v {
			v[d] = col(d)
		}
		transposeQwords(v) // v[g] is [d][tile bytes]
		lo, hi, keep := ZMM(), ZMM(), K()
		LEAQ(untiles16Table(0), a.tmp)
		VMOVDQU64(Mem{Base: a.tmp, Index: a.j0, Scale: 8}, lo)
		LEAQ(untiles16Table(1), a.tmp)
		VMOVDQU64(Mem{Base: a.tmp, Index: a.j0, Scale: 8}, hi)
		LEAQ(chunkMask16Table(), a.tmp)
		KMOVQ(Mem{Base: a.tmp, Index: a.j0, Scale: 1}, keep)
		for g := range v {
			vgf2p8affineqb(v[g], a.matrix, v[g])
			x, y := ZMM(), ZMM()
			VPERMB(v[g], lo, x)
			VPERMB(v[g], hi, y)
			// only this chunk's 8 bytes of each element
			VMOVDQU8(x, keep, Mem{Base: a.src, Disp: 1024*sb + 128*g})
			VMOVDQU8(y, keep, Mem{Base: a.src, Disp: 1024*sb + 128*g + 64})
		}
		return
	}
	if ts == 8 {
		// tiles8Inverse folds the untiling permute into the transpose,
		// but unshuffling 64 MiB, bound by memory, ran slower with it
		// (TestMeasureKernels at 64MiB); the split kernels use it.
		v := make([]reg.VecVirtual, 8)
		for d := range v {
			v[d] = col(d)
		}
		transposeQwords(v) // v[g] is [d][tile bytes]
		perm := ZMM()
		VMOVDQU64(tileTableInverse(8), perm)
		for g := range v {
			vgf2p8affineqb(v[g], a.matrix, v[g])
			VPERMB(v[g], perm, v[g])
			VMOVDQU64(v[g], Mem{Base: a.jp, Disp: 512*sb + 64*g})
		}
		return
	}
	cols := make([]reg.VecVirtual, ts)
	for d := range cols {
		cols[d] = col(d)
		vgf2p8affineqb(cols[d], a.matrix, cols[d])
	}
	if ts == 1 {
		perm := ZMM()
		VMOVDQU64(tileTableInverse(ts), perm)
		VPERMB(cols[0], perm, cols[0])
		VMOVDQU64(cols[0], Mem{Base: a.jp, Disp: 64 * sb})
		return
	}
	if ts == 4 {
		// Undo tilesForward: pair the columns' tiles by groups 0-3 and
		// 4-7, then each 64 bytes of elements is one permute of a pair.
		var half [2][2]reg.VecVirtual // [groups 4-7][columns 2p, 2p+1]
		for p := 0; p < 2; p++ {
			half[0][p], half[1][p] = ZMM(), ZMM()
			VSHUFI64X2(U8(0x44), cols[2*p+1], cols[2*p], half[0][p])
			VSHUFI64X2(U8(0xEE), cols[2*p+1], cols[2*p], half[1][p])
		}
		for m := 0; m < 4; m++ {
			x := ZMM()
			VMOVDQU64(unpairTable4(m%2), x)
			VPERMI2B(half[m/2][1], half[m/2][0], x)
			VMOVDQU64(x, Mem{Base: a.jp, Disp: 256*sb + 64*m})
		}
		return
	}
	for m := 0; m < ts; m++ {
		x := ZMM()
		VMOVDQU64(elementTable(ts, m, 0), x)
		VPERMI2B(cols[1], cols[0], x)
		VMOVDQU64(x, Mem{Base: a.jp, Disp: 64*ts*sb + 64*m})
	}
}

// unpairTable4 is the two-table byte index rebuilding elements 16h..16h+15
// of a 32-element half from its column pairs (table 0: columns 0 and 1,
// table 1: 2 and 3; quadword (d%2)*4+g holds group g of column d, byte k
// of it element 8g+k).
func unpairTable4(h int) Mem {
	return table(fmt.Sprintf("bitshuffleUnpair4_%d", h), func() {
		var idx [64]byte
		for p := 0; p < 64; p++ {
			e, d := (64*h+p)/4, p%4
			idx[p] = byte(64*(d/2) + 8*((d%2)*4+e/8) + e%8)
		}
		emitBytes(idx[:])
	})
}

// gfniRing is, per typesize, how many superblocks the column-staggered
// forward kernel keeps staged (1: not staggered). See gfniDelayed.
// Against the plain kernel (TestMeasureKernels, 256 KiB): typesize 4
// gains, but less than with rows staggered (gfniRowRing); typesize 8
// gains nothing, with rows staggered or with a ring of 8.
// So no typesize uses it; BS_EXP can still select it. The split kernels
// (split.go) do better for typesizes 4 and 8.
var gfniRing = map[int]int{}

func gfniStageBytes(split bool) int {
	if split {
		size := 0
		for ts, x := range gfniSplit {
			size = max(size, splitStageBytes(ts, x))
		}
		return size
	}
	size := 8 * 8 * 64
	for ts, r := range gfniRing {
		size = max(size, r*ts*512)
	}
	for ts, r := range gfniRowRing {
		ring := r * ts * 512
		if ts > 2 {
			ring += 8 * 8 * 64 // the tile stage sits below the ring
		}
		size = max(size, ring)
	}
	return size
}

// gfniDelayed is the forward GFNI kernel with its row stores staggered.
// When rows are a multiple of 4 KiB apart, the 8*ts row lines a superblock
// stores all fall in one L1 set; with more of them in flight than the set
// has ways, lines are evicted before their store commits. So column d
// writes its rows d%r superblocks late: the superblock's tile columns wait
// in a ring of r stages, and each pass spreads its row stores over r sets.
// The loop runs r-1 extra passes that only drain the ring.
func gfniDelayed(name string, a *gfniArgs, ts, r int) {
	const sbBytes = 512 // one column's staged vectors per superblock
	slotShift := 0
	for 1<<slotShift != ts*sbBytes {
		slotShift++
	}
	inRegs := ts <= 2
	held := make([]reg.VecVirtual, 8) // column 0, which is never delayed
	t, end, rowT, col, q, slot := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	XORQ(t, t)
	LEAQ(Mem{Base: a.blocks, Disp: r - 1}, end)
	MOVQ(a.dst, rowT)
	MOVQ(a.src, a.jp)
	Label(name + "loop")
	CMPQ(t, a.blocks)
	JAE(LabelRef(name + "staged"))
	MOVQ(t, slot)
	ANDQ(U8(r-1), slot)
	SHLQ(U8(slotShift), slot)
	ADDQ(a.stage.Base, slot)
	for sb := 0; sb < 8; sb++ {
		cols := tilesForward(a, ts, sb)
		for d, v := range cols {
			if inRegs && d == 0 {
				held[sb] = v
			} else {
				VMOVDQU64(v, Mem{Base: slot, Disp: d*sbBytes + sb*64})
			}
		}
	}
	Label(name + "staged")
	MOVQ(rowT, col)
	for d := 0; d < ts; d++ {
		delay := d % r
		skip := fmt.Sprintf("%sskip%d", name, d)
		// superblock t-delay, when it is one
		LEAQ(Mem{Base: t, Disp: -delay}, slot)
		CMPQ(slot, a.blocks)
		JAE(LabelRef(skip)) // also when t < delay: unsigned wrap
		v := make([]reg.VecVirtual, 8)
		if inRegs && d == 0 {
			copy(v, held)
		} else {
			ANDQ(U8(r-1), slot)
			SHLQ(U8(slotShift), slot)
			ADDQ(a.stage.Base, slot)
			for sb := range v {
				v[sb] = ZMM()
				VMOVDQU64(Mem{Base: slot, Disp: d*sbBytes + sb*64}, v[sb])
			}
		}
		transposeQwordsPerm(v, t8x8Perm(), identityPerm())
		MOVQ(col, q)
		for b := 0; b < 8; b++ {
			VMOVDQU64(v[b], Mem{Base: q, Disp: -64 * delay})
			ADDQ(a.rowLen, q)
		}
		Label(skip)
		if d < ts-1 {
			ADDQ(a.row8, col)
		}
	}
	INCQ(t)
	ADDQ(U8(64), rowT)
	ADDQ(U32(ts*sbBytes), a.jp)
	CMPQ(t, end)
	JB(LabelRef(name + "loop"))
	VZEROUPPER()
	RET()
}

// gfniRowRing is, per typesize, how many superblocks of row vectors the
// row-staggered forward kernel keeps (1: not staggered; otherwise 8, as
// the drain steps rows by 8). See gfniRowDelayed. Typesize 4 takes it
// when the package does not call the split kernel (split.go).
var gfniRowRing = map[int]int{1: 8, 2: 8, 4: 8}

// gfniRowDelayed is the forward GFNI kernel (typesizes 1 and 2 keep the
// superblock in registers, 4 stages its tiles) with row r's stores made
// r%ring superblocks late, so a superblock's row stores no longer share
// one L1 set (and the same low 12 address bits) when rows are a multiple
// of 4 KiB apart. The delayed row vectors wait in a ring on the stack; the
// loop runs ring-1 extra passes that only drain it.
func gfniRowDelayed(name string, a *gfniArgs, ts, ring int) {
	passBytes := 8 * ts * 64 // row vectors of one superblock
	shift := 0
	for 1<<shift != passBytes {
		shift++
	}
	held := make([][]reg.VecVirtual, ts)
	inRegs := ts <= 2
	ringBase := 0 // larger typesizes stage their tiles below the ring
	if !inRegs {
		ringBase = 8 * 8 * 64
	}
	t, end, rowT, q, q0, rd := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	XORQ(t, t)
	LEAQ(Mem{Base: a.blocks, Disp: ring - 1}, end)
	MOVQ(a.dst, rowT)
	MOVQ(a.src, a.jp)
	Label(name + "loop")
	CMPQ(t, a.blocks)
	JAE(LabelRef(name + "drain"))
	for d := range held {
		held[d] = make([]reg.VecVirtual, 8)
	}
	for sb := 0; sb < 8; sb++ {
		for d, v := range tilesForward(a, ts, sb) {
			if inRegs {
				held[d][sb] = v
			} else {
				VMOVDQU64(v, stageAt(a, d, sb))
			}
		}
	}
	MOVQ(t, rd)
	ANDQ(U8(ring-1), rd)
	SHLQ(U8(shift), rd)
	ADDQ(a.stage.Base, rd)
	MOVQ(rowT, q)
	for d := 0; d < ts; d++ {
		v := held[d]
		if !inRegs {
			for sb := range v {
				v[sb] = ZMM()
				VMOVDQU64(stageAt(a, d, sb), v[sb])
			}
		}
		transposeQwordsPerm(v, t8x8Perm(), identityPerm())
		for b := 0; b < 8; b++ {
			row := 8*d + b
			if row%ring == 0 {
				VMOVDQU64(v[b], Mem{Base: q})
				if row+ring < 8*ts {
					ADDQ(a.row8, q) // ring is 8
				}
			} else {
				VMOVDQU64(v[b], Mem{Base: rd, Disp: ringBase + 64*row})
			}
		}
	}
	Label(name + "drain")
	Comment("rows r with r%ring = delay, from superblock t-delay")
	MOVQ(rowT, q0)
	for delay := 1; delay < ring; delay++ {
		ADDQ(a.rowLen, q0)
		skip := fmt.Sprintf("%sdelay%d", name, delay)
		LEAQ(Mem{Base: t, Disp: -delay}, rd)
		CMPQ(rd, a.blocks)
		JAE(LabelRef(skip)) // also when t < delay: unsigned wrap
		ANDQ(U8(ring-1), rd)
		SHLQ(U8(shift), rd)
		ADDQ(a.stage.Base, rd)
		MOVQ(q0, q)
		for row := delay; row < 8*ts; row += ring {
			x := ZMM()
			VMOVDQU64(Mem{Base: rd, Disp: ringBase + 64*row}, x)
			VMOVDQU64(x, Mem{Base: q, Disp: -64 * delay})
			if row+ring < 8*ts {
				ADDQ(a.row8, q)
			}
		}
		Label(skip)
	}
	INCQ(t)
	ADDQ(U8(64), rowT)
	ADDQ(U32(ts*512), a.jp)
	CMPQ(t, end)
	JB(LabelRef(name + "loop"))
	VZEROUPPER()
	RET()
}
