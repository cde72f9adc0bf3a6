// Command bitshuffle generates the amd64 bit-shuffle kernels of package
// github.com/goblosc/blosc/bitshuffle (bitshuffle_amd64.s and its stubs).
//
// Every kernel follows one plan, at three vector widths. A block is 8*G
// elements (G = vector bytes / 8 groups of 8 elements); for each chunk of 8
// byte columns j0..j0+7 of the elements:
//
//  1. load: vector k holds byte j0+d of element 8g+k at byte 8d+g ("[d][g]"),
//     for the 8 values of k;
//  2. an 8x8 bit transpose across the 8 vectors (bit b of vector k swaps with
//     bit k of vector b), three rounds of shift, xor and mask;
//  3. store: vector b now holds, at [d][g], the G bytes of bit row
//     8(j0+d)+b that this block contributes.
//
// Unshuffle runs the same steps backwards. Typesizes below 8 use one chunk
// whose columns past the element are ignored on load and rewritten later on
// store (see blocksFor in the package); typesizes of 8 and more end with a
// chunk that overlaps the previous one and rewrites the same bytes.
//
// Storing G bytes per bit row is slow when rows are a power of two apart
// (they share L1 sets), so the kernels the package calls first are the
// superblock forms (super.go, avx2super.go): 8 blocks staged in a 64-byte
// aligned stack buffer, then one vector per bit row. The block kernels
// finish what is left; the portable code the last groups.
//
// The GFNI kernels (gfni.go, typesizes 1, 2, 4, 8, 16) replace step 2: with
// the elements arranged so that each quadword holds one 8x8 bit tile, one
// VGF2P8AFFINEQB transposes 8 tiles, and quadword transposes route the
// tiles' bytes to their rows. Even whole-line row stores suffer when all
// rows of a superblock share an L1 set, so the forward GFNI kernels for
// typesizes 1 and 2 delay row r by r%8 superblocks through a ring on the
// stack (gfniRowDelayed); for typesizes 4 and 8 the split kernels
// (split.go) spread the rows of a pass over four sets at no cost in
// stores, and the package calls them for the row lengths where that pays.
//
// Typesizes 1 and 2 on AVX2 have kernels of their own (avx2small.go):
// VPMOVMSKB peels bits off whole vectors of elements.
//
// Run by go generate in the bitshuffle package; the output depends only on
// this program, so the committed files can be checked for drift.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego,!noasm,gc")
	flag.Parse()

	genSSE2()
	genAVX2()
	genAVX512()
	genGFNI()
	// Tuning aid, never set by go generate: BS_EXP="4:1,R2:8;E8:0" also
	// emits shuffleAVX512GFNIXn and unshuffleAVX512GFNIXn, one pair per
	// ;-separated setting of gfniRing (ts:ring), gfniRowRing (Rts:ring)
	// and gfniSplit (Ets:extra), so that a throwaway test can time them
	// all in one process on a shared machine.
	for n, e := range strings.Split(os.Getenv("BS_EXP"), ";") {
		if e == "" {
			continue
		}
		gfniRing = map[int]int{}
		gfniRowRing = map[int]int{}
		gfniSplit = map[int]int{}
		for _, kv := range strings.Split(e, ",") {
			var k, v int
			if strings.HasPrefix(kv, "E") {
				fmt.Sscanf(kv, "E%d:%d", &k, &v)
				gfniSplit[k] = v
				continue
			}
			if strings.HasPrefix(kv, "R") {
				fmt.Sscanf(kv, "R%d:%d", &k, &v)
				gfniRowRing[k] = v
				continue
			}
			fmt.Sscanf(kv, "%d:%d", &k, &v)
			gfniRing[k] = v
		}
		genGFNIx(fmt.Sprintf("X%d", n), false)
		genGFNIx(fmt.Sprintf("X%d", n), true)
	}
	genAVX512Super()
	genAVX2Super()
	genAVX2Small()
	genRows()
	genFused()
	Generate()
}

// Bit-transpose masks for the rounds of distance 1, 2 and 4.
var roundMasks = [3]uint64{0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F}

// args holds the general registers every kernel loads.
type args struct { // src: element side, dst: bit-row side
	dst, src, ts, rowLen, blocks reg.GPVirtual
	ts8, row8, nd, j0, jp, rb    reg.GPVirtual
	tmp                          reg.GPVirtual
}

// loadArgs loads the arguments; the element side is src when shuffling and
// dst when unshuffling, and a.src/a.dst name the element and row sides.
func loadArgs(inverse bool) *args {
	a := &args{
		dst: GP64(), src: GP64(), ts: GP64(), rowLen: GP64(), blocks: GP64(),
		ts8: GP64(), row8: GP64(), nd: GP64(), j0: GP64(), jp: GP64(), rb: GP64(), tmp: GP64(),
	}
	if inverse {
		Load(Param("src").Base(), a.dst)
		Load(Param("dst").Base(), a.src)
	} else {
		Load(Param("dst").Base(), a.dst)
		Load(Param("src").Base(), a.src)
	}
	Load(Param("typesize"), a.ts)
	Load(Param("rowLen"), a.rowLen)
	Load(Param("blocks"), a.blocks)
	MOVQ(a.ts, a.ts8)
	SHLQ(U8(3), a.ts8)
	MOVQ(a.rowLen, a.row8)
	SHLQ(U8(3), a.row8)
	Comment("nd: byte columns stored per chunk, min(typesize, 8)")
	MOVQ(U32(8), a.nd)
	CMPQ(a.ts, a.nd)
	CMOVQLT(a.ts, a.nd)
	return a
}

// blockLoop emits the loop over blocks and chunks around body, which sees
// a.jp (source of element 0 of the block, column j0) and a.rb (destination
// of row 8*j0 at this block's column).
func blockLoop(name string, a *args, groups int, body func()) {
	Label(name + "block")
	XORQ(a.j0, a.j0)
	Label(name + "chunk")
	LEAQ(Mem{Base: a.src, Index: a.j0, Scale: 1}, a.jp)
	MOVQ(a.j0, a.rb)
	IMULQ(a.rowLen, a.rb)
	SHLQ(U8(3), a.rb)
	ADDQ(a.dst, a.rb)
	body()
	Comment("next chunk: j0+8, clamped to typesize-8 so the last one overlaps")
	LEAQ(Mem{Base: a.j0, Disp: 8}, a.tmp)
	CMPQ(a.tmp, a.ts)
	JAE(LabelRef(name + "chunksdone"))
	MOVQ(a.tmp, a.j0)
	ADDQ(U8(8), a.tmp)
	CMPQ(a.tmp, a.ts)
	JLS(LabelRef(name + "chunk"))
	MOVQ(a.ts, a.j0)
	SUBQ(U8(8), a.j0)
	JMP(LabelRef(name + "chunk"))
	Label(name + "chunksdone")
	Comment("next block: groups*8 elements on, groups bytes along each row")
	MOVQ(a.ts8, a.tmp)
	IMUL3Q(U32(groups), a.tmp, a.tmp)
	ADDQ(a.tmp, a.src)
	ADDQ(U32(groups), a.dst)
	DECQ(a.blocks)
	JNZ(LabelRef(name + "block"))
	if blockLoopExit != nil {
		blockLoopExit()
		return
	}
	VZEROUPPERIf(name)
	RET()
}

// blockLoopExit, when set, replaces the return at the end of blockLoop
// (the rows kernels loop over rows around it).
var blockLoopExit func()

var usesVEX = map[string]bool{}

// VZEROUPPERIf emits VZEROUPPER when the kernel name, or the one whose
// loop name extends (gfniLoop names its loops kernel+"dense"+ts), uses
// VEX or EVEX registers. Returning with dirty upper halves makes the
// caller's SSE instructions (Go zeroes with X15) pay a penalty on every
// call (the typesize-1 GFNI unshuffle paid it before this looked at the
// prefix; BenchmarkUnshuffleKernels in bitshuffle/bench_test.go shows it
// on small buffers).
func VZEROUPPERIf(name string) {
	for k, v := range usesVEX {
		if v && strings.HasPrefix(name, k) {
			VZEROUPPER()
			return
		}
	}
}

// skipIfDone jumps to label when column d is past the element: d >= nd,
// which for d < 8 is typesize <= d.
func skipIfDone(a *args, d int, label string) {
	CMPQ(a.ts, U8(d))
	JLE(LabelRef(label))
}

func sig() string { return "func(dst, src []byte, typesize, rowLen, blocks int)" }

// ---------------------------------------------------------------- SSE2

func genSSE2() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleSSE2"
		if inverse {
			name = "unshuffleSSE2"
		}
		TEXT(name, NOSPLIT, sig())
		Pragma("noescape")
		Pragma("noescape")
		Doc(name + " handles blocks of 16 elements (2 groups): see the generator.")
		a := loadArgs(inverse)
		masks := [3]reg.VecVirtual{XMM(), XMM(), XMM()}
		for i, m := range roundMasks {
			MOVQ(U64(m), a.tmp)
			MOVQ(a.tmp, masks[i])
			PUNPCKLQDQ(masks[i], masks[i])
		}
		var low reg.VecVirtual
		if inverse {
			low = XMM()
			MOVQ(U64(0x00FF00FF00FF00FF), a.tmp)
			MOVQ(a.tmp, low)
			PUNPCKLQDQ(low, low)
		}
		v := make([]reg.VecVirtual, 8)
		for i := range v {
			v[i] = XMM()
		}
		el, q := GP64(), GP64()
		blockLoop(name, a, 2, func() {
			if !inverse {
				Comment("vector k: byte j0+d of element 8g+k at 2d+g")
				MOVQ(a.jp, el)
				t := XMM()
				for k := 0; k < 8; k++ {
					MOVQ(Mem{Base: el}, v[k])
					MOVQ(Mem{Base: el, Index: a.ts8, Scale: 1}, t)
					PUNPCKLBW(t, v[k])
					if k < 7 {
						ADDQ(a.ts, el)
					}
				}
				transposeSSE2(v, masks)
				Comment("vector b, word d: 2 bytes of bit row 8(j0+d)+b")
				qq, r := GP64(), GP64()
				MOVQ(a.rb, q)
				for b := 0; b < 8; b++ {
					MOVQ(q, qq)
					MOVQ(v[b], r)
					for d := 0; d < 8; d++ {
						if d == 4 {
							PSRLDQ(U8(8), v[b])
							MOVQ(v[b], r)
						}
						skipIfDone(a, d, fmt.Sprintf("%sstored%d", name, b))
						MOVW(r.As16(), Mem{Base: qq})
						if d%4 != 3 {
							SHRQ(U8(16), r)
						}
						ADDQ(a.row8, qq)
					}
					Label(fmt.Sprintf("%sstored%d", name, b))
					ADDQ(a.rowLen, q)
				}
			} else {
				Comment("vector b, word d: 2 bytes of bit row 8(j0+d)+b")
				MOVQ(a.rb, q)
				for b := 0; b < 8; b++ {
					PXOR(v[b], v[b])
				}
				for d := 0; d < 8; d++ {
					skipIfDone(a, d, name+"loaded")
					for b := 0; b < 8; b++ {
						PINSRW(U8(d), Mem{Base: q}, v[b])
						ADDQ(a.rowLen, q)
					}
				}
				Label(name + "loaded")
				transposeSSE2(v, masks)
				Comment("vector k to [g][d]: element 8g+k's 8 bytes in quadword g")
				t := XMM()
				for k := 0; k < 8; k++ {
					MOVO(v[k], t)
					PSRLW(U8(8), t)
					PAND(low, v[k])
					PACKUSWB(t, v[k])
				}
				Comment("stores in address order: later elements repair what earlier ones overran")
				MOVQ(a.jp, el)
				for g := 0; g < 2; g++ {
					for k := 0; k < 8; k++ {
						if g == 0 {
							MOVQ(v[k], Mem{Base: el})
						} else {
							MOVHPS(v[k], Mem{Base: el})
						}
						ADDQ(a.ts, el)
					}
				}
			}
		})
	}
}

// transposeSSE2 swaps bit b of v[k] with bit k of v[b], byte by byte.
func transposeSSE2(v []reg.VecVirtual, masks [3]reg.VecVirtual) {
	t := XMM()
	for r, s := range []int{1, 2, 4} {
		for k := 0; k < 8; k++ {
			if k&s != 0 {
				continue
			}
			A, B := v[k], v[k+s]
			MOVO(A, t)
			PSRLQ(U8(s), t)
			PXOR(B, t)
			PAND(masks[r], t)
			PXOR(t, B)
			PSLLQ(U8(s), t)
			PXOR(t, A)
		}
	}
}

// ---------------------------------------------------------------- AVX2

func genAVX2() {
	for _, inverse := range []bool{false, true} {
		name := "shuffleAVX2"
		if inverse {
			name = "unshuffleAVX2"
		}
		usesVEX[name] = true
		TEXT(name, NOSPLIT, sig())
		Pragma("noescape")
		Pragma("noescape")
		Doc(name + " handles blocks of 32 elements (4 groups): see the generator.")
		a := loadArgs(inverse)
		ts24 := GP64()
		LEAQ(Mem{Base: a.ts8, Index: a.ts8, Scale: 2}, ts24)
		y := make([]reg.VecVirtual, 8)
		for i := range y {
			y[i] = YMM()
		}
		el, q := GP64(), GP64()
		maskMem := [3]Mem{}
		for i, m := range roundMasks {
			maskMem[i] = broadcastConst(fmt.Sprintf("bitshuffleMask%d", i), m, 32)
		}
		blockLoop(name, a, 4, func() {
			if !inverse {
				Comment("vector k: byte j0+d of element 8g+k at 4d+g")
				MOVQ(a.jp, el)
				for k := 0; k < 8; k++ {
					x0, x1, x2, x3 := XMM(), XMM(), XMM(), XMM()
					VMOVQ(Mem{Base: el}, x0)
					VMOVQ(Mem{Base: el, Index: a.ts8, Scale: 1}, x1)
					VPUNPCKLBW(x1, x0, x0)
					VMOVQ(Mem{Base: el, Index: a.ts8, Scale: 2}, x2)
					VMOVQ(Mem{Base: el, Index: ts24, Scale: 1}, x3)
					VPUNPCKLBW(x3, x2, x2)
					VPUNPCKHWD(x2, x0, x1)
					VPUNPCKLWD(x2, x0, x0)
					VINSERTI128(U8(1), x1, x0.AsY(), y[k])
					if k < 7 {
						ADDQ(a.ts, el)
					}
				}
				transposeVEX(y, maskMem, YMM)
				Comment("rows 8(j0+d)+b in order: vector b, dword d")
				MOVQ(a.rb, q)
				for d := 0; d < 8; d++ {
					skipIfDone(a, d, name+"stored")
					if d == 4 {
						for b := 0; b < 8; b++ {
							VEXTRACTI128(U8(1), y[b], y[b].AsX())
						}
					}
					for b := 0; b < 8; b++ {
						VPEXTRD(U8(d%4), y[b].AsX(), Mem{Base: q})
						ADDQ(a.rowLen, q)
					}
				}
				Label(name + "stored")
			} else {
				Comment("vector b, dword d: 4 bytes of bit row 8(j0+d)+b")
				hi := make([]reg.VecVirtual, 8)
				for b := range hi {
					hi[b] = XMM()
					VPXOR(y[b].AsX(), y[b].AsX(), y[b].AsX())
					VPXOR(hi[b], hi[b], hi[b])
				}
				MOVQ(a.rb, q)
				for d := 0; d < 8; d++ {
					skipIfDone(a, d, name+"loaded")
					for b := 0; b < 8; b++ {
						if d < 4 {
							VPINSRD(U8(d), Mem{Base: q}, y[b].AsX(), y[b].AsX())
						} else {
							VPINSRD(U8(d-4), Mem{Base: q}, hi[b], hi[b])
						}
						ADDQ(a.rowLen, q)
					}
				}
				Label(name + "loaded")
				for b := 0; b < 8; b++ {
					VINSERTI128(U8(1), hi[b], y[b], y[b])
				}
				transposeVEX(y, maskMem, YMM)
				Comment("vector k to quadwords per group: 4x4 byte transposes, then pair the lanes")
				shuf := table("bitshuffleT4x4", func() {
					for lane := 0; lane < 2; lane++ {
						for i := 0; i < 16; i += 8 {
							var word uint64
							for j := 0; j < 8; j++ {
								p := i + j // output 4g+d takes input 4d+g
								g, d := p/4, p%4
								word |= uint64(4*d+g) << (8 * j)
							}
							DATA(lane*16+i, U64(word))
						}
					}
				})
				Comment("then dwords [d0-3 of g][d4-7 of g] paired into quadword g")
				pairs := table("bitshufflePairLanes", func() {
					for i, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
						DATA(4*i, U32(v))
					}
				})
				pidx := YMM()
				VMOVDQU(pairs, pidx)
				for k := 0; k < 8; k++ {
					VPSHUFB(shuf, y[k], y[k])
					VPERMD(y[k], pidx, y[k])
				}
				Comment("stores in address order: later elements repair what earlier ones overran")
				MOVQ(a.jp, el)
				for g := 0; g < 4; g++ {
					for k := 0; k < 8; k++ {
						if g == 2 {
							VEXTRACTI128(U8(1), y[k], y[k].AsX())
						}
						if g%2 == 0 {
							VMOVQ(y[k].AsX(), Mem{Base: el})
						} else {
							VPEXTRQ(U8(1), y[k].AsX(), Mem{Base: el})
						}
						ADDQ(a.ts, el)
					}
				}
			}
		})
	}
}

// broadcastConst emits a read-only table of width bytes repeating v.
func broadcastConst(name string, v uint64, width int) Mem {
	return table(name, func() {
		for i := 0; i < width; i += 8 {
			DATA(i, U64(v))
		}
	})
}

// table emits a read-only table the first time name is asked for.
func table(name string, data func()) Mem {
	if m, ok := consts[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	data()
	consts[name] = m
	return m
}

var consts = map[string]Mem{}

// transposeVEX is transposeSSE2 in three-operand form, masks from memory.
func transposeVEX(v []reg.VecVirtual, masks [3]Mem, alloc func() reg.VecVirtual) {
	for r, s := range []int{1, 2, 4} {
		for k := 0; k < 8; k++ {
			if k&s != 0 {
				continue
			}
			A, B := v[k], v[k+s]
			t, u := alloc(), alloc()
			VPSRLQ(U8(s), A, t)
			VPXOR(B, t, t)
			VPAND(masks[r], t, t)
			VPXOR(t, B, B)
			VPSLLQ(U8(s), t, u)
			VPXOR(u, A, A)
		}
	}
}

// ---------------------------------------------------------------- AVX-512

func genAVX512() {
	for _, gfni := range []bool{false} {
		for _, inverse := range []bool{false, true} {
			name := "shuffleAVX512"
			if inverse {
				name = "unshuffleAVX512"
			}
			if gfni {
				name += "GFNI"
			}
			usesVEX[name] = true
			genAVX512Kernel(name, inverse)
		}
	}
}

func genAVX512Kernel(name string, inverse bool) {
	TEXT(name, NOSPLIT, sig())
	Pragma("noescape")
	Doc(name + " handles blocks of 64 elements (8 groups): see the generator.")
	a := loadArgs(inverse)
	z := make([]reg.VecVirtual, 8)
	for i := range z {
		z[i] = ZMM()
	}
	masks := [3]reg.VecVirtual{ZMM(), ZMM(), ZMM()}
	for i, m := range roundMasks {
		MOVQ(U64(m), a.tmp)
		VPBROADCASTQ(a.tmp, masks[i])
	}
	lowBits := table("bitshuffleLowBits", func() {
		for i := 0; i <= 8; i++ {
			DATA(i, U8(uint8(1<<i-1)))
		}
	})
	Comment("8x8 byte transpose within the vector: [g][d] <-> [d][g]")
	perm := ZMM()
	tab := table("bitshuffleT8x8", func() {
		for i := 0; i < 64; i += 8 {
			var word uint64
			for j := 0; j < 8; j++ {
				p := i + j
				word |= uint64(8*(p%8)+p/8) << (8 * j)
			}
			DATA(i, U64(word))
		}
	})
	VMOVDQU64(tab, perm)
	Comment("gather index: element 8g, or bit row 8d, for lane g or d")
	idxEl, idxRow := ZMM(), ZMM()
	k1 := K()
	multiples(a.ts8, idxEl, k1, a.tmp)
	multiples(a.row8, idxRow, k1, a.tmp)
	el, q := GP64(), GP64()
	blockLoop(name, a, 8, func() {
		if !inverse {
			Comment("vector k: byte j0+d of element 8g+k at 8d+g")
			MOVQ(a.jp, el)
			for k := 0; k < 8; k++ {
				KXNORW(k1, k1, k1)
				VPXORQ(z[k], z[k], z[k])
				VPGATHERQQ(Mem{Base: el, Index: idxEl, Scale: 1}, k1, z[k])
				VPERMB(z[k], perm, z[k])
				if k < 7 {
					ADDQ(a.ts, el)
				}
			}
			transposeAVX512(z, masks)
			Comment("rows 8(j0+d)+b in order: vector b, quadword d")
			MOVQ(a.rb, q)
			x := make([]reg.VecVirtual, 8)
			for d := 0; d < 8; d++ {
				skipIfDone(a, d, name+"stored")
				for b := 0; b < 8; b++ {
					if d%2 == 0 {
						x[b] = XMM()
						VEXTRACTI32X4(U8(d/2), z[b], x[b])
						VMOVQ(x[b], Mem{Base: q})
					} else {
						VPEXTRQ(U8(1), x[b], Mem{Base: q})
					}
					ADDQ(a.rowLen, q)
				}
			}
			Label(name + "stored")
		} else {
			Comment("vector b, quadword d: 8 bytes of bit row 8(j0+d)+b, rows past typesize masked off")
			LEAQ(lowBits, a.tmp)
			MOVBQZX(Mem{Base: a.tmp, Index: a.nd, Scale: 1}, a.tmp)
			MOVQ(a.rb, q)
			for b := 0; b < 8; b++ {
				KMOVW(a.tmp.As32(), k1)
				VPXORQ(z[b], z[b], z[b])
				VPGATHERQQ(Mem{Base: q, Index: idxRow, Scale: 1}, k1, z[b])
				if b < 7 {
					ADDQ(a.rowLen, q)
				}
			}
			transposeAVX512(z, masks)
			for k := 0; k < 8; k++ {
				VPERMB(z[k], perm, z[k])
			}
			Comment("stores in address order: later elements repair what earlier ones overran")
			MOVQ(a.jp, el)
			x := make([]reg.VecVirtual, 8)
			for g := 0; g < 8; g++ {
				for k := 0; k < 8; k++ {
					if g%2 == 0 {
						x[k] = XMM()
						VEXTRACTI32X4(U8(g/2), z[k], x[k])
						VMOVQ(x[k], Mem{Base: el})
					} else {
						VPEXTRQ(U8(1), x[k], Mem{Base: el})
					}
					ADDQ(a.ts, el)
				}
			}
		}
	})
}

// multiples sets the quadwords of v to 0, x, 2x, ... 7x by masked adds of
// x, 2x and 4x (AVX512F has no full 64-bit multiply).
func multiples(x reg.GPVirtual, v reg.VecVirtual, k reg.OpmaskVirtual, tmp reg.GPVirtual) {
	x1 := ZMM()
	VPBROADCASTQ(x, x1)
	VPXORQ(v, v, v)
	for i, sel := range []uint8{0xAA, 0xCC, 0xF0} {
		MOVL(U32(uint32(sel)), tmp.As32())
		KMOVW(tmp.As32(), k)
		VPADDQ(x1, v, k, v)
		if i < 2 {
			VPADDQ(x1, x1, x1)
		}
	}
}

// transposeAVX512 is the bit transpose with VPTERNLOGQ doing the mask step.
func transposeAVX512(v []reg.VecVirtual, masks [3]reg.VecVirtual) {
	// (x ^ y) & m with x the destination, y the middle operand, m the first.
	imm := ternary(func(x, y, m bool) bool { return (x != y) && m })
	for r, s := range []int{1, 2, 4} {
		for k := 0; k < 8; k++ {
			if k&s != 0 {
				continue
			}
			A, B := v[k], v[k+s]
			t, u := ZMM(), ZMM()
			VPSRLQ(U8(s), A, t)
			VPTERNLOGQ(U8(imm), masks[r], B, t)
			VPXORQ(t, B, B)
			VPSLLQ(U8(s), t, u)
			VPXORQ(u, A, A)
		}
	}
}

// ternary returns the VPTERNLOG immediate of f(dst, src2, src3).
func ternary(f func(a, b, c bool) bool) uint8 {
	var imm uint8
	for i := 0; i < 8; i++ {
		if f(i&4 != 0, i&2 != 0, i&1 != 0) {
			imm |= 1 << i
		}
	}
	return imm
}
