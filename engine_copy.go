package blosc

import (
	"runtime"
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// Whole-chunk copies (a memcpyed chunk's bytes, an incompressible input
// stored as is, a raw stream) go through copyOut rather than copy.
//
// The runtime's memmove on amd64 switches to non-temporal stores for
// copies of memmoveNTMin bytes and more wherever it runs its AVX loop: on
// AMD always, on Intel (which has ERMS and FSRM, and then prefers REP
// MOVSQ) whenever the destination is not 16-byte aligned. Those stores
// send every line to memory and evict it, which pays when the output is
// far larger than the caches and costs when it is not: on a Xeon
// (Sapphire Rapids class, 2 MiB L2) a 1 MiB copy to a destination 8 bytes
// past a page boundary ran at 20 GB/s against 32 GB/s for the same copy to
// an aligned one, or for glibc's memcpy to either (which stays in cache
// up to a threshold in the hundreds of MiB there), and at 4, 8 and 16 MiB
// 9-11 GB/s against 13-15. A decoder's output is usually read right
// after, from the caches. Copying in pieces below memmoveNTMin keeps
// memmove on its cached paths whatever the alignment and the vendor.
const (
	memmoveNTMin = 1 << 20   // runtime/memmove_amd64.s: gobble_big_data_fwd
	copyPiece    = 512 << 10 // below memmoveNTMin, many times the call's cost
	splitCopies  = runtime.GOARCH == "amd64"
)

// repMovsMin is the size from which memmove on CPUs with ERMS and FSRM
// copies to a 16-byte aligned destination with REP MOVSQ
// (runtime/memmove_amd64.s, cpuflags_amd64.go). A stored stream goes
// from anywhere in a chunk to a scratch buffer whose streams start
// aligned; on an Intel Xeon with AVX-512, ERMS and FSRM, REP MOVSQ copied
// such streams of 8-64 KiB at two thirds of the speed of the AVX loop
// memmove runs for an unaligned destination, where glibc's memcpy, which
// c-blosc2 calls, kept pace with the AVX loop (BenchmarkBloscLZDecodeOnC
// in bench/crosscheck: sensor_f32 at clevel 1, 0.92 of C before).
const repMovsMin = 2048

// ntCopies says whether a copy into an output too large for the caches
// is left whole so that memmove stores it around them: on AMD, where
// writing a large output non-temporally is what staging was measured to
// win (see stageOutput); not elsewhere (the Xeon above lost at every size
// it measured up to 16 MiB, the bypass threshold).
var ntCopies = runtime.GOARCH == "amd64" && cpuid.CPU.VendorID == cpuid.AMD

// copyOut copies src to dst as copy does. bypass says the output belongs
// to one too large for the caches (a super-chunk's data, see
// engine.bypass); a copy of bypassMinBytes or more is one too.
func copyOut(dst, src []byte, bypass bool) int {
	n := min(len(dst), len(src))
	if !splitCopies || (ntCopies && (bypass || n >= bypassMinBytes)) {
		return copy(dst, src)
	}
	if n < memmoveNTMin {
		if n >= repMovsMin && uintptr(unsafe.Pointer(unsafe.SliceData(dst)))&15 == 0 {
			// The first word alone leaves the rest to an unaligned
			// destination, which memmove copies with its AVX loop.
			copy(dst[:8], src[:8])
			return 8 + copy(dst[8:n], src[8:n])
		}
		return copy(dst, src)
	}
	for off := 0; off < n; off += copyPiece {
		end := min(off+copyPiece, n)
		copy(dst[off:end], src[off:end])
	}
	return n
}
