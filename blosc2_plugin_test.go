package blosc

// readStream decodes one stream of a chunk of codec c with dictionary
// dict, for the stream-level tests.
func readStream(dst, src []byte, c Codec, dict []byte, cd codecDecoder) (int, error) {
	ch := chunk2{codec: c, dict: dict}
	return ch.readStream(dst, src, cd)
}
