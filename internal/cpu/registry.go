package cpu

import (
	"runtime"
	"sync"
)

// Kernel is one implementation of a shuffle family, registered at init by
// the package that owns it so tests, benchmarks and `blosc bench -kernels`
// can run every kernel this CPU has. The hot paths never call through these
// function values: they switch on their package's selected level and call
// the kernels directly, which keeps buffers from escaping.
type Kernel struct {
	Family    string // "shuffle" or "bitshuffle"
	Level     Level
	Shuffle   func(dst, src []byte, typesize int)
	Unshuffle func(dst, src []byte, typesize int)
	// Requires, when set, reports features the kernel needs beyond its
	// level (the AVX-512 byte shuffle needs VBMI, for one). A kernel whose
	// Requires is false is listed but never run.
	Requires func() bool
}

// Name is the kernel's level name ("generic", "avx2", ...).
func (k Kernel) Name() string { return k.Level.String() }

// Available reports whether this CPU can run the kernel.
func (k Kernel) Available() bool {
	return Available(k.Level) && (k.Requires == nil || k.Requires())
}

var (
	mu       sync.Mutex
	registry []Kernel
)

// Register adds a kernel; packages call it from init.
func Register(k Kernel) {
	mu.Lock()
	defer mu.Unlock()
	registry = append(registry, k)
}

// Kernels returns the kernels registered for family, portable first, in
// level order, whether or not this CPU can run them.
func Kernels(family string) []Kernel {
	mu.Lock()
	defer mu.Unlock()
	var out []Kernel
	for l := Generic; l <= NEON; l++ {
		for _, k := range registry {
			if k.Family == family && k.Level == l {
				out = append(out, k)
			}
		}
	}
	return out
}

// Select picks the level a family runs: the best level the family has
// (has reports which it compiled in) and this CPU can run, at or below the
// level GOBLOSC_KERNEL requests when it names one. A request the CPU cannot
// honour therefore falls back instead of crashing.
func Select(has func(Level) bool) Level {
	limit := NEON
	if RequestedOK && SameArch(Requested) {
		limit = Requested
	}
	best := Generic
	for l := Generic; l <= limit; l++ {
		if has(l) && Available(l) {
			best = l
		}
	}
	return best
}

// SameArch reports whether a level belongs to this machine's architecture:
// a request for another architecture's kernels (neon on amd64, avx2 on
// arm64) says nothing about which of this one's to use, so it is ignored
// rather than read as a ceiling.
func SameArch(l Level) bool {
	switch l {
	case SSE2, AVX2, AVX512:
		return runtime.GOARCH == "amd64"
	case NEON:
		return runtime.GOARCH == "arm64"
	}
	return true
}

// Chosen is the level Select picks for family given the kernels registered
// for it; ok is false when nothing registered the family (its package is not
// linked in).
func Chosen(family string) (l Level, ok bool) {
	ks := Kernels(family)
	if len(ks) == 0 {
		return Generic, false
	}
	return Select(func(l Level) bool {
		for _, k := range ks {
			if k.Level == l && (k.Requires == nil || k.Requires()) {
				return true
			}
		}
		return false
	}), true
}
