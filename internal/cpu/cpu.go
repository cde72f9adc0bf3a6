// Package cpu detects, once at init, the vector features the shuffle kernels
// can use, and reads the GOBLOSC_KERNEL override. Both the root package and
// bitshuffle consult it so one setting forces every kernel family.
package cpu

import (
	"os"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// Kernel levels, from the portable code up. A level names a family of
// kernels; each package picks its best kernel at or below the chosen level.
type Level uint8

const (
	Generic Level = iota
	SSE2
	AVX2
	AVX512
	NEON
)

var levelNames = [...]string{"generic", "sse2", "avx2", "avx512", "neon"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "unknown"
}

// ParseLevel maps a GOBLOSC_KERNEL value to a level.
func ParseLevel(s string) (Level, bool) {
	for i, n := range levelNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Level(i), true
		}
	}
	return Generic, false
}

// Features of this CPU, as the OS has enabled them (cpuid checks XGETBV).
var (
	X86HasSSE2     bool
	X86HasAVX2     bool
	X86HasAVX512BW bool // AVX-512 F+BW+VL
	X86HasVBMI     bool // AVX-512 VBMI
	X86HasGFNI     bool // GFNI (with AVX-512 for the 512-bit forms)
	ARM64HasNEON   bool
)

// EnvKernel is the environment variable that forces a kernel level.
const EnvKernel = "GOBLOSC_KERNEL"

// Requested is the level GOBLOSC_KERNEL asked for, and RequestedOK whether it
// was set to a known name.
var (
	Requested   Level
	RequestedOK bool
)

func init() {
	X86HasSSE2 = cpuid.CPU.Supports(cpuid.SSE2)
	X86HasAVX2 = cpuid.CPU.Supports(cpuid.AVX2)
	X86HasAVX512BW = cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL)
	X86HasVBMI = X86HasAVX512BW && cpuid.CPU.Supports(cpuid.AVX512VBMI)
	X86HasGFNI = cpuid.CPU.Supports(cpuid.GFNI)
	ARM64HasNEON = runtime.GOARCH == "arm64" // Advanced SIMD is baseline on arm64.
	if v, ok := os.LookupEnv(EnvKernel); ok && v != "" {
		Requested, RequestedOK = ParseLevel(v)
	}
}

// Available reports whether this CPU can run kernels of level l (the
// portable level always can; build tags may still compile kernels out).
func Available(l Level) bool {
	switch l {
	case Generic:
		return true
	case SSE2:
		return runtime.GOARCH == "amd64" && X86HasSSE2
	case AVX2:
		return runtime.GOARCH == "amd64" && X86HasAVX2
	case AVX512:
		return runtime.GOARCH == "amd64" && X86HasAVX512BW
	case NEON:
		return ARM64HasNEON
	}
	return false
}
