package main

import (
	"fmt"
	"io"
	"os"

	"github.com/goblosc/blosc"
)

// runAppend appends IN's bytes to an existing file in place: a Blosc2
// frame (refilling a short last chunk first, crash-safe).
func runAppend(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("append")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want FILE IN, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	if isDir(path) {
		return appendSparse(path, fs.Arg(1), stdin)
	}
	head := make([]byte, 16)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	n, _ := io.ReadFull(f, head)
	f.Close()
	switch detect(head[:n]) {
	case kindFrame:
		return appendFrame(path, fs.Arg(1), stdin)
	case kindBloscpack:
		return fmt.Errorf("%w: appending to Bloscpack files", blosc.ErrUnsupported)
	}
	return fmt.Errorf("%w: %s is neither a Blosc2 frame nor a Bloscpack file", blosc.ErrUnsupported, path)
}

// appendSparse appends IN to the sparse frame in dir, in place.
func appendSparse(dir, in string, stdin io.Reader) error {
	s, err := blosc.OpenSparseFrame(dir, true)
	if err != nil {
		return err
	}
	r, closeIn, err := openInput(in, stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	_, err = s.AppendFrom(r)
	return err
}
