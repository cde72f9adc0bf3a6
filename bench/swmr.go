package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/goblosc/blosc/internal/swmr"
)

// runSWMR measures one writer process appending chunks to a frame file
// while reader processes read items and whole chunks (internal/swmr): the
// readers' item latency with and without the writer, and the writer's
// append rate with and without the readers, each check of every read
// included. The figures compare runs of the same machine and moment.
func runSWMR(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("swmr", flag.ContinueOnError)
	dur := fs.Duration("duration", 60*time.Second, "how long each of the three runs lasts")
	readers := fs.Int("readers", 8, "reader processes")
	goroutines := fs.Int("goroutines", 64, "reader goroutines, spread over the processes")
	chunk := fs.Int("chunk", 1<<20, "chunk size in bytes")
	locking := fs.Bool("locking", false, "take c-blosc2's cross-process lock (.b2lock) on every handle")
	kills := fs.Int("kills", 0, "times to kill (SIGKILL) and restart the writer during the run with readers")
	threads := fs.Int("threads", 0, "the writer's compression threads (0: all cores)")
	split := fs.Bool("split", false, "keep the writer on one CPU and the readers on the others (Linux)")
	dir := fs.String("dir", "", "where to make the frame file (default: a temporary directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "bench-swmr-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	path := filepath.Join(*dir, "swmr.b2frame")
	base := swmr.Config{Path: path, Duration: *dur, Readers: *readers, Goroutines: *goroutines, ChunkSize: *chunk, Locking: *locking, Threads: *threads, Split: *split}
	runOne := func(name string, cfg swmr.Config, initial int) (swmr.Report, error) {
		if err := swmr.Create(path, cfg.ChunkSize, initial); err != nil {
			return swmr.Report{}, err
		}
		fmt.Fprintf(os.Stderr, "bench swmr: %s for %v\n", name, cfg.Duration)
		rep, err := swmr.Run(cfg, []string{self})
		os.Remove(path)
		return rep, err
	}
	// Readers alone, on a frame of 64 chunks.
	alone, err := runOne("readers without a writer", base, 64)
	if err != nil {
		return err
	}
	// The writer alone.
	wcfg := base
	wcfg.Readers, wcfg.Goroutines, wcfg.Writer = 0, 0, true
	walone, err := runOne("the writer without readers", wcfg, 1)
	if err != nil {
		return err
	}
	both := base
	both.Writer, both.Kills = true, *kills
	together, err := runOne("the writer with readers", both, 64)
	if err != nil {
		return err
	}
	sec := dur.Seconds()
	fmt.Fprintf(stdout, "one writer (%d threads, 0: all cores) appending %d-byte chunks, %d reader processes of %d goroutines in all, %v each, locking %v, split %v\n\n",
		*threads, *chunk, *readers, *goroutines, *dur, *locking, *split)
	fmt.Fprintf(stdout, "| run | appends/s | appends/writer CPU s | item reads/s | chunk reads/s | item p50 | item p99 | inconsistencies |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	perCPU := func(r swmr.Report) float64 {
		if r.WriterCPU <= 0 {
			return 0
		}
		return float64(r.Appends) / r.WriterCPU.Seconds()
	}
	row := func(name string, r swmr.Report) {
		fmt.Fprintf(stdout, "| %s | %.1f | %.1f | %.0f | %.0f | %v | %v | %d |\n", name, float64(r.Appends)/sec, perCPU(r),
			float64(r.ItemReads)/sec, float64(r.ChunkReads)/sec, r.P50, r.P99, len(r.Inconsistencies))
	}
	row("readers alone", alone)
	row("writer alone", walone)
	row("writer and readers", together)
	if alone.P99 > 0 && walone.Appends > 0 {
		fmt.Fprintf(stdout, "\nitem p99 with the writer / without: %.2fx; appends with the readers / without: %.2fx",
			float64(together.P99)/float64(alone.P99), float64(together.Appends)/float64(walone.Appends))
		if perCPU(walone) > 0 {
			fmt.Fprintf(stdout, "; appends per writer CPU second with the readers / without: %.2fx", perCPU(together)/perCPU(walone))
		}
		fmt.Fprintln(stdout)
	}
	n := 0
	for _, r := range []swmr.Report{alone, together} {
		for _, x := range r.Inconsistencies {
			fmt.Fprintln(stdout, "inconsistency:", x)
			n++
		}
	}
	if n > 0 {
		return fmt.Errorf("%d inconsistencies", n)
	}
	return nil
}
