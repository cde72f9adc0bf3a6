// Command blosc compresses, decompresses, inspects and benchmarks Blosc
// data with the pure-Go goblosc library.
//
//	blosc compress [-format chunk2|chunk1|frame|sframe] [-chunksize N] [-codec C] [-level N] [-typesize N] [-shuffle none|byte|bit] [-blocksize N] [-threads N] IN OUT
//	blosc compress -format bloscpack [-checksum NAME] [-offsets=false] [-chunksize N] [-metadata JSONFILE] ... IN OUT
//	blosc compress -format b2nd -shape 300,200 -dtype '<f8' [-chunkshape 100,80] [-blockshape 25,40] ... IN OUT.b2nd
//	blosc compress ... IN.npy OUT.b2nd   (shape and dtype from the .npy header)
//	blosc decompress [-slice START:STOP,...] IN OUT   (an N-dimensional array in C order; OUT.npy: a NumPy file)
//	blosc info [-json] IN
//	blosc append [-codec C] [-level N] [-shuffle S] [-typesize N] FILE IN   (FILE: .blp, frame or sparse frame)
//	blosc bench [-json] [-kernels] ...
//
// IN and OUT may be "-" for standard input and output. Errors are one line
// on standard error and a non-zero exit status.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// usageError marks mistakes in the command line (exit status 2) apart from
// failures on the data (exit status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

var commands = []struct {
	name, summary string
	run           func(args []string, stdin io.Reader, stdout io.Writer) error
}{
	{"compress", "compress IN into a chunk or a frame written to OUT", runCompress},
	{"decompress", "decompress IN (format detected from its bytes) into OUT", runDecompress},
	{"info", "print the header of a chunk, or of a frame or Bloscpack file and its chunks", runInfo},
	{"append", "append IN to a frame, sparse frame or Bloscpack file in place (crash-safe)", runAppend},
	{"bench", "benchmark codecs, filters and kernels on built-in datasets", runBench},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		printUsage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdin, stdout)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		}
		fmt.Fprintf(stderr, "blosc %s: %v\n", c.name, err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stderr, "blosc: unknown command %q (try: blosc help)\n", args[0])
	return 2
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: blosc <command> [flags] [args]")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "IN and OUT may be - for stdin/stdout; blosc <command> -h lists its flags.")
	fmt.Fprintln(w, "BLOSC_LOCKING=1 takes c-blosc2's frame lock: shared for info and decompress, exclusive for append.")
}

// newFlagSet returns a flag set that reports errors to the caller instead
// of exiting, so every failure ends as one line on stderr.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("blosc "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args, turning flag errors into usage errors; -h prints
// the flag list to stderr.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(path)
}

func writeOutput(path string, stdout io.Writer, data []byte) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return writeFileAtomic(path, data)
}
