package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The row kernels of the other typesizes and levels: the same contract as
// vbmiShuffleRows8 and vbmiUnshuffleRows8 (rows of a block moved straight
// between the caller's buffer and the block's streams, nothing outside
// the rows touched), for 2- and 4-byte elements with AVX-512 VBMI and for
// 2-, 4- and 8-byte elements with AVX2.

// vbmiRowsSmall emits the AVX-512 row kernels of ts = 2 or 4 bytes: a row
// is taken 64 bytes, 64/ts elements, at a time, which one VPERMB turns
// into 64/ts bytes of each stream (a lane of each for ts 4, a half for
// ts 2), or back. A row's last elements, fewer than 64/ts, go through
// masks: K1 their bytes of a stream, K2 their bytes in the row.
func vbmiRowsSmall(ts int) {
	e := 64 / ts // elements per vector, bytes of each stream per vector
	// part is a vector of one stream's e bytes.
	part := func() VecVirtual {
		if ts == 4 {
			return XMM()
		}
		return YMM()
	}
	extract := func(z VecVirtual, l int, m Mem) {
		if ts == 4 {
			VEXTRACTI32X4(U8(l), z, m)
		} else {
			VEXTRACTI64X4(U8(l), z, m)
		}
	}
	masks := func() {
		for i, k := range []Register{K1, K2} {
			m := Load(Param(fmt.Sprintf("m%d", i)), GP64())
			KMOVQ(m, k)
		}
	}
	shift := log2(e)

	{
		name := fmt.Sprintf("shuffle%dAVX512Rows", ts)
		TEXT(name, NOSPLIT, "func(dst *byte, src *byte, n int, row int, n1 int, ds int, ss int, pf int, m0 uint64, m1 uint64)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s shuffles n1 rows of row elements of %d bytes into %d streams n bytes apart, row k from src+k*ss into dst+k*ds of each stream, prefetching pf bytes past each 64 bytes of a row it reads; m0 and m1 mask the last row%%%d elements' bytes of a stream and of the row.", name, ts, ts, e))
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
		// Byte q of the output is element q%e's byte q/e, stream q/e.
		perm := loadZ(table64(fmt.Sprintf("srows%dV", ts), func(q int) int {
			return ts*(q%e) + q/e
		}))
		full, tail := GP64(), GP64()
		MOVQ(row, full)
		SHRQ(U8(shift), full)
		MOVQ(row, tail)
		ANDQ(U8(e-1), tail)
		masks()
		var n3 Register
		if ts == 4 {
			n3 = GP64()
			LEAQ(Mem{Base: n, Index: n, Scale: 2}, n3)
		}
		s, d, c := GP64(), GP64(), GP64()
		stream := func(st int) Mem {
			switch st {
			case 0:
				return Mem{Base: d}
			case 1:
				return Mem{Base: d, Index: n, Scale: 1}
			case 2:
				return Mem{Base: d, Index: n, Scale: 2}
			}
			return Mem{Base: d, Index: n3, Scale: 1}
		}
		Label("row")
		MOVQ(src, s)
		MOVQ(dst, d)
		MOVQ(full, c)
		TESTQ(c, c)
		JZ(LabelRef("tail"))
		Label("full")
		PREFETCHT0(Mem{Base: s, Index: pf, Scale: 1})
		z := ZMM()
		VPERMB(Mem{Base: s}, perm, z)
		if ts == 4 {
			VMOVDQU(z.AsX(), stream(0))
		} else {
			VMOVDQU(z.AsY(), stream(0))
		}
		for st := 1; st < ts; st++ {
			extract(z, st, stream(st))
		}
		ADDQ(U8(64), s)
		ADDQ(U8(e), d)
		DECQ(c)
		JNZ(LabelRef("full"))
		Label("tail")
		TESTQ(tail, tail)
		JZ(LabelRef("next"))
		z = ZMM()
		VMOVDQU8_Z(Mem{Base: s}, K2, z)
		VPERMB(z, perm, z)
		for st := 0; st < ts; st++ {
			x := part()
			if st == 0 {
				if ts == 4 {
					x = z.AsX().(VecVirtual)
				} else {
					x = z.AsY().(VecVirtual)
				}
			} else if ts == 4 {
				VEXTRACTI32X4(U8(st), z, x)
			} else {
				VEXTRACTI64X4(U8(st), z, x)
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

	{
		name := fmt.Sprintf("unshuffle%dAVX512Rows", ts)
		TEXT(name, NOSPLIT, "func(dst *byte, streams *[16]*byte, sp int, row int, n1 int, ds int, ss int, m0 uint64, m1 uint64)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s unshuffles n1 rows of row elements of %d bytes from %d streams anywhere in memory, row k from streams[j]+sp+k*ss into dst+k*ds; m0 and m1 mask the last row%%%d elements' bytes of a stream and of the row.", name, ts, ts, e))
		dst := Load(Param("dst"), GP64())
		tbl := Load(Param("streams"), GP64())
		sp := Load(Param("sp"), GP64())
		row := Load(Param("row"), GP64())
		n1 := Load(Param("n1"), GP64())
		ds := Load(Param("ds"), GP64())
		ss := Load(Param("ss"), GP64())
		TESTQ(n1, n1)
		JZ(LabelRef("done"))
		// Output byte q is element q/ts's byte of stream q%ts, which
		// sits in part q%ts of the vector of streams.
		perm := loadZ(table64(fmt.Sprintf("rows%dV", ts), func(q int) int {
			return e*(q%ts) + q/ts
		}))
		full, tail := GP64(), GP64()
		MOVQ(row, full)
		SHRQ(U8(shift), full)
		MOVQ(row, tail)
		ANDQ(U8(e-1), tail)
		masks()
		ix, d, c := GP64(), GP64(), GP64()
		// gather loads e elements of the streams at ix into a vector,
		// stream j in part j.
		gather := func(load func(a Mem, x VecVirtual)) VecVirtual {
			var z VecVirtual
			for st := 0; st < ts; st++ {
				p := GP64()
				MOVQ(Mem{Base: tbl, Disp: 8 * st}, p)
				x := part()
				load(Mem{Base: p, Index: ix, Scale: 1}, x)
				if st == 0 {
					// A VEX or zeroing load cleared the vector above it.
					z = x.AsZ().(VecVirtual)
				} else if ts == 4 {
					VINSERTI32X4(U8(st), x, z, z)
				} else {
					VINSERTI64X4(U8(st), x, z, z)
				}
			}
			VPERMB(z, perm, z)
			return z
		}
		Label("row")
		MOVQ(sp, ix)
		MOVQ(dst, d)
		MOVQ(full, c)
		TESTQ(c, c)
		JZ(LabelRef("tail"))
		Label("full")
		z := gather(func(a Mem, x VecVirtual) { VMOVDQU(a, x) })
		VMOVDQU64(z, Mem{Base: d})
		ADDQ(U8(e), ix)
		ADDQ(U8(64), d)
		DECQ(c)
		JNZ(LabelRef("full"))
		Label("tail")
		TESTQ(tail, tail)
		JZ(LabelRef("next"))
		z = gather(func(a Mem, x VecVirtual) { VMOVDQU8_Z(a, K1, x) })
		VMOVDQU8(z, K2, Mem{Base: d})
		Label("next")
		ADDQ(ss, sp)
		ADDQ(ds, dst)
		DECQ(n1)
		JNZ(LabelRef("row"))
		Label("done")
		VZEROUPPER()
		RET()
	}
}

// table32 is a VPSHUFB table of two equal lanes, byte i of each from
// f(i).
func table32(name string, f func(i int) int) Mem {
	if m, ok := tables[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	tables[name] = m
	for i := 0; i < 32; i++ {
		DATA(i, U8(f(i%16)))
	}
	return m
}

// avx2Rows emits the AVX2 row kernels of ts = 2, 4 or 8 bytes. A row is
// taken 16 elements at a time, 16 bytes of each stream: the 16*ts bytes
// are loaded a lane at a time so that a VPSHUFB, none to two unpack
// passes and a VPERMQ leave two streams per vector, and the unshuffle
// undoes the same steps (VSHUFPS undoing the dword unpack). AVX2 has no
// byte masks: a row's last elements, fewer than 16, are done again as
// the row's last 16 (rewriting some with what they already hold), and a
// row shorter than 16 goes through a copy on the stack.
func avx2Rows(ts int) {
	in := 16 * ts // bytes of a step's elements
	// The in-lane transpose of 16/ts elements: byte i of stream j, out
	// at (16/ts)*j+i, from ts*i+j.
	k := 16 / ts
	tr := table32(fmt.Sprintf("rowsT%d", ts), func(o int) int { return ts*(o%k) + o/k })
	// Its inverse (the same table for ts 4).
	un := tr
	if ts != 4 {
		un = table32(fmt.Sprintf("rowsU%d", ts), func(o int) int { return k*(o%ts) + o/ts })
	}
	var group Mem
	if ts == 8 {
		// Words 0, 2, 4, 6 then 1, 3, 5, 7.
		group = table32("rowsG8", func(o int) int {
			w := []int{0, 2, 4, 6, 1, 3, 5, 7}[o/2]
			return 2*w + o%2
		})
	}

	// shuffleStep shuffles the 16 elements at s into stream(j) for j <
	// ts, with the transpose table in Y15.
	shuffleStep := func(s Register, stream func(st int) Mem) {
		half := in / 2
		regs := ts / 2 // vectors of a step: two lanes of 16 bytes each
		for r := 0; r < regs; r++ {
			VMOVDQU(Mem{Base: s, Disp: 16 * r}, X(r))
			VINSERTI128(U8(1), Mem{Base: s, Disp: half + 16*r}, Y(r), Y(r))
			VPSHUFB(Y15, Y(r), Y(r))
		}
		var out []VecPhysical
		switch ts {
		case 2:
			out = []VecPhysical{Y0}
		case 4:
			VPUNPCKLDQ(Y1, Y0, Y2)
			VPUNPCKHDQ(Y1, Y0, Y3)
			out = []VecPhysical{Y2, Y3}
		default:
			VPUNPCKLWD(Y1, Y0, Y4)
			VPUNPCKHWD(Y1, Y0, Y5)
			VPUNPCKLWD(Y3, Y2, Y6)
			VPUNPCKHWD(Y3, Y2, Y7)
			VPUNPCKLDQ(Y6, Y4, Y0)
			VPUNPCKHDQ(Y6, Y4, Y1)
			VPUNPCKLDQ(Y7, Y5, Y2)
			VPUNPCKHDQ(Y7, Y5, Y3)
			out = []VecPhysical{Y0, Y1, Y2, Y3}
		}
		for i, y := range out {
			VPERMQ(U8(0xd8), y, y)
			VMOVDQU(X(yIndex(y)), stream(2*i))
			VEXTRACTI128(U8(1), y, stream(2*i+1))
		}
	}
	// unshuffleStep unshuffles 16 elements from load(j) into
	// store(r) (lane 0 of vector r) and store(r+ts/2) (lane 1), with
	// the transpose tables in Y15 and Y14.
	unshuffleStep := func(load func(st int) Mem, store func(i int) Mem) {
		for i := 0; i < ts/2; i++ {
			VMOVDQU(load(2*i), X(i))
			VINSERTI128(U8(1), load(2*i+1), Y(i), Y(i))
			VPERMQ(U8(0xd8), Y(i), Y(i))
		}
		var rows []VecPhysical
		switch ts {
		case 2:
			rows = []VecPhysical{Y0}
		case 4:
			VSHUFPS(U8(0x88), Y1, Y0, Y2)
			VSHUFPS(U8(0xdd), Y1, Y0, Y3)
			rows = []VecPhysical{Y2, Y3}
		default:
			VSHUFPS(U8(0x88), Y1, Y0, Y4)
			VSHUFPS(U8(0xdd), Y1, Y0, Y6)
			VSHUFPS(U8(0x88), Y3, Y2, Y5)
			VSHUFPS(U8(0xdd), Y3, Y2, Y7)
			for _, y := range []VecPhysical{Y4, Y5, Y6, Y7} {
				VPSHUFB(Y14, y, y)
			}
			VPUNPCKLQDQ(Y5, Y4, Y0)
			VPUNPCKHQDQ(Y5, Y4, Y1)
			VPUNPCKLQDQ(Y7, Y6, Y2)
			VPUNPCKHQDQ(Y7, Y6, Y3)
			rows = []VecPhysical{Y0, Y1, Y2, Y3}
		}
		for r, y := range rows {
			VPSHUFB(Y15, y, y)
			VMOVDQU(X(yIndex(y)), store(r))
			VEXTRACTI128(U8(1), y, store(r+ts/2))
		}
	}
	// copyElems copies cnt elements of ts bytes from a to b.
	copyElems := func(from, to Register, cnt Register, label string) {
		i, t := GP64(), GP64()
		XORQ(i, i)
		Label(label)
		switch ts {
		case 8:
			MOVQ(Mem{Base: from, Index: i, Scale: 8}, t)
			MOVQ(t, Mem{Base: to, Index: i, Scale: 8})
		case 4:
			MOVL(Mem{Base: from, Index: i, Scale: 4}, t.As32())
			MOVL(t.As32(), Mem{Base: to, Index: i, Scale: 4})
		default:
			MOVWLZX(Mem{Base: from, Index: i, Scale: 2}, t.As32())
			MOVW(t.As16(), Mem{Base: to, Index: i, Scale: 2})
		}
		INCQ(i)
		CMPQ(i, cnt)
		JB(LabelRef(label))
	}
	copyBytes := func(from Mem, to Register, cnt Register, label string) {
		i, t := GP64(), GP64()
		XORQ(i, i)
		Label(label)
		from.Index, from.Scale = i, 1
		MOVBLZX(from, t.As32())
		MOVB(t.As8(), Mem{Base: to, Index: i, Scale: 1})
		INCQ(i)
		CMPQ(i, cnt)
		JB(LabelRef(label))
	}

	{
		name := fmt.Sprintf("shuffle%dAVX2Rows", ts)
		TEXT(name, NOSPLIT, "func(dst *byte, src *byte, n int, row int, n1 int, ds int, ss int, pf int)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s shuffles n1 rows of row elements of %d bytes into %d streams n bytes apart, row k from src+k*ss into dst+k*ds of each stream, prefetching pf bytes past each 64 bytes of a row it reads.", name, ts, ts))
		buf := AllocLocal(2 * in) // a short row, then its streams
		dst := Load(Param("dst"), GP64())
		src := Load(Param("src"), GP64())
		n := Load(Param("n"), GP64())
		row := Load(Param("row"), GP64())
		n1 := Load(Param("n1"), GP64())
		pf := Load(Param("pf"), GP64())
		TESTQ(n1, n1)
		JZ(LabelRef("done"))
		VMOVDQU(tr, Y15)
		n3 := GP64()
		LEAQ(Mem{Base: n, Index: n, Scale: 2}, n3)
		s, d, d4, c := GP64(), GP64(), GP64(), GP64()
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
		Label("row")
		MOVQ(src, s)
		MOVQ(dst, d)
		if ts == 8 {
			LEAQ(Mem{Base: dst, Index: n, Scale: 4}, d4)
		}
		MOVQ(row, c)
		SHRQ(U8(4), c)
		JZ(LabelRef("short"))
		Label("full")
		for off := 0; off < in; off += 64 {
			PREFETCHT0(Mem{Base: s, Index: pf, Scale: 1, Disp: off})
		}
		shuffleStep(s, stream)
		ADDQ(U32(in), s)
		ADDQ(U8(16), d)
		if ts == 8 {
			ADDQ(U8(16), d4)
		}
		DECQ(c)
		JNZ(LabelRef("full"))
		// The row's last 16 elements, row%16 of them not done yet.
		back := GP64()
		MOVQ(row, back)
		ANDQ(U8(15), back)
		JZ(LabelRef("next"))
		SUBQ(U8(16), back)
		ADDQ(back, d)
		if ts == 8 {
			ADDQ(back, d4)
		}
		SHLQ(U8(log2(ts)), back)
		ADDQ(back, s)
		shuffleStep(s, stream)
		JMP(LabelRef("next"))
		Label("short")
		// A row of fewer than 16 elements: shuffled on the stack.
		b := GP64()
		LEAQ(buf, b)
		copyElems(s, b, row, "in")
		shuffleStep(b, func(st int) Mem { return Mem{Base: b, Disp: in + 16*st} })
		for st := 0; st < ts; st++ {
			p := GP64()
			LEAQ(stream(st), p)
			copyBytes(Mem{Base: b, Disp: in + 16*st}, p, row, fmt.Sprintf("out%d", st))
		}
		Label("next")
		// The strides are loaded each row, sparing two registers.
		ADDQ(Load(Param("ss"), GP64()), src)
		ADDQ(Load(Param("ds"), GP64()), dst)
		DECQ(n1)
		JNZ(LabelRef("row"))
		Label("done")
		VZEROUPPER()
		RET()
	}

	{
		name := fmt.Sprintf("unshuffle%dAVX2Rows", ts)
		TEXT(name, NOSPLIT, "func(dst *byte, streams *[16]*byte, sp int, row int, n1 int, ds int, ss int)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s unshuffles n1 rows of row elements of %d bytes from %d streams anywhere in memory, row k from streams[j]+sp+k*ss into dst+k*ds.", name, ts, ts))
		buf := AllocLocal(2 * in) // a short row's streams, then the row
		dst := Load(Param("dst"), GP64())
		tbl := Load(Param("streams"), GP64())
		sp := Load(Param("sp"), GP64())
		row := Load(Param("row"), GP64())
		n1 := Load(Param("n1"), GP64())
		TESTQ(n1, n1)
		JZ(LabelRef("done"))
		VMOVDQU(un, Y15)
		if ts == 8 {
			VMOVDQU(group, Y14)
		}
		ix, d, c := GP64(), GP64(), GP64()
		fromStreams := func(st int) Mem {
			p := GP64()
			MOVQ(Mem{Base: tbl, Disp: 8 * st}, p)
			return Mem{Base: p, Index: ix, Scale: 1}
		}
		toRow := func(i int) Mem { return Mem{Base: d, Disp: 16 * i} }
		Label("row")
		MOVQ(sp, ix)
		MOVQ(dst, d)
		MOVQ(row, c)
		SHRQ(U8(4), c)
		JZ(LabelRef("short"))
		Label("full")
		unshuffleStep(fromStreams, toRow)
		ADDQ(U8(16), ix)
		ADDQ(U32(in), d)
		DECQ(c)
		JNZ(LabelRef("full"))
		back := GP64()
		MOVQ(row, back)
		ANDQ(U8(15), back)
		JZ(LabelRef("next"))
		SUBQ(U8(16), back)
		ADDQ(back, ix)
		SHLQ(U8(log2(ts)), back)
		ADDQ(back, d)
		unshuffleStep(fromStreams, toRow)
		JMP(LabelRef("next"))
		Label("short")
		// A row of fewer than 16 elements: unshuffled on the stack.
		b := GP64()
		LEAQ(buf, b)
		for st := 0; st < ts; st++ {
			p := GP64()
			MOVQ(Mem{Base: tbl, Disp: 8 * st}, p)
			ADDQ(ix, p)
			q := GP64()
			LEAQ(Mem{Base: b, Disp: 16 * st}, q)
			copyBytes(Mem{Base: p}, q, row, fmt.Sprintf("in%d", st))
		}
		unshuffleStep(func(st int) Mem { return Mem{Base: b, Disp: 16 * st} },
			func(i int) Mem { return Mem{Base: b, Disp: in + 16*i} })
		o := GP64()
		LEAQ(Mem{Base: b, Disp: in}, o)
		copyElems(o, d, row, "out")
		Label("next")
		ADDQ(Load(Param("ss"), GP64()), sp)
		ADDQ(Load(Param("ds"), GP64()), dst)
		DECQ(n1)
		JNZ(LabelRef("row"))
		Label("done")
		VZEROUPPER()
		RET()
	}
}

// yIndex is the number of a physical Y register.
func yIndex(y VecPhysical) int {
	for i := 0; i < 16; i++ {
		if Y(i) == y {
			return i
		}
	}
	panic("not a Y register")
}
