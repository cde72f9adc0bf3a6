package main

import (
	"io"

	"github.com/goblosc/blosc"
)

// appendSparse appends IN to the sparse frame in dir, in place.
func appendSparse(dir, in string, stdin io.Reader) error {
	s, err := blosc.OpenSparseFrameWritable(dir)
	if err != nil {
		return err
	}
	return appendInput(s, in, stdin)
}

// appendInput streams IN into s as one change, with a progress line.
func appendInput(s *blosc.SChunk, in string, stdin io.Reader) error {
	r, closeIn, err := openInput(in, stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	prog := newProgress(inputSize(in))
	defer prog.finish()
	_, err = s.AppendFrom(progressReader{r, prog})
	return err
}
