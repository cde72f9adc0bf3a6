//go:build purego || noasm || !gc || !(amd64 || arm64)

package bitshuffle

// This build has only the portable kernel.

func kernelUsable(k kernelID) bool { return k == kGeneric }

func shuffleWith(_ kernelID, dst, src []byte, typesize int) {
	shuffleGeneric(dst, src, typesize)
}

func unshuffleWith(_ kernelID, dst, src []byte, typesize int) {
	unshuffleGeneric(dst, src, typesize)
}

// pickKernel: this build has one kernel per level, for every typesize.
func pickKernel(k kernelID, _ int, _ bool) kernelID { return k }
