package blosc

// Batch runs fn, whose changes of s (AppendChunk, UpdateChunk,
// DeleteChunk, UpdateMetalayer, ...) then reach a frame file or sparse
// frame as one change when fn returns, with the crash safety of a single
// change: a crash leaves the frame as it was before Batch or as fn left
// it. A layer above a super-chunk (an N-dimensional array updating
// several chunks and its metalayer) uses it to keep its changes whole.
// If fn returns an error, nothing it changed reaches the file, which
// stays as it was before Batch (docs/durability.md); a super-chunk over a
// file must then be opened again, as after any failed change.
func (s *SChunk) Batch(fn func() error) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return fn()
}
