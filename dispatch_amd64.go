//go:build !purego && !noasm && gc

package blosc

import (
	"unsafe"

	"github.com/goblosc/blosc/internal/byteshuffle"
	"github.com/goblosc/blosc/internal/cpu"
)

// The amd64 kernels come from asmgen/shuffle. A level covers every element
// once the buffer holds one of its blocks: whole blocks, then one more
// block ending at the last element, overlapping the previous one. That
// rewrites some outputs with the values they already hold, harmless since
// src and dst never overlap, and leaves no scalar tail. Kernels that touch
// bytes past their block (see the slack functions) run the blocks where
// those bytes would leave the buffer through a stack buffer. Buffers
// shorter than a block fall through to the narrower levels.

const (
	isaSSE2 = iota
	isaAVX2
	isaAVX512
)

// ntThreshold is the buffer size from which the AVX-512 kernels write with
// non-temporal stores: far past the L2 and a good share of the L3, the
// output will not be read back from cache anyway, and skipping the read of
// every destination line before writing it cuts the traffic beyond the
// caches (the 64 MiB rows of BenchmarkUnshuffleKernels in
// shuffle_bench_test.go show it).
const ntThreshold = 16 << 20

// align64 returns b from its first byte on a 64-byte boundary; b must be
// at least 63 bytes longer than what the caller needs.
func align64(b []byte) []byte {
	mis := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
	return b[(64-mis)&63:]
}

func aligned64(b []byte) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 == 0
}

// alignElements returns the first element e0 < 64 whose bytes start dst
// on a 64-byte boundary, if there is one (for every dst when ts is odd).
func alignElements(dst []byte, ts int) (e0 int, ok bool) {
	mis := int(uintptr(unsafe.Pointer(unsafe.SliceData(dst))) & 63)
	for e := range 64 {
		if (mis+e*ts)&63 == 0 {
			return e, true
		}
	}
	return 0, false
}

func compiledShuffleLevel(l cpu.Level) bool {
	return l == cpu.Generic || l == cpu.SSE2 || l == cpu.AVX2 || l == cpu.AVX512
}

// hasShuffleKernel reports the levels this build and CPU can run: the
// AVX-512 kernels are built on VPERMB/VPERMT2B, so they need VBMI on top of
// the BW that the avx512 level itself guarantees.
func hasShuffleKernel(l cpu.Level) bool {
	return compiledShuffleLevel(l) && (l != cpu.AVX512 || cpu.X86HasVBMI)
}

func pow2(ts int) int {
	p := 2
	for p < ts {
		p *= 2
	}
	return p
}

// blockWidth is the elements per block of each kernel family.
var blockWidth = [...]int{isaSSE2: 16, isaAVX2: 32, isaAVX512: 64}

// slack is how many bytes past a block the kernels of isa touch for ts.
// AVX2 pads elements to a power of two p with 16-byte lane accesses, so
// shuffling reads and unshuffling writes (then repairs) up to 16-16/p*ts
// bytes past the block; the AVX-512 unshuffle stores whole vectors and
// overruns by 128-128/p*ts bytes. Everything else stays inside.
func slack(isa int, unshuffle bool, ts int) int {
	switch {
	case isa == isaAVX2:
		return 16 - 16/pow2(ts)*ts
	case isa == isaAVX512 && unshuffle:
		return 128 - 128/pow2(ts)*ts
	}
	return 0
}

// scratchBytes holds the widest block (64 elements of 16 bytes) plus the
// largest slack.
const scratchBytes = 64*16 + 128

// shuffleCover shuffles all n elements with the kernels of isa (n must be
// at least one block).
func shuffleCover(isa int, dst, src []byte, ts, n int) {
	w := blockWidth[isa]
	p := planBlocks(n, w, ts, len(src), slack(isa, false, ts))
	skewed := isa == isaAVX512 && ts > 8 && n%1024 == 0 && p.direct >= 64
	// With n a multiple of 4096 all 8 streams start at one 4 KiB offset
	// (see vbmiShuffleSplit in asmgen/shuffle).
	split := isa == isaAVX512 && ts == 8 && n%4096 == 0
	p.run(n, w, func(start, blocks int) {
		if skewed && start == 0 {
			shuffleSkewedAVX512(dst, src, ts, n, blocks)
			return
		}
		if split {
			shuffle8AVX512Split(&dst[start], &src[start*ts], n, blocks)
			return
		}
		shuffleBlocks(isa, &dst[start], &src[start*ts], ts, n, blocks)
	}, func(start int) { shuffleScratch(isa, dst, src, ts, n, start) })
}

// shuffleScratch shuffles the block at element start reading a copy of it,
// so the kernel's reads past the block stay in the copy.
func shuffleScratch(isa int, dst, src []byte, ts, n, start int) {
	var tmp [scratchBytes]byte
	w := blockWidth[isa]
	copy(tmp[:], src[start*ts:start*ts+w*ts])
	shuffleBlocks(isa, &dst[start], &tmp[0], ts, n, 1)
}

func unshuffleCover(isa int, dst, src []byte, ts, n int) {
	w := blockWidth[isa]
	planBlocks(n, w, ts, len(dst), slack(isa, true, ts)).run(n, w,
		func(start, blocks int) { unshuffleBlocks(isa, &dst[start*ts], &src[start], ts, n, blocks) },
		func(start int) { unshuffleScratch(isa, dst, src, ts, n, start) })
}

// unshuffleScratch unshuffles the block at element start into a stack
// buffer that takes the kernel's writes past the block, then copies it.
func unshuffleScratch(isa int, dst, src []byte, ts, n, start int) {
	var tmp [scratchBytes]byte
	w := blockWidth[isa]
	unshuffleBlocks(isa, &tmp[0], &src[start], ts, n, 1)
	copy(dst[start*ts:start*ts+w*ts], tmp[:w*ts])
}

// shuffleAsm runs the vector kernels of level, or of a narrower level when
// the buffer is shorter than a block, returning how many leading elements
// it shuffled.
func shuffleAsm(level cpu.Level, dst, src []byte, ts, n int) int {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if n >= 64 {
			if len(src) >= ntThreshold && ts&(ts-1) == 0 && n%64 == 0 && aligned64(dst) {
				shuffleAVX512NT(&dst[0], &src[0], ts, n, n/64)
				return n
			}
			if len(src) >= ntThreshold {
				shuffleShiftedNT(dst, src, ts, n)
				return n
			}
			shuffleCover(isaAVX512, dst, src, ts, n)
			return n
		}
		fallthrough
	case cpu.AVX2:
		if n >= 32 {
			shuffleCover(isaAVX2, dst, src, ts, n)
			return n
		}
		fallthrough
	case cpu.SSE2:
		if n >= 16 && ts&(ts-1) == 0 {
			shuffleCover(isaSSE2, dst, src, ts, n)
			return n
		}
	}
	return 0
}

// unshuffleAsm is shuffleAsm's inverse.
func unshuffleAsm(level cpu.Level, dst, src []byte, ts, n int, bypass bool) int {
	if ts > 16 {
		return 0
	}
	switch level {
	case cpu.AVX512:
		if n >= 64 {
			if e0, ok := alignElements(dst, ts); (len(src) >= ntThreshold || bypass) && ok {
				// The non-temporal kernels write whole blocks from an
				// aligned element and nothing past them, unlike the
				// ordinary ones for typesizes that are not powers of two,
				// so the first and last blocks go through scratch.
				unshuffleAVX512NT(&dst[e0*ts], &src[e0], ts, n, (n-e0)/64)
				if e0 != 0 {
					unshuffleScratch(isaAVX512, dst, src, ts, n, 0)
				}
				if (n-e0)%64 != 0 {
					unshuffleScratch(isaAVX512, dst, src, ts, n, n-64)
				}
				return n
			}
			unshuffleCover(isaAVX512, dst, src, ts, n)
			return n
		}
		fallthrough
	case cpu.AVX2:
		if n >= 32 {
			unshuffleCover(isaAVX2, dst, src, ts, n)
			return n
		}
		fallthrough
	case cpu.SSE2:
		if n >= 16 && ts&(ts-1) == 0 {
			unshuffleCover(isaSSE2, dst, src, ts, n)
			return n
		}
	}
	return 0
}

// shuffleBlocks runs the shuffle kernel of isa for ts on blocks whole blocks
// from d (element or stream side as the kernel expects) and s.
func shuffleBlocks(isa int, d, s *byte, ts, n, blocks int) {
	switch isa {
	case isaAVX512:
		switch ts {
		case 2:
			shuffle2AVX512(d, s, n, blocks)
		case 3:
			byteshuffle.Shuffle3AVX512(d, s, n, blocks)
		case 4:
			shuffle4AVX512(d, s, n, blocks)
		case 5:
			byteshuffle.Shuffle5AVX512(d, s, n, blocks)
		case 6:
			byteshuffle.Shuffle6AVX512(d, s, n, blocks)
		case 7:
			byteshuffle.Shuffle7AVX512(d, s, n, blocks)
		case 8:
			shuffle8AVX512(d, s, n, blocks)
		case 9:
			byteshuffle.Shuffle9AVX512(d, s, n, blocks)
		case 10:
			byteshuffle.Shuffle10AVX512(d, s, n, blocks)
		case 11:
			byteshuffle.Shuffle11AVX512(d, s, n, blocks)
		case 12:
			byteshuffle.Shuffle12AVX512(d, s, n, blocks)
		case 13:
			byteshuffle.Shuffle13AVX512(d, s, n, blocks)
		case 14:
			byteshuffle.Shuffle14AVX512(d, s, n, blocks)
		case 15:
			byteshuffle.Shuffle15AVX512(d, s, n, blocks)
		case 16:
			shuffle16AVX512(d, s, n, blocks)
		}
	case isaAVX2:
		switch ts {
		case 2:
			shuffle2AVX2(d, s, n, blocks)
		case 3:
			shuffle3AVX2(d, s, n, blocks)
		case 4:
			shuffle4AVX2(d, s, n, blocks)
		case 5:
			shuffle5AVX2(d, s, n, blocks)
		case 6:
			shuffle6AVX2(d, s, n, blocks)
		case 7:
			shuffle7AVX2(d, s, n, blocks)
		case 8:
			shuffle8AVX2(d, s, n, blocks)
		case 9:
			shuffle9AVX2(d, s, n, blocks)
		case 10:
			shuffle10AVX2(d, s, n, blocks)
		case 11:
			shuffle11AVX2(d, s, n, blocks)
		case 12:
			shuffle12AVX2(d, s, n, blocks)
		case 13:
			shuffle13AVX2(d, s, n, blocks)
		case 14:
			shuffle14AVX2(d, s, n, blocks)
		case 15:
			shuffle15AVX2(d, s, n, blocks)
		case 16:
			shuffle16AVX2(d, s, n, blocks)
		}
	case isaSSE2:
		switch ts {
		case 2:
			shuffle2SSE2(d, s, n, blocks)
		case 4:
			shuffle4SSE2(d, s, n, blocks)
		case 8:
			shuffle8SSE2(d, s, n, blocks)
		case 16:
			shuffle16SSE2(d, s, n, blocks)
		}
	}
}

// unshuffleBlocks runs the unshuffle kernel of isa for ts on blocks whole blocks
// from d (element or stream side as the kernel expects) and s.
func unshuffleBlocks(isa int, d, s *byte, ts, n, blocks int) {
	switch isa {
	case isaAVX512:
		switch ts {
		case 2:
			unshuffle2AVX512(d, s, n, blocks)
		case 3:
			byteshuffle.Unshuffle3AVX512(d, s, n, blocks)
		case 4:
			unshuffle4AVX512(d, s, n, blocks)
		case 5:
			byteshuffle.Unshuffle5AVX512(d, s, n, blocks)
		case 6:
			byteshuffle.Unshuffle6AVX512(d, s, n, blocks)
		case 7:
			byteshuffle.Unshuffle7AVX512(d, s, n, blocks)
		case 8:
			unshuffle8AVX512(d, s, n, blocks)
		case 9:
			byteshuffle.Unshuffle9AVX512(d, s, n, blocks)
		case 10:
			byteshuffle.Unshuffle10AVX512(d, s, n, blocks)
		case 11:
			byteshuffle.Unshuffle11AVX512(d, s, n, blocks)
		case 12:
			byteshuffle.Unshuffle12AVX512(d, s, n, blocks)
		case 13:
			byteshuffle.Unshuffle13AVX512(d, s, n, blocks)
		case 14:
			byteshuffle.Unshuffle14AVX512(d, s, n, blocks)
		case 15:
			byteshuffle.Unshuffle15AVX512(d, s, n, blocks)
		case 16:
			unshuffle16AVX512(d, s, n, blocks)
		}
	case isaAVX2:
		switch ts {
		case 2:
			unshuffle2AVX2(d, s, n, blocks)
		case 3:
			unshuffle3AVX2(d, s, n, blocks)
		case 4:
			unshuffle4AVX2(d, s, n, blocks)
		case 5:
			unshuffle5AVX2(d, s, n, blocks)
		case 6:
			unshuffle6AVX2(d, s, n, blocks)
		case 7:
			unshuffle7AVX2(d, s, n, blocks)
		case 8:
			unshuffle8AVX2(d, s, n, blocks)
		case 9:
			unshuffle9AVX2(d, s, n, blocks)
		case 10:
			unshuffle10AVX2(d, s, n, blocks)
		case 11:
			unshuffle11AVX2(d, s, n, blocks)
		case 12:
			unshuffle12AVX2(d, s, n, blocks)
		case 13:
			unshuffle13AVX2(d, s, n, blocks)
		case 14:
			unshuffle14AVX2(d, s, n, blocks)
		case 15:
			unshuffle15AVX2(d, s, n, blocks)
		case 16:
			unshuffle16AVX2(d, s, n, blocks)
		}
	case isaSSE2:
		switch ts {
		case 2:
			unshuffle2SSE2(d, s, n, blocks)
		case 4:
			unshuffle4SSE2(d, s, n, blocks)
		case 8:
			unshuffle8SSE2(d, s, n, blocks)
		case 16:
			unshuffle16SSE2(d, s, n, blocks)
		}
	}
}

// shuffleAVX512NT runs the non-temporal kernels for power-of-two
// typesizes (n%64 == 0), unshuffleAVX512NT those for every typesize.
func shuffleAVX512NT(d, s *byte, ts, n, blocks int) {
	switch ts {
	case 2:
		shuffle2AVX512NT(d, s, n, blocks)
	case 4:
		shuffle4AVX512NT(d, s, n, blocks)
	case 8:
		shuffle8AVX512NT(d, s, n, blocks)
	case 16:
		shuffle16AVX512NT(d, s, n, blocks)
	}
}

func unshuffleAVX512NT(d, s *byte, ts, n, blocks int) {
	switch ts {
	case 3:
		unshuffle3AVX512NT(d, s, n, blocks)
	case 5:
		unshuffle5AVX512NT(d, s, n, blocks)
	case 6:
		unshuffle6AVX512NT(d, s, n, blocks)
	case 7:
		unshuffle7AVX512NT(d, s, n, blocks)
	case 9:
		unshuffle9AVX512NT(d, s, n, blocks)
	case 10:
		unshuffle10AVX512NT(d, s, n, blocks)
	case 11:
		unshuffle11AVX512NT(d, s, n, blocks)
	case 12:
		unshuffle12AVX512NT(d, s, n, blocks)
	case 13:
		unshuffle13AVX512NT(d, s, n, blocks)
	case 14:
		unshuffle14AVX512NT(d, s, n, blocks)
	case 15:
		unshuffle15AVX512NT(d, s, n, blocks)
	case 2:
		unshuffle2AVX512NT(d, s, n, blocks)
	case 4:
		unshuffle4AVX512NT(d, s, n, blocks)
	case 8:
		unshuffle8AVX512NT(d, s, n, blocks)
	case 16:
		unshuffle16AVX512NT(d, s, n, blocks)
	}
}

// shuffleShiftedNT is the non-temporal shuffle of buffers whose streams do
// not all start on a 64-byte boundary; n must be at least 128. The kernel
// starts at block 1, so that the first line of each stream, which it fills
// partly with bytes it has not computed, starts inside block 0 of that
// stream and never before dst; an ordinary kernel then rewrites block 0,
// the last whole block and the partial one, which also fills in the bytes
// the kernel leaves at the end of each stream.
//
// Both tables sit on 64-byte boundaries: the typesize 11 kernel stores one
// stream's vector to prev and reloads it in the next block, which needs
// store forwarding (see shuffleSkewedAVX512), and each idx load then
// touches one cache line.
func shuffleShiftedNT(dst, src []byte, ts, n int) {
	var idxBuf, prevBuf [16*64 + 63]byte
	idx := align64(idxBuf[:])[:16*64]
	prev := align64(prevBuf[:])[:16*64]
	base := uintptr(unsafe.Pointer(&dst[0]))
	for j := 0; j < ts; j++ {
		a := int((base + uintptr(j*n)) & 63)
		for q := range 64 {
			idx[64*j+q] = byte((q - a) & 127)
		}
	}
	blocks := n / 64
	shuffleShiftedAVX512(&dst[64], &src[64*ts], ts, n, blocks-1, &idx[0], &prev[0])
	last := (blocks - 1) * 64
	shuffleBlocks(isaAVX512, &dst[0], &src[0], ts, n, 1)
	shuffleBlocks(isaAVX512, &dst[last], &src[last*ts], ts, n, 1)
	if n%64 != 0 {
		shuffleBlocks(isaAVX512, &dst[n-64], &src[(n-64)*ts], ts, n, 1)
	}
}

func shuffleShiftedAVX512(d, s *byte, ts, n, blocks int, idx, prev *byte) {
	switch ts {
	case 2:
		shuffle2AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 3:
		shuffle3AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 4:
		shuffle4AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 5:
		shuffle5AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 6:
		shuffle6AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 7:
		shuffle7AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 8:
		shuffle8AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 9:
		shuffle9AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 10:
		shuffle10AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 11:
		shuffle11AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 12:
		shuffle12AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 13:
		shuffle13AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 14:
		shuffle14AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 15:
		shuffle15AVX512NTShifted(d, s, n, blocks, idx, prev)
	case 16:
		shuffle16AVX512NTShifted(d, s, n, blocks, idx, prev)
	}
}

// shuffleSkewedAVX512 shuffles the first blocks blocks (at least 64) with
// the skewed kernels (typesizes 9..16), for n a multiple of 1 KiB: there the streams' lines
// of a block share at most 4 offsets modulo 4 KiB, and Zen 4 stores several
// lines at one such offset at a fraction of its usual rate (see
// vbmiShuffleSkewed in asmgen/shuffle). The ordinary kernel rewrites the
// ends the skewed one leaves wrong or unwritten.
// The ring the kernel stores vectors to and reloads from sits on a 64-byte
// boundary: a 64-byte store that straddles two cache lines cannot be
// forwarded to the load that reads it back, which stalls every block
// (the shifted kernel, when it kept its vectors in memory, ran several
// times slower in BenchmarkShuffleKernels at ts=7 depending only on where
// the stack fell).
func shuffleSkewedAVX512(dst, src []byte, ts, n, blocks int) {
	var ringBuf [16*8*64 + 63]byte
	ring := align64(ringBuf[:])[:16*8*64]
	const lead = 7 // the skew depth less one
	switch ts {
	case 9:
		shuffle9AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 10:
		shuffle10AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 11:
		shuffle11AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 12:
		shuffle12AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 13:
		shuffle13AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 14:
		shuffle14AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 15:
		shuffle15AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	case 16:
		shuffle16AVX512Skewed(&dst[lead*64], &src[lead*64*ts], n, blocks-lead, &ring[0])
	}
	shuffleBlocks(isaAVX512, &dst[0], &src[0], ts, n, lead)
	shuffleBlocks(isaAVX512, &dst[(blocks-lead)*64], &src[(blocks-lead)*64*ts], ts, n, lead)
}

// canBypass reports whether unshuffleBypass skips the caches for
// typesize: the AVX-512 kernels have non-temporal forms for typesizes 2 to
// 16.
func canBypass(typesize int) bool {
	return currentShuffleLevel() == cpu.AVX512 && typesize >= 2 && typesize <= 16
}

// canUnshuffleStreams reports whether unshuffleStreams can unshuffle n
// elements of ts bytes: the AVX-512 level (whose CPU has VBMI), a power
// of two ts up to 16 (whose kernels write nothing past their blocks) and
// at least one block.
func canUnshuffleStreams(ts, n int) bool {
	return currentShuffleLevel() == cpu.AVX512 && n >= 64 && ts >= 2 && ts <= 16 && ts&(ts-1) == 0
}

// unshuffleStreams is Unshuffle for n elements of ts bytes whose streams
// are not side by side: byte j of every element comes from the n bytes at
// streams[j]. A Blosc2 block whose streams are partly stored raw is
// unshuffled from the chunk and the scratch buffer at once with it. The
// caller has checked canUnshuffleStreams(ts, n), that dst holds n*ts
// bytes and that each of streams[0:ts] starts n readable bytes.
func unshuffleStreams(dst []byte, streams *[16]*byte, ts, n int) {
	_ = dst[n*ts-1]
	unshuffleStreamsBlocks(&dst[0], streams, ts, 0, n/64)
	if n%64 != 0 {
		// One more block ending at the last element, rewriting some
		// outputs with what they already hold.
		unshuffleStreamsBlocks(&dst[(n-64)*ts], streams, ts, n-64, 1)
	}
}

// canUnshuffleRows reports whether unshuffleRows has a kernel for
// elements of ts bytes: 2, 4 and 8 at the AVX-512 and AVX2 levels.
func canUnshuffleRows(ts int) bool { return canRows(ts) }

// canRows reports whether both row kernels exist for elements of ts
// bytes at the current level.
func canRows(ts int) bool {
	l := currentShuffleLevel()
	return (l == cpu.AVX512 || l == cpu.AVX2) && (ts == 2 || ts == 4 || ts == 8)
}

// rowsMinItems is the fewest items in a row that the row kernels of the
// current level should be given: the AVX2 ones, without byte masks, take
// a row shorter than 16 items through a copy on the stack, which made a
// 3-D box read from rows of a few items two to three times slower than
// the copies it replaced (BenchmarkB2NDVersusC, GOBLOSC_KERNEL=avx2); the
// callers leave such rows to the copies.
func rowsMinItems() int {
	if currentShuffleLevel() == cpu.AVX2 {
		return 16
	}
	return 1
}

// unshuffleRows unshuffles n1 rows of row elements of ts bytes, row k
// from element sp+k*ss of the streams into dst[k*ds:]. The caller has
// checked canUnshuffleRows(ts), row and n1 positive, and that every row
// lies inside dst and each of streams[0:ts]'s buffers.
func unshuffleRows(dst []byte, streams *[16]*byte, ts, sp, row, n1, ds, ss int) {
	if currentShuffleLevel() == cpu.AVX2 {
		switch ts {
		case 2:
			unshuffle2AVX2Rows(&dst[0], streams, sp, row, n1, ds, ss)
		case 4:
			unshuffle4AVX2Rows(&dst[0], streams, sp, row, n1, ds, ss)
		default:
			unshuffle8AVX2Rows(&dst[0], streams, sp, row, n1, ds, ss)
		}
		return
	}
	switch ts {
	case 2:
		m0, m1 := rowMasksSmall(2, row)
		unshuffle2AVX512Rows(&dst[0], streams, sp, row, n1, ds, ss, m0, m1)
	case 4:
		m0, m1 := rowMasksSmall(4, row)
		unshuffle4AVX512Rows(&dst[0], streams, sp, row, n1, ds, ss, m0, m1)
	default:
		m0, m1, m2 := rowMasks(row)
		unshuffle8AVX512Rows(&dst[0], streams, sp, row, n1, ds, ss, m0, m1, m2)
	}
}

// canShuffleRows reports whether shuffleRows has a kernel for elements
// of ts bytes: those of canUnshuffleRows.
func canShuffleRows(ts int) bool { return canRows(ts) }

// shuffleRows shuffles n1 rows of row elements of ts bytes into ts
// streams n bytes apart (byte j of element e at dst[j*n+e]), row k from
// src[k*ss:] to element k*ds of the streams, prefetching the bytes pf
// past each it reads (a prefetch never faults). The caller has checked canShuffleRows(ts), row and n1
// positive, and that every row lies inside src and the streams.
func shuffleRows(dst, src []byte, ts, n, row, n1, ds, ss, pf int) {
	if currentShuffleLevel() == cpu.AVX2 {
		switch ts {
		case 2:
			shuffle2AVX2Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf)
		case 4:
			shuffle4AVX2Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf)
		default:
			shuffle8AVX2Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf)
		}
		return
	}
	switch ts {
	case 2:
		m0, m1 := rowMasksSmall(2, row)
		shuffle2AVX512Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf, m0, m1)
	case 4:
		m0, m1 := rowMasksSmall(4, row)
		shuffle4AVX512Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf, m0, m1)
	default:
		m0, m1, m2 := rowMasks(row)
		shuffle8AVX512Rows(&dst[0], &src[0], n, row, n1, ds, ss, pf, m0, m1, m2)
	}
}

// rowMasksSmall returns the masks of a row's last elements of ts (2 or
// 4) bytes, fewer than a vector's 64/ts: their bytes of a stream, then
// their bytes in the row.
func rowMasksSmall(ts, row int) (m0, m1 uint64) {
	t := uint(row % (64 / ts))
	return uint64(1)<<t - 1, uint64(1)<<(t*uint(ts)) - 1
}

// rowMasks returns the masks of a row's last row%16 elements of 8 bytes:
// their bytes of a stream, then of the first and second 64 bytes of
// their place in the row.
func rowMasks(row int) (m0, m1, m2 uint64) {
	t := uint(row % 16)
	m0 = uint64(1)<<t - 1
	m1 = uint64(1)<<(8*min(t, 8)) - 1
	if t >= 8 {
		m1 = ^uint64(0)
	}
	if t > 8 {
		m2 = uint64(1)<<(8*(t-8)) - 1
	}
	return m0, m1, m2
}

func unshuffleStreamsBlocks(d *byte, streams *[16]*byte, ts, off, blocks int) {
	switch ts {
	case 2:
		unshuffle2AVX512Streams(d, streams, off, blocks)
	case 4:
		unshuffle4AVX512Streams(d, streams, off, blocks)
	case 8:
		unshuffle8AVX512Streams(d, streams, off, blocks)
	case 16:
		unshuffle16AVX512Streams(d, streams, off, blocks)
	}
}
