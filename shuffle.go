package blosc

// Shuffle writes the byte shuffle of src into dst, as Blosc defines it: src
// is read as len(src)/typesize elements of typesize bytes, byte j of every
// element goes to the j-th of typesize consecutive streams, and the trailing
// len(src)%typesize bytes are copied unchanged. dst must be at least
// len(src) bytes and must not overlap src.
//
// Shuffle panics if typesize < 1 or len(dst) < len(src): those are
// programming errors, not properties of the data.
func Shuffle(dst, src []byte, typesize int) {
	checkShuffleArgs(dst, src, typesize)
	shuffleAt(currentShuffleLevel(), dst[:len(src)], src, typesize)
}

// Unshuffle reverses Shuffle: dst receives the elements whose bytes src holds
// as typesize streams. The same rules on dst and typesize apply.
func Unshuffle(dst, src []byte, typesize int) {
	checkShuffleArgs(dst, src, typesize)
	unshuffleAt(currentShuffleLevel(), dst[:len(src)], src, typesize, false)
}

// unshuffleBypass is Unshuffle for a dst that is one piece of an output
// too large to stay in the caches (a block of a 256 MiB frame's data):
// where canBypass(typesize), its stores skip the caches, as Unshuffle's do
// only for buffers of ntThreshold bytes and more. An ordinary store first
// reads its line from memory, which a non-temporal one does not: the
// unshuffle rows of BenchmarkFrame (frame_bench_test.go) show the
// difference on a whole frame's Decompress.
func unshuffleBypass(dst, src []byte, typesize int) {
	checkShuffleArgs(dst, src, typesize)
	unshuffleAt(currentShuffleLevel(), dst[:len(src)], src, typesize, true)
}

func checkShuffleArgs(dst, src []byte, typesize int) {
	if typesize < 1 {
		panic("blosc: typesize must be at least 1")
	}
	if len(dst) < len(src) {
		panic("blosc: shuffle dst shorter than src")
	}
}

// shuffleGeneric is the portable byte shuffle. It stays compiled on every
// platform as the oracle the SIMD kernels are tested against.
func shuffleGeneric(dst, src []byte, typesize int) {
	n := len(src) / typesize
	body := n * typesize
	if typesize == 1 || n == 0 {
		copy(dst, src)
		return
	}
	for j := 0; j < typesize; j++ {
		out := dst[j*n : j*n+n]
		in := src[j:body]
		for i := range out {
			out[i] = in[i*typesize]
		}
	}
	copy(dst[body:len(src)], src[body:])
}

// unshuffleGeneric is the portable inverse of shuffleGeneric.
func unshuffleGeneric(dst, src []byte, typesize int) {
	n := len(src) / typesize
	body := n * typesize
	if typesize == 1 || n == 0 {
		copy(dst, src)
		return
	}
	for j := 0; j < typesize; j++ {
		in := src[j*n : j*n+n]
		out := dst[j:body]
		for i, b := range in {
			out[i*typesize] = b
		}
	}
	copy(dst[body:len(src)], src[body:])
}
