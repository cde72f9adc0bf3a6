// Command bench is goblosc's performance-regression harness: it times this
// library beside the C libraries (when built with them) and memcpy, writes
// the figures in three forms, and compares two runs.
//
//	go run ./bench run [-suite quick|full] [-o DIR]   # from the repository root
//	go run ./bench compare [-threshold 5] [-unit x-memcpy] OLD NEW
//	go run -tags cblosc ./bench run                   # with c-blosc 1.x rows (cgo, libblosc-dev)
//	go run ./bench swmr [-duration 60s] [-locking]    # one writer, many readers of a frame file
//
// run writes DIR/bench.txt (Go benchmark format, for benchstat),
// DIR/bench.json (the machine and every sample) and DIR/report.html (the
// charts, self-contained). Every speed is also given as a ratio to a
// memcpy of the same bytes timed in the same round, the figure that
// compares across machines and across a noisy machine's moods.
//
// The module also holds the C cross-checks (./crosscheck, under the same
// build tags) and the cgo bindings (./internal), so the library module
// carries no cgo.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/goblosc/blosc/internal/swmr"
)

func main() {
	if os.Getenv(swmr.RoleEnv) != "" {
		// A writer or reader process of `bench swmr`.
		os.Exit(swmr.Child())
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks a mistake in the command line (exit status 2).
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	var err error
	switch args[0] {
	case "run":
		err = runSuite(args[1:], stdout, stderr)
	case "compare":
		err = runCompare(args[1:], stdout)
	case "swmr":
		err = runSWMR(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "bench: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "bench %s: %v\n", args[0], err)
		return 2
	case errors.Is(err, errRegression):
		fmt.Fprintf(stderr, "bench %s: %v\n", args[0], err)
		return 1
	}
	fmt.Fprintf(stderr, "bench %s: %v\n", args[0], err)
	return 1
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  bench run [-suite quick|full] [-o DIR]     time the suite; write DIR/bench.txt, bench.json, report.html
  bench compare [-threshold PCT] OLD NEW     per-benchmark deltas; exit 1 on a significant regression
  bench swmr [-duration 60s] [-readers 8] [-goroutines 64] [-locking]
                                             one writer process, reader processes: latency, throughput, consistency
Build with -tags cblosc (c-blosc 1.x) or cblosc2 (c-blosc2) to add the C libraries' rows.
`)
}

func usagef(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}
