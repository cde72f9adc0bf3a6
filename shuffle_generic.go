//go:build purego || noasm || !gc || !(amd64 || arm64)

package blosc

import "github.com/goblosc/blosc/internal/cpu"

// Without assembly only the portable kernel exists.

func compiledShuffleLevel(l cpu.Level) bool { return l == cpu.Generic }

func hasShuffleKernel(l cpu.Level) bool { return l == cpu.Generic }

func shuffleAsm(cpu.Level, []byte, []byte, int, int) int { return 0 }

func unshuffleAsm(cpu.Level, []byte, []byte, int, int, bool) int { return 0 }

// canBypass reports whether unshuffleBypass skips the caches: never here.
func canBypass(int) bool { return false }

// canUnshuffleStreams reports false: no kernel reads the streams of an
// unshuffle through separate pointers here (see dispatch_amd64.go).
func canUnshuffleStreams(ts, n int) bool { return false }

func unshuffleStreams([]byte, *[16]*byte, int, int) {
	panic("blosc: unshuffleStreams without a kernel")
}

// canUnshuffleRows reports false: no kernel unshuffles rows of a block's
// streams into their places without assembly.
func canUnshuffleRows(ts int) bool { return false }

func unshuffleRows([]byte, *[16]*byte, int, int, int, int, int, int) {
	panic("blosc: unshuffleRows without a kernel")
}

// rowsMinItems is 1: there are no row kernels.
func rowsMinItems() int { return 1 }

// canShuffleRows reports false: no kernel shuffles rows into a block's
// streams without assembly.
func canShuffleRows(ts int) bool { return false }

func shuffleRows([]byte, []byte, int, int, int, int, int, int, int) {
	panic("blosc: shuffleRows without a kernel")
}
